# The vector comes back rotated so that the root player's utility comes first.
# %% maxn_value
def maxn_value(game, state):
    me = game.players.index(game.to_move(state))

    def value(s):
        if game.is_terminal(s):
            return game.utilities(s)
        i = game.players.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a))
            if best is None or v[i] > best[i]:
                best = v
        return best

    v = value(state)
    return v[me:] + v[:me]
