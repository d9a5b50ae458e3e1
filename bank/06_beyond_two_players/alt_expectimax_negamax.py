# Correct: a loop with an explicit accumulator at chance nodes and a sign for MIN.
# %% expectimax_value
def expectimax_value(game, state):
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, root)
        who = game.to_move(s)
        if who == "CHANCE":
            expected = 0.0
            for outcome, probability in game.outcomes(s):
                expected += probability * value(game.result(s, outcome))
            return expected
        sign = 1 if who == root else -1
        best = None
        for a in game.actions(s):
            v = sign * value(game.result(s, a))
            if best is None or v > best:
                best = v
        return sign * best

    return value(state)
