# Breaks "its utility for MAX if it is terminal: game.utility(state, MAX)": a leaf is scored for the player
# to move at the leaf, game.utility(s, game.to_move(s)), instead of for the root player.
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.to_move(state)  # MAX: the player to move at the root

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, game.to_move(s))
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    return value(state)
