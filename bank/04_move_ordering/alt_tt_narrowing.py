"""Correct, another style: bounds from the table narrow the window (alpha = max(alpha, lower),
beta = min(beta, upper)); the flag is decided against the window before narrowing; the
terminal and depth tests come first and are stored like any other state."""
import math

EXACT, LOWER, UPPER = "exact", "lower", "upper"

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    root_player = game.to_move(state)

    def search(s, alpha, beta, remaining):
        alpha0, beta0 = alpha, beta
        if s in table:
            v, flag, d = table[s]
            if d >= remaining:
                if flag == EXACT:
                    return v
                if flag == LOWER:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    return v
        if game.is_terminal(s):
            table[s] = (game.utility(s, root_player), EXACT, math.inf)
            return table[s][0]
        if remaining == 0:
            table[s] = (evaluate(s, root_player), EXACT, 0)
            return table[s][0]
        maximizing = game.to_move(s) == root_player
        best = -math.inf if maximizing else math.inf
        for a in game.actions(s):
            v = search(game.result(s, a), alpha, beta, remaining - 1)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if (maximizing and best >= beta) or (not maximizing and best <= alpha):
                break
        if best <= alpha0:
            table[s] = (best, UPPER, remaining)
        elif best >= beta0:
            table[s] = (best, LOWER, remaining)
        else:
            table[s] = (best, EXACT, remaining)
        return best

    return search(state, -math.inf, math.inf, depth)
