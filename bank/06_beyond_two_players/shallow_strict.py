# Prunes only past the bound, not on equality.
# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    def value(s, bound, above):
        if game.is_terminal(s):
            return game.utilities(s)
        me = game.to_move(s)
        j = game.players.index(me)
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), None if best is None else best[j], me)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and above != me and best[j] > max_sum - bound:
                return best
        return best

    return value(state, None, None)
