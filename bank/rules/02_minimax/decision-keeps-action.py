# Breaks "keep the action with the largest value": `best_action = action` slipped out of the `if`, so the
# loop returns the last action tried, whatever its value (best_value is still tracked correctly).
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        v = value(game.result(state, action))
        if v > best_value:
            best_value = v
        best_action = action
    return best_action
