# fix: the message's tree has MAX moving again after a chance node and my value wrong only at that MAX node, so my alternating maximising flag was wrong; a node now maximises when game.to_move(s) is the root player
# clear: partly

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, maximising):

        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == CHANCE:
            return sum(p * value(game.result(s, a), maximising) for a, p in game.outcomes(s))
        values = [value(game.result(s, a), not maximising) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state, True)
