# alphabeta_value mixed up with the decision: it returns the best move at the root.
# Expected to lose test_value only.

# %% alphabeta_value
import math


def search(game, s, alpha, beta, player):
    if game.is_terminal(s):
        return game.utility(s, player)
    if game.to_move(s) == player:
        v = -math.inf
        for a in game.actions(s):
            v = max(v, search(game, game.result(s, a), alpha, beta, player))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for a in game.actions(s):
        v = min(v, search(game, game.result(s, a), alpha, beta, player))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)
    best_move, v = None, -math.inf
    for a in game.actions(state):
        w = search(game, game.result(state, a), alpha, beta, player)
        if w > v:
            best_move, v = a, w
        if v >= beta:
            return best_move
        alpha = max(alpha, v)
    return best_move

# %% alphabeta_decision
def alphabeta_decision(game, state):
    player = game.to_move(state)
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = search(game, game.result(state, a), alpha, math.inf, player)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action
