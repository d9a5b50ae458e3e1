# Breaks "the smallest value among its children if MIN is to move": the MIN branch also takes max(values)
# (copy-paste of the MAX branch), so every node maximizes.
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.to_move(state)  # MAX: the player to move at the root

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return max(values)

    return value(state)
