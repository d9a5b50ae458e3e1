# fix: The message showed a MAX node below a chance node taking the wrong side (MAX moves again after the chance node, yet my alternating flag made it minimise), so max/min is now chosen by whether game.to_move(s) is the root player instead of the alternating flag.
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
