# Breaks "Return the value of `state`": the root returns a pair (value, best action) instead of the number
# (search, pruning and the value inside the pair are unchanged).
# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player), None
        best = None
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                w, _ = search(game.result(s, a), alpha, beta)
                if best is None or w > v:
                    v, best = w, a
                if v >= beta:
                    return v, best
                alpha = max(alpha, v)
            return v, best
        v = math.inf
        for a in game.actions(s):
            w, _ = search(game.result(s, a), alpha, beta)
            if best is None or w < v:
                v, best = w, a
            if v <= alpha:
                return v, best
            beta = min(beta, v)
        return v, best

    return search(state, alpha, beta)
