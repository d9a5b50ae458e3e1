# Breaks "that a node's player differs from its parent's (otherwise do not prune there)": the test
# `mover != parent` is dropped, so a node of the same player as its parent also stops when best[j] >= max_sum - bound.
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
            v = search(game.result(s, a), None if best is None else best[j], mover)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and best[j] >= max_sum - bound:
                break
        return best

    return search(state, None, None)
