"""Correct, another style: only exact values are kept (bounds are not stored at all); an
entry is reused only at exactly the depth it was searched to."""
import math

EXACT = "exact"

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        hit = table.get(s)
        if hit and hit[1] == EXACT and (hit[2] == depth or game.is_terminal(s)):
            return hit[0]
        if game.is_terminal(s):
            v = game.utility(s, player)
            table[s] = (v, EXACT, depth)
            return v
        if depth == 0:
            v = evaluate(s, player)
            table[s] = (v, EXACT, 0)
            return v
        low, high = alpha, beta
        mine = game.to_move(s) == player
        v = -math.inf if mine else math.inf
        for a in game.actions(s):
            w = value(game.result(s, a), alpha, beta, depth - 1)
            if mine:
                v = max(v, w)
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    return v
                beta = min(beta, v)
        if low < v < high:
            table[s] = (v, EXACT, depth)
        return v

    return value(state, -math.inf, math.inf, depth)
