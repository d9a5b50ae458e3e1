# Alpha-beta's MIN rule carried over: stop when a child is no better for the parent's player.
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
            if bound is not None and v[game.players.index(above)] <= bound:
                return best
        return best

    return value(state, None, None)
