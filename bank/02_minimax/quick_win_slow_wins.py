# ruff: noqa
# Bug: the depth enters with the wrong sign (utility * depth): slower wins score higher.
# %% quick_win_decision
def quick_win_decision(game, state):
    player = game.to_move(state)

    def score(s, depth):
        if game.is_terminal(s):
            return game.utility(s, player) * depth
        scores = [score(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(scores) if game.to_move(s) == player else min(scores)

    best_action, best_score = None, -math.inf
    for action in game.actions(state):
        v = score(game.result(state, action), 1)
        if v > best_score:
            best_action, best_score = action, v
    return best_action
