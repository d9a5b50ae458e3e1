# Breaks "value each child once": at a player's node a child that improves the best value is searched a second
# time to store it (`if value(child) > best: best = value(child)`).
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
            for a, p in game.outcomes(s):
                total += p * value(game.result(s, a))
            return total
        best = None
        for a in game.actions(s):
            child = game.result(s, a)
            if best is None or (value(child) > best if mover == root else value(child) < best):
                best = value(child)
        return best

    return value(state)
