# fix: the message says the chance average used integer division on rounded weights; I use the probabilities p themselves and true division.
# clear: yes

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        mover = game.to_move(s)
        if mover == CHANCE:
            total, n = 0, 0
            for action, p in game.outcomes(s):

                k = p
                total += k * value(game.result(s, action))
                n += k
            return total / n
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if mover == player:
            return max(values)
        return min(values)

    return value(state)
