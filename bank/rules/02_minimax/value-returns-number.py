# Breaks "minimax_value(game, state): the minimax value of state": the function returns a pair
# (value, best action at the root) instead of the value alone (the value inside the pair is right).
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.to_move(state)  # MAX: the player to move at the root

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    if game.is_terminal(state):
        return value(state), None
    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        v = value(game.result(state, a))
        if v > best_value:
            best_action, best_value = a, v
    return best_value, best_action
