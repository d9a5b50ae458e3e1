# Correct alternative: numpy arrays for the weights and the trace, plain lists returned.
# %% td_update
import numpy as np


def td_update(weights, features, target, alpha):
    w, f = np.asarray(weights, dtype=float), np.asarray(features, dtype=float)
    v = value(weights, features)
    return list(map(float, w + alpha * (target - v) * v * (1 - v) * f))
# %% move_values
def move_values(game, state, weights):
    me = game.to_move(state)
    pairs = []
    for action in game.actions(state):
        child = game.result(state, action)
        worth = reward(game, child, me) if game.is_terminal(child) else 1.0 - value(weights, features(child, game.to_move(child)))
        pairs.append((action, worth))
    return pairs
