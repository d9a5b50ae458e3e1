# fix: The message says the flag must be decided by the window the state was entered with; I compare v with alpha0/beta0 instead of the updated alpha/beta.
# clear: yes

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    player = game.to_move(state)

    def search(s, depth, alpha, beta):
        if s in table:
            v, flag, d = table[s]
            if d >= depth:
                if flag == EXACT:
                    return v
                if flag == LOWER and v >= beta:
                    return v
                if flag == UPPER and v <= alpha:
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
        maximizing = game.to_move(s) == player
        v = -math.inf if maximizing else math.inf
        for a in game.actions(s):
            w = search(game.result(s, a), depth - 1, alpha, beta)
            if maximizing:
                v = max(v, w)
                if v >= beta:
                    break
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    break
                beta = min(beta, v)
        if v <= alpha0:
            flag = UPPER
        elif v >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        table[s] = (v, flag, depth)
        return v

    return search(state, depth, -math.inf, math.inf)
