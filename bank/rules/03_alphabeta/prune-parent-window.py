# Breaks "A node starts with the (alpha, beta) window of its parent": the MIN branch calls search(child) without
# passing its window, so the MAX children of a MIN node start from the default (-inf, +inf); MAX nodes still pass
# theirs. Also loses the deep cut (the root's alpha never reaches below a MIN node), so it goes with deep-cut.
# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha=-math.inf, beta=math.inf):
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
            v = min(v, search(game.result(s, a)))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)
