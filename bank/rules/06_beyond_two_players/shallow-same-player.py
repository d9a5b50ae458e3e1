# Breaks "that a node's player differs from its parent's (otherwise do not prune there)": the node stops on the bound
# it was told whoever its parent's player is (the test that the two players differ is left out), so a player who
# moves twice in a row cuts her own second node short.
# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def search(s, bound):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        mover = game.to_move(s)
        j = game.players.index(mover)
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), None if best is None else best[j])
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and best[j] >= max_sum - bound:
                break
        return best

    return search(state, None)
