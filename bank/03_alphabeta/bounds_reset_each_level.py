# Each level passes on only "its own" bound: MAX gives (alpha, +inf) to its children,
# MIN gives (-inf, beta). Shallow cut-offs still happen, deep ones never do.
# Expected to lose test_deep only.

# %% alphabeta_value
import math


def max_value(game, state, alpha, beta, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game, game.result(state, a), alpha, math.inf, player))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(game, state, alpha, beta, player):
    if game.is_terminal(state):
        return game.utility(state, player)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game, game.result(state, a), -math.inf, beta, player))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    return max_value(game, state, alpha, beta, game.to_move(state))

# %% alphabeta_decision
def alphabeta_decision(game, state):
    player = game.to_move(state)
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = min_value(game, game.result(state, a), alpha, math.inf, player)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action
