# Breaks "every later move with alpha = the best value found so far": alpha is set to the first move's value and
# never raised afterwards, so moves after a better one are searched with that stale alpha (same move, less pruning).
# %% alphabeta_decision
def alphabeta_decision(game, state):
    '''The first best action in `state` for the player to move, by alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, search(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best, alpha = None, -math.inf
    for a in game.actions(state):
        v = search(game.result(state, a), alpha, math.inf)
        if best is None:
            best, alpha, best_v = a, v, v
        elif v > best_v:
            best, best_v = a, v
    return best
