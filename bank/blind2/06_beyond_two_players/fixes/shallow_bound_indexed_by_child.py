# fix: The message said the bound is what the parent's player is sure of (P1 sure of 5), while I read the parent's best vector at the child's own index, so the bound now reads the parent player's entry of the parent's best vector.
# clear: partly

# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def search(s, parent_best, parent_player):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        me = game.to_move(s)
        j = game.players.index(me)
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), best, me)
            if best is None or v[j] > best[j]:
                best = v
            if parent_best is not None and parent_player != me and best[j] >= max_sum - parent_best[game.players.index(parent_player)]:
                return best
        return best

    return search(state, None, None)
