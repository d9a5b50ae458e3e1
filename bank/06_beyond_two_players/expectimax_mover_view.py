# Leaves valued for the player who would move there, not for the root player.
# %% expectimax_value
def expectimax_value(game, state):
    player = game.to_move(state)

    def value(s, who):
        if game.is_terminal(s):
            return game.utility(s, who)
        mover = game.to_move(s)
        if mover == "CHANCE":
            return sum(p * value(game.result(s, a), who) for a, p in game.outcomes(s))
        values = [value(game.result(s, a), mover) for a in game.actions(s)]
        return max(values) if mover == player else min(values)

    return value(state, player)
