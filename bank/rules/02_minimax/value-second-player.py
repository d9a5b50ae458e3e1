# Breaks "the value is always for the player to move at the root": MAX is taken to be the game's first
# player, game.players[0], whoever is to move at the root.
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.players[0]  # MAX: assumed to be the first player

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    return value(state)
