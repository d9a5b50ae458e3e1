# Correct: AIMA-style separate functions, probabilities via actions() and game.probability.
# %% expectimax_value
def expectimax_value(game, state):
    me = game.to_move(state)

    def max_value(s):
        v = float("-inf")
        for a in game.actions(s):
            v = max(v, value(game.result(s, a)))
        return v

    def min_value(s):
        v = float("inf")
        for a in game.actions(s):
            v = min(v, value(game.result(s, a)))
        return v

    def chance_value(s):
        return sum(game.probability(s, a) * value(game.result(s, a)) for a in game.actions(s))

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        if game.to_move(s) == "CHANCE":
            return chance_value(s)
        return max_value(s) if game.to_move(s) == me else min_value(s)

    return value(state)
