# Breaks "Terminal states are valued with game.utility(s, player) ... and nothing else is": the terminal test is
# done by asking game.utility(s, player) on every node and catching the error raised at non-terminal states.
# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        try:
            return game.utility(s, player)      # a leaf has a utility...
        except Exception:
            pass                                # ...an inner node raises: search its children
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

    return search(state, alpha, beta)
