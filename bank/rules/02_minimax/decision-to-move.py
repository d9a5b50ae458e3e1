# Breaks "Ask game.to_move(state) at every node instead": below the root the helper alternates MIN and MAX
# with each ply (a flag flipped per level) instead of asking to_move, so a player skipped in Reversi
# (null_move=False) is handled wrongly.
# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""
    root = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        if maximizing:
            return max(values)
        return min(values)

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        v = value(game.result(state, action), False)
        if v > best_value:
            best_action, best_value = action, v
    return best_action
