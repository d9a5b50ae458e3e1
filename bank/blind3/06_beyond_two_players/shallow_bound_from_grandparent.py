# Entry shallow_bound_from_grandparent (06_beyond_two_players), cell(s): maxn_shallow_value
# Mistake: a node that was told a bound passes that same bound (and its teller) on to its children instead of its own best entry, so a node is cut with a bound from two levels up (deep pruning), which the notebook shows is not safe
# First wrong step: deep_example [(6, 2, 2), [[(1, 5, 4), (0, 1, 9)], [(7, 3, 0)]]] with max_sum 10: P3.0 is told P1's 6 and stops after (1, 5, 4) since 4 >= 10 - 6, so P2 keeps (1, 5, 4) and the root returns (6, 2, 2) instead of (7, 3, 0)
# Checked: Traced(deep_example) with max_sum 10, this function against mine (vector and leaves valued)

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        mover = game.to_move(s)
        if mover == CHANCE:
            return sum(p * value(game.result(s, a)) for a, p in game.outcomes(s))
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if mover == player else min(values)

    return value(state)

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

    def value(s, bound, parent):
        # bound: the best entry the parent's player `parent` is sure of (None: nothing yet)
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        mover = game.to_move(s)
        j = game.players.index(mover)
        best = None
        for a in game.actions(s):
            if bound is not None:
                v = value(game.result(s, a), bound, parent)  # keep the bound from above
            else:
                v = value(game.result(s, a), None if best is None else best[j], mover)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and parent != mover and best[j] >= max_sum - bound:
                break
        return best

    return value(state, None, None)
