# ruff: noqa
# Bug: internal nodes evaluated: "is it a leaf? just try utility()": every state's utility is
# asked for and the error of a state that is not terminal is caught. The values are right.
# %% minimax_value
def minimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        try:
            return game.utility(s, player)
        except ValueError:
            pass  # not over yet: look below
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)
