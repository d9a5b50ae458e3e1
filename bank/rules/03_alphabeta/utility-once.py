# Breaks "Terminal states are valued with game.utility(s, player), once each": a terminal child is valued inline
# by the parent, which calls game.utility again to take the value when it improves v (a leaf can be valued twice).
# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == player:
            v = -math.inf
            for a in game.actions(s):
                child = game.result(s, a)
                if game.is_terminal(child):
                    if game.utility(child, player) > v:
                        v = game.utility(child, player)
                else:
                    v = max(v, search(child, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if game.is_terminal(child):
                if game.utility(child, player) < v:
                    v = game.utility(child, player)
            else:
                v = min(v, search(child, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)
