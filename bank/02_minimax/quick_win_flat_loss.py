# ruff: noqa
# Bug: wins score 10 - depth, but every loss scores -10: the slowest loss is not preferred.
# %% quick_win_decision
def quick_win_decision(game, state):
    player = game.to_move(state)

    def score(s, depth):
        if game.is_terminal(s):
            u = game.utility(s, player)
            return 10 - depth if u > 0 else -10 if u < 0 else 0
        scores = [score(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(scores) if game.to_move(s) == player else min(scores)

    best_action, best_score = None, -math.inf
    for action in game.actions(state):
        v = score(game.result(state, action), 1)
        if v > best_score:
            best_action, best_score = action, v
    return best_action
