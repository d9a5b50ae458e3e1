# Bug: a finished game is valued by the evaluation instead of its reward.
# %% move_values
def move_values(game, state, weights):
    out = []
    for action in game.actions(state):
        child = game.result(state, action)
        out.append((action, 1 - value(weights, features(child, game.to_move(child)))))
    return out
