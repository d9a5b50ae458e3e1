# Breaks "a win d plies below the root is worth 10 - d": a win scores a flat 10 (the depth was left out of
# the win branch); losses still score d - 10 and draws 0, so slow losses are still preferred but a quick
# win is no better than a slow one.
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    root = game.to_move(state)

    def score(s, d):
        if game.is_terminal(s):
            u = game.utility(s, root)
            if u > 0:
                return u * 10
            return u * (10 - d)
        values = [score(game.result(s, a), d + 1) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    best_action, best_value = None, -math.inf
    for action in game.actions(state):
        v = score(game.result(state, action), 1)
        if v > best_value:
            best_action, best_value = action, v
    return best_action
