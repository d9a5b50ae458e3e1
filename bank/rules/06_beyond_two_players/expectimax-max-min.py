# Breaks "take the maximum when it is the root player's turn and the minimum otherwise": maximises when the first
# player of the game (game.players[0], "MAX" or "A") moves and minimises otherwise, whoever moves at the root
# (the leaves are still valued for the root player).
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
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == game.players[0] else min(values)

    return value(state)
