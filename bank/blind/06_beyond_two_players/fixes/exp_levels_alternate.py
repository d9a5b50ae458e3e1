# fix: the message says MAX/MIN alternated by level including chance levels; I decide max vs min by asking game.to_move(s) == player at each node.
# clear: yes

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == CHANCE:
            return sum(p * value(game.result(s, a), not maximizing) for a, p in game.outcomes(s))
        values = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state, True)
