# Deep pruning: the bounds of every ancestor are passed down, not only the parent's.
# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    def value(s, bounds):
        if game.is_terminal(s):
            return game.utilities(s)
        me = game.to_move(s)
        j = game.players.index(me)
        best = None
        for a in game.actions(s):
            mine = [] if best is None else [(me, best[j])]
            v = value(game.result(s, a), mine + bounds)
            if best is None or v[j] > best[j]:
                best = v
            if any(who != me and best[j] >= max_sum - b for who, b in bounds):
                return best
        return best

    return value(state, [])
