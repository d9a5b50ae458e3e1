# A MAX node prunes on a tie (v >= beta) but a MIN node does not (v < alpha): a mistake no profile knows. The
# decision is the lab's own, over this alphabeta_value: it may lose points in the groups of alphabeta_value only.

# %% alphabeta_value
import math


def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta))
            if v < alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)
