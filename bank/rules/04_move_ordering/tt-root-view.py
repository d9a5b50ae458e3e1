# Breaks "value is from the point of view of the root player": entries are stored negamax-style, from the point of
# view of the player to move in the stored state (value negated and LOWER/UPPER swapped at the opponent's states), and
# converted back when read, so the search itself returns the same values.
# %% alphabeta_tt_value
def alphabeta_tt_value(game, state, table, depth=math.inf, evaluate=None):
    """Alpha-beta value of `state` searched `depth` plies deep, using and filling `table`."""
    player = game.to_move(state)

    swap = {EXACT: EXACT, LOWER: UPPER, UPPER: LOWER}

    def store(s, v, flag, d):
        table[s] = (v, flag, d) if game.to_move(s) == player else (-v, swap[flag], d)

    def search(s, alpha, beta, depth):
        entry = table.get(s)
        if entry is not None:
            v, flag, d = entry
            if game.to_move(s) != player:
                v, flag = -v, swap[flag]
            if d >= depth and (flag == EXACT or (flag == LOWER and v >= beta) or (flag == UPPER and v <= alpha)):
                return v
        if game.is_terminal(s):
            v = game.utility(s, player)
            store(s, v, EXACT, math.inf)
            return v
        if depth == 0:
            v = evaluate(s, player)
            store(s, v, EXACT, 0)
            return v
        alpha0, beta0 = alpha, beta
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta, depth - 1))
                if v >= beta:
                    break
                alpha = max(alpha, v)
        else:
            v = math.inf
            for a in game.actions(s):
                v = min(v, search(game.result(s, a), alpha, beta, depth - 1))
                if v <= alpha:
                    break
                beta = min(beta, v)
        if v <= alpha0:
            flag = UPPER
        elif v >= beta0:
            flag = LOWER
        else:
            flag = EXACT
        store(s, v, flag, depth)
        return v

    return search(state, -math.inf, math.inf, depth)
