"""Bug: sorting (key, action) pairs. Ties are broken by comparing the actions themselves,
so equal keys no longer keep their actions() order (the sort is not stable in effect)."""
import math

# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    player = game.to_move(state)

    def value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        actions = [a for _, a in sorted((key(s, a), a) for a in game.actions(s))]
        if game.to_move(s) == player:
            v = -math.inf
            for a in actions:
                v = max(v, value(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in actions:
            v = min(v, value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return value(state, -math.inf, math.inf)
