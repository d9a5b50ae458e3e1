# Breaks "call utility only on terminal states, once each": the leaf case asks utility twice, once to test
# for a draw and once more for the value to return (values are unchanged).
# %% minimax_value
def minimax_value(game, state):
    """The minimax value of `state` for the player to move there."""
    root = game.to_move(state)  # MAX: the player to move at the root

    def value(s):
        if game.is_terminal(s):
            if game.utility(s, root) == 0:  # a draw
                return 0
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == root:
            return max(values)
        return min(values)

    return value(state)
