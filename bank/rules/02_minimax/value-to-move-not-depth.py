# Breaks "Who moves at a node is asked with game.to_move(state); never assume it from the depth": the root
# player is still asked once, but below it MAX and MIN simply alternate with each ply (a flag flipped on
# every level), so a player who moves twice in a row (Reversi without a null move) is treated as MIN.
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.to_move(state)  # MAX: the player to move at the root

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        if maximizing:
            return max(values)
        return min(values)

    return value(state, True)
