# Breaks "in actions() order": the root loop runs over the actions from last to first, with `>=` so that the
# returned action is still the first best one in actions() order; only the order of the search changes.
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
    for action in reversed(game.actions(state)):
        v = value(game.result(state, action))
        if v >= best_value:
            best_action, best_value = action, v
    return best_action
