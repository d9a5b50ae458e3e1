"""Bug: the table is keyed by the board alone (the state's first field: TicTacToe's board,
the number-picking game's total), without the player to move, so positions collide."""
import math

EXACT, LOWER, UPPER = "exact", "lower", "upper"

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        entry = table.get(s[0])
        if entry is not None and entry[2] >= depth:
            v, flag, _ = entry
            if flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha):
                return v
        if game.is_terminal(s):
            v = game.utility(s, player)
            table[s[0]] = (v, EXACT, math.inf)
            return v
        if depth == 0:
            v = evaluate(s, player)
            table[s[0]] = (v, EXACT, 0)
            return v
        entered = (alpha, beta)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf
            for a in game.actions(s):
                v = min(v, value(game.result(s, a), alpha, beta, depth - 1))
                if v <= alpha:
                    break
                beta = min(beta, v)
        if v <= entered[0]:
            flag = UPPER
        elif v >= entered[1]:
            flag = LOWER
        else:
            flag = EXACT
        table[s[0]] = (v, flag, depth)
        return v

    return value(state, -math.inf, math.inf, depth)
