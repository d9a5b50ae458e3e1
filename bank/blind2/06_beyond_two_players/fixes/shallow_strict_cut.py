# fix: The message said to prune on equality too, so the cut test is now best[j] >= max_sum - bound.
# clear: yes

# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def search(s, bound, parent_player):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        me = game.to_move(s)
        j = game.players.index(me)
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), None if best is None else best[j], me)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and parent_player != me and best[j] >= max_sum - bound:
                return best
        return best

    return search(state, None, None)
