# Breaks "With the second player to move, the decision is the best move for that player": values are
# computed for game.players[0] (taken to be MAX) whoever is to move, and the largest is kept.
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    root = game.players[0]  # MAX: assumed to be the first player

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
            best_action, best_value = action, v
    return best_action
