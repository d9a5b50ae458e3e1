# fix: the message shows a MIN node below MAX not cutting with alpha = the MAX parent's value (e.g. P2.3 at (6, inf), v = 2), i.e. my negamax child never saw the parent's bound from its own side; when the child's mover is the opponent it is now searched with the negated, swapped window (-beta, -alpha).
# clear: partly

# %% alphabeta_value
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    '''The value of `state` for the player to move there, by fail-soft alpha-beta search.'''
    root = game.to_move(state)

    def negamax(s, alpha, beta):

        me = game.to_move(s)
        if game.is_terminal(s):
            u = game.utility(s, root)
            return u if me == root else -u
        best = -math.inf
        for a in game.actions(s):
            child = game.result(s, a)
            if game.to_move(child) != me:
                v = -negamax(child, -beta, -alpha)
            else:
                v = negamax(child, alpha, beta)
            best = max(best, v)
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best

    return negamax(state, alpha, beta)
