# Breaks "a child is made with game.result(s, a) only when it is about to be searched": every node makes all
# its children first (a list comprehension), then searches them in order; pruned children were generated too.
# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        children = [game.result(s, a) for a in game.actions(s)]
        if game.to_move(s) == player:
            v = -math.inf
            for c in children:
                v = max(v, search(c, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for c in children:
            v = min(v, search(c, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)
