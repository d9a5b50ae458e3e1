# fix: The message says the state itself must be looked up first, before anything else (the root too, and at depth 0 and terminal states), but I only probed the children; I moved the probe to the start of search(s, ...) and the loop now just calls search on each child.
# clear: yes

# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    player = game.to_move(state)

    def probe(s, depth, alpha, beta):
        if s in table:
            v, flag, d = table[s]
            if d >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)):
                return v
        return None

    def search(s, depth, alpha, beta):
        w = probe(s, depth, alpha, beta)
        if w is not None:
            return w
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
            child = game.result(s, a)
            w = search(child, depth - 1, alpha, beta)
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
        flag = UPPER if v <= alpha0 else LOWER if v >= beta0 else EXACT
        table[s] = (v, flag, depth)
        return v

    return search(state, depth, -math.inf, math.inf)
