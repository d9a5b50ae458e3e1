# fix: The message said I take the minimum at chance nodes instead of the expectation over game.outcomes, so I added a chance-node branch returning sum(p * value) over the outcomes.
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
        return min(values)

    return value(state)
