# fix: the message says to look the state up in the table first, before the terminal and depth-0 checks; I moved the table lookup to the top of value().
# clear: yes

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    player = game.to_move(state)

    def value(s, alpha, beta, depth):
        entry = table.get(s)
        if entry is not None:
            v, flag, d = entry
            if d >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)):
                return v
        if game.is_terminal(s):
            v = game.utility(s, player)
            table[s] = (v, EXACT, math.inf)
            return v
        if depth == 0:
            v = evaluate(s, player)
            table[s] = (v, EXACT, 0)
            return v
        alpha0, beta0 = alpha, beta
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
        flag = UPPER if v <= alpha0 else LOWER if v >= beta0 else EXACT
        table[s] = (v, flag, depth)
        return v

    return value(state, -math.inf, math.inf, depth)
