# fix: the message says minimax_value crashed with max() of an empty sequence on a terminal root, so value() now returns the utility when its own state is terminal.
# clear: yes

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = []
        for a in game.actions(s):
            child = game.result(s, a)
            values.append(game.utility(child, player) if game.is_terminal(child) else value(child))
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)
