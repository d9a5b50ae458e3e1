# fix: the message showed my search made no child at all and returned a stale value (from an earlier call); I moved the _values cache inside minimax_value so it is fresh on each call.
# clear: partly

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)
    _values = {}

    def value(s):
        if s in _values:
            return _values[s]
        if game.is_terminal(s):
            v = game.utility(s, player)
        else:
            values = [value(game.result(s, a)) for a in game.actions(s)]
            v = max(values) if game.to_move(s) == player else min(values)
        _values[s] = v
        return v

    return value(state)
