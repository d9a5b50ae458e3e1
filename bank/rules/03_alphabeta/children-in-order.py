# Breaks "Children are searched in the order game.actions(s) lists them": actions are popped from the end
# of the list (a stack), so children are searched last to first.
# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    player = game.to_move(state)

    def search(s, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        todo = list(game.actions(s))
        if game.to_move(s) == player:
            v = -math.inf
            while todo:
                a = todo.pop()
                v = max(v, search(game.result(s, a), alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        while todo:
            a = todo.pop()
            v = min(v, search(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    return search(state, alpha, beta)
