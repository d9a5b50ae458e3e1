# Breaks "visit the children in actions() order": children are visited from the last action to the first
# (as a stack would pop them); the value is unchanged, only the order of the search is reversed.
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.to_move(state)  # MAX: the player to move at the root

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in reversed(game.actions(s))]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    return value(state)
