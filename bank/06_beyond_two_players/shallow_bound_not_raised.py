# The parent's bound is taken from its first child only: a better second child never raises it,
# so a later child that the raised bound would cut is searched to the end.
# Expected to lose test_maxn_shallow only.
# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    return _search(game, state, max_sum, None, None)


def _search(game, state, max_sum, bound, above):
    if game.is_terminal(state):
        return game.utilities(state)
    me = game.to_move(state)
    j = game.players.index(me)
    best = None
    first = None
    for a in game.actions(state):
        v = _search(game, game.result(state, a), max_sum, first, me)
        if best is None or v[j] > best[j]:
            best = v
        if first is None:
            first = best[j]
        if bound is not None and above != me and best[j] >= max_sum - bound:
            return best
    return best
