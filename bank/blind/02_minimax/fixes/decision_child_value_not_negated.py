# fix: the message gives the moves' values for the root player (MAX: 6, 7) while mine picked the worse one, because value() scored each child for the player to move at the child (the opponent); I negate that child value so it is for the player at the root.
# clear: partly

# %% minimax_decision
def minimax_decision(game, state):
    """The first action, in actions() order, with the best minimax value for the player to move."""

    def value(s):

        player = game.to_move(s)

        def v(t):
            if game.is_terminal(t):
                return game.utility(t, player)
            vals = [v(game.result(t, a)) for a in game.actions(t)]
            return max(vals) if game.to_move(t) == player else min(vals)

        return v(s)

    best_action, best_value = None, -math.inf
    for a in game.actions(state):
        child_value = -value(game.result(state, a))
        if child_value > best_value:
            best_action, best_value = a, child_value
    return best_action
