# ruff: noqa
# Bug: players not alternating: the search takes the max at every level.
# %% minimax_value
def minimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        return max(value(game.result(s, a)) for a in game.actions(s))

    return value(state)
