# Breaks "The value of a chance node is what its children are worth **on average**": the chance node weights each
# child by its probability and then also divides the sum by the number of outcomes (a "weighted average" taken twice).
# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        mover = game.to_move(s)
        if mover == "CHANCE":
            outcomes = game.outcomes(s)
            total = 0
            for a, p in outcomes:
                total += p * value(game.result(s, a))
            return total / len(outcomes)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == root else min(values)

    return value(state)
