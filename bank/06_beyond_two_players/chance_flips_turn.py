# A chance level counted as a player's ply: MAX and MIN alternate at every level.
# %% expectimax_value
def expectimax_value(game, state):
    player = game.to_move(state)

    def value(s, maximizing):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == "CHANCE":
            return sum(p * value(game.result(s, a), not maximizing) for a, p in game.outcomes(s))
        values = [value(game.result(s, a), not maximizing) for a in game.actions(s)]
        return max(values) if maximizing else min(values)

    return value(state, True)
