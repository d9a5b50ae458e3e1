# The node keeps its improved bound in a separate variable, but every child is searched
# with the bounds the node itself was given: siblings never cut each other.
# Expected to lose test_pruning only.

# %% alphabeta_value
import math


def max_value(game, state, alpha, beta, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    v = -math.inf
    best_alpha = alpha
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, beta, player))
        if v >= beta:
            return v
        best_alpha = max(best_alpha, v)
    return v


def min_value(game, state, alpha, beta, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    v = math.inf
    best_beta = beta
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), alpha, beta, player))
        if v <= alpha:
            return v
        best_beta = min(best_beta, v)
    return v


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    return max_value(game, state, alpha, beta, game.to_move(state))

# %% alphabeta_decision
def alphabeta_decision(game, state):
    player = game.to_move(state)
    best_action, best = None, -math.inf
    for a in game.actions(state):
        v = min_value(game, game.result(state, a), best, math.inf, player)
        if v > best or best_action is None:
            best_action, best = a, v
    return best_action
