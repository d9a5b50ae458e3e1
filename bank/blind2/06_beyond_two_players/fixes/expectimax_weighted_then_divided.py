# fix: The message said a chance node is worth sum(p * value) (my values were too small), so I removed the extra division by the number of outcomes.
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
            outcomes = game.outcomes(s)
            return sum(p * value(game.result(s, a)) for a, p in outcomes)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == player else min(values)

    return value(state)
