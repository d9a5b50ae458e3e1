# Breaks "Visit the children in order": at a chance node the outcomes are visited most probable first (sorted by
# probability, largest first) instead of in outcomes()/actions() order; each child is still valued once.
# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        mover = game.to_move(s)
        if mover == "CHANCE":
            total = 0
            for a, p in sorted(game.outcomes(s), key=lambda ap: -ap[1]):
                total += p * value(game.result(s, a))
            return total
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == root else min(values)

    return value(state)
