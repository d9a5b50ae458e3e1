# fix: The message showed a MAX node below a chance node taking the wrong side (MAX moves again after the chance node, yet my alternating flag made it minimise), so max/min is now chosen by whether game.to_move(s) is the root player instead of the alternating flag.
# clear: partly
# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, maximising):
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == CHANCE:
            return sum(p * value(game.result(s, a), maximising) for a, p in game.outcomes(s))
        values = [value(game.result(s, a), not maximising) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state, True)

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    if game.is_terminal(state):
        return tuple(game.utilities(state))
    i = game.players.index(game.to_move(state))
    best = None
    for a in game.actions(state):
        v = maxn_value(game, game.result(state, a))
        if best is None or v[i] > best[i]:
            best = v
    return best

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
