# fix: the message said my chance nodes take the plain mean and ignore the probabilities; each outcome's value is now weighted by its p from game.outcomes
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
