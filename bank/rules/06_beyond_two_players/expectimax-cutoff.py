# Breaks "Test `game.is_terminal(s)` first, before asking who moves": a node is first checked for being a chance
# node and averaged; only player nodes test is_terminal. Under CutOff a chance node at the depth limit is then
# expanded (CutOff.result refuses it) instead of taking the evaluation's guess.
# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    root = game.to_move(state)

    def value(s):
        mover = game.to_move(s)
        if mover == "CHANCE":
            total = 0
            for a, p in game.outcomes(s):
                total += p * value(game.result(s, a))
            return total
        if game.is_terminal(s):
            return game.utility(s, root)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == root else min(values)

    return value(state)
