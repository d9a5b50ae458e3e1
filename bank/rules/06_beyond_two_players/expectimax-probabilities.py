# Breaks "at a chance node weight each child by its probability from `game.outcomes(s)`": the chance node takes the
# plain mean of its children (every outcome counted as equally likely), ignoring the probabilities.
# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        mover = game.to_move(s)
        if mover == "CHANCE":
            values = [value(game.result(s, a)) for a in game.actions(s)]
            return sum(values) / len(values)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == root else min(values)

    return value(state)
