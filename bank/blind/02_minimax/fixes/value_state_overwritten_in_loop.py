# fix: the message shows result() called on leaf L.0 at `s = game.result(s, a)`: I overwrote s inside the loop so the next move was played from the child; the child now goes in its own variable.
# clear: partly

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = []
        for a in game.actions(s):
            child = game.result(s, a)
            values.append(value(child))
        if game.to_move(s) == me:
            return max(values)
        return min(values)

    return value(state)
