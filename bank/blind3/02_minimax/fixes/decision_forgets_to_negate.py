# fix: the message shows my decision picking the move worth least for the root player (6 over 7, -14 for MIN), since value() of a child is for the opponent who moves there, so I negate it before comparing.
# clear: partly

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""

    def value(s):

        me = game.to_move(s)

        def v(t):
            if game.is_terminal(t):
                return game.utility(t, me)
            vs = [v(game.result(t, a)) for a in game.actions(t)]
            return max(vs) if game.to_move(t) == me else min(vs)

        return v(s)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        score = -value(game.result(state, a))
        if score > best_value:
            best_action, best_value = a, score
    return best_action
