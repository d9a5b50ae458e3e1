# fix: the message showed leaves valued with utility for the player to move at the leaf; leaves now use game.utility(s, player) (the root player).
# clear: yes

# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == player:
            return max(values)
        return min(values)

    return value(state)
