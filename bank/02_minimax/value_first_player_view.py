# ruff: noqa
# Bug: wrong perspective: values are always computed for the game's first player, even when
# the second player is to move at the root.
# %% minimax_value
def minimax_value(game, state):
    me = game.players[0]

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    return value(state)
