# `if search(child) > v: v = search(child)`: every child that improves v is searched
# a second time. Expected to lose test_children only.

# %% alphabeta_value
import math


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        maxing = game.to_move(s) == player
        v = -math.inf if maxing else math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if maxing:
                if search(child, alpha, beta) > v:
                    v = search(child, alpha, beta)
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                if search(child, alpha, beta) < v:
                    v = search(child, alpha, beta)
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    return search(state, alpha, beta)

# %% alphabeta_decision
def alphabeta_decision(game, state):
    best_action, alpha = None, -math.inf
    for a in game.actions(state):
        v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
        if best_action is None or v > alpha:
            best_action, alpha = a, v
    return best_action
