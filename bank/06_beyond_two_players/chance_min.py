# Takes the worst case at a chance node, as if the opponent chose the roll.
# %% expectimax_value
def expectimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        mover = game.to_move(s)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if mover == "CHANCE":
            return min(values)
        return max(values) if mover == player else min(values)

    return value(state)
