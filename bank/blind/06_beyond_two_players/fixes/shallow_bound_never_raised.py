# fix: the message says the bound passed to children was not raised when a later child improved (should be 5 from the second child); I update the passed bound to best[j] whenever best improves.
# clear: yes

# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def search(s, bound, parent_player):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        player = game.to_move(s)
        j = game.players.index(player)
        best = None
        sure = None
        for a in game.actions(s):
            v = search(game.result(s, a), sure, player)
            if best is None or v[j] > best[j]:
                best = v
                sure = best[j]
            if bound is not None and parent_player != player and best[j] >= max_sum - bound:
                return best
        return best

    return search(state, None, None)
