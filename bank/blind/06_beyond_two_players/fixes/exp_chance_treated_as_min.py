# fix: the message says chance nodes were valued as a minimum; I value a chance node as the expectation sum(p * value) over game.outcomes(s), checked before the max/min.
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
            return sum(p * value(game.result(s, a)) for a, p in game.outcomes(s))
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if mover == player:
            return max(values)
        else:
            return min(values)

    return value(state)
