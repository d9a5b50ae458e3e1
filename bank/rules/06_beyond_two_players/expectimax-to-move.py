# Breaks "Ask `game.to_move(s)` at every node: after a roll of the die the same player may move again": to_move is
# asked only to spot chance nodes; who maximises is tracked by a flag that flips after every player's move (chance
# nodes pass it through), as if turns simply alternated.
# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    root = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, root)
        if game.to_move(s) == "CHANCE":
            total = 0
            for a, p in game.outcomes(s):
                total += p * value(game.result(s, a), maximizing)
            return total
        values = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        return max(values) if maximizing else min(values)

    return value(state, True)
