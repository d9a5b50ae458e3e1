# The depth is tested before is_terminal: a finished game at the cut-off depth gets the
# evaluation's guess instead of its utility.

# %% depth_limited_value
import math


def depth_limited_value(game, state, depth, evaluate):
    player = game.to_move(state)

    def value(s, d, alpha, beta):
        if d == 0:
            return evaluate(s, player)
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, depth, -math.inf, math.inf)
