# Breaks "when every move loses, the slowest loss scores highest": the loss branch is written as -10 - d (a sign
# slip for d - 10, i.e. utility * (10 + d)), so a deep loss scores lower than a quick one; wins still score
# 10 - d and draws 0.
# %% quick_win_decision
def quick_win_decision(game, state):
    """Like minimax_decision, but a terminal state d plies below scores utility * (10 - d)."""
    root = game.to_move(state)

    def score(s, d):
        if game.is_terminal(s):
            u = game.utility(s, root)
            if u < 0:
                return u * (10 + d)
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
