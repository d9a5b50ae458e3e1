# Correct: AIMA's style, a pair of module-level helpers max_value / min_value defined in
# the first cell and reused by the decision.

# %% depth_limited_value
import math


def max_value(game, state, depth, alpha, beta, player, evaluate):
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        return evaluate(state, player)
    v = -math.inf
    for action in game.actions(state):
        v = max(v, min_value(game, game.result(state, action), depth - 1, alpha, beta, player, evaluate))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, depth, alpha, beta, player, evaluate):
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        return evaluate(state, player)
    v = math.inf
    for action in game.actions(state):
        v = min(v, max_value(game, game.result(state, action), depth - 1, alpha, beta, player, evaluate))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def depth_limited_value(game, state, depth, evaluate):
    return max_value(game, state, depth, -math.inf, math.inf, game.to_move(state), evaluate)

# %% depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    player = game.to_move(state)
    best, alpha = None, -math.inf
    for action in game.actions(state):
        v = min_value(game, game.result(state, action), depth - 1, alpha, math.inf, player, evaluate)
        if best is None or v > alpha:
            best, alpha = action, v
    return best
