# Values always from the point of view of the player who starts the game, not of the
# player to move in `state`: wrong as soon as the second player is to move.
# Expected to lose test_value only (the decision shares the same search).

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
    me = game.to_move(game.initial)
    return search(game, state, alpha, beta, me)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    me = game.to_move(game.initial)
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = search(game, game.result(state, a), alpha, math.inf, me)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action
