# ruff: noqa
# Bug: children in another order: the actions are visited from last to first.
# %% minimax_value
def minimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in reversed(game.actions(s))]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)
