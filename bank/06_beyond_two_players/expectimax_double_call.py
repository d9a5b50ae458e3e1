# Calls the recursion twice for the best child: leaves get valued twice.
# %% expectimax_value
def expectimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        mover = game.to_move(s)
        if mover == "CHANCE":
            return sum(p * value(game.result(s, a)) for a, p in game.outcomes(s))
        best = None
        for a in game.actions(s):
            child = game.result(s, a)
            if best is None or (value(child) > best if mover == player else value(child) < best):
                best = value(child)
        return best

    return value(state)
