# fix: the message says the value is for the player to move at the root, not the game's first player; me is now game.to_move(state).
# clear: yes

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == me:
            return max(values)
        return min(values)

    return value(state)
