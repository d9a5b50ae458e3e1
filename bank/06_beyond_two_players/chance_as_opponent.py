# A chance node treated as a player: anything that is not the root player's turn minimises.
# %% expectimax_value
def expectimax_value(game, state):
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        if game.to_move(s) == player:
            return max(values)
        return min(values)

    return value(state)
