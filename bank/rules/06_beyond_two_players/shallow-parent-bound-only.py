# Breaks "it uses the bound of the **parent** only": before its first child a node passes down the bound it was told
# (its parent's) instead of nothing, so a grandparent's bound cuts two levels down (deep pruning).
# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def search(s, bound, parent):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        mover = game.to_move(s)
        j = game.players.index(mover)
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), bound if best is None else best[j], mover)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and mover != parent and best[j] >= max_sum - bound:
                break
        return best

    return search(state, None, None)
