"""Correct, another style: separate MAX and MIN functions, list.sort with the index as an explicit tie-break."""
import math

# %% ordered_alphabeta_value
def ordered_alphabeta_value(game, state, key):
    me = game.to_move(state)

    def in_order(s):
        ranked = [(key(s, a), i, a) for i, a in enumerate(game.actions(s))]
        ranked.sort(key=lambda t: (t[0], t[1]))
        return [a for _, _, a in ranked]

    def max_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, me)
        best = -math.inf
        for a in in_order(s):
            best = max(best, search(game.result(s, a), alpha, beta))
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best

    def min_value(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, me)
        best = math.inf
        for a in in_order(s):
            best = min(best, search(game.result(s, a), alpha, beta))
            if best <= alpha:
                break
            beta = min(beta, best)
        return best

    def search(s, alpha, beta):
        if not game.is_terminal(s) and game.to_move(s) != me:
            return min_value(s, alpha, beta)
        return max_value(s, alpha, beta)

    return search(state, -math.inf, math.inf)
