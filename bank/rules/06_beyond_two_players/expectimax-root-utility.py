# Breaks "Terminal states use `game.utility(s, player)` for that player": a terminal state is valued for the player
# `game.to_move` names at that terminal state, not for the root player.
# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, game.to_move(s))
        mover = game.to_move(s)
        if mover == "CHANCE":
            total = 0
            for a, p in game.outcomes(s):
                total += p * value(game.result(s, a))
            return total
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == root else min(values)

    return value(state)
