# Breaks "after each child ... it updates its best vector ... and stops when `best[j] >= max_sum - bound`": the
# bounds are passed down but the node never stops (the test is missing), so it values every leaf like plain max^n.
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
        return best

    return search(state, None, None)
