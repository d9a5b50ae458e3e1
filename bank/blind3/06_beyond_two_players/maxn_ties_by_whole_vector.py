# Entry maxn_ties_by_whole_vector (06_beyond_two_players), cell(s): maxn_value
# Mistake: picks the child with max((v[i], v) for each child vector v): a tie on the mover's entry is broken by comparing the whole vectors (the larger P1 entry first) instead of keeping the first child
# First wrong step: tie tree [[(3, 5, 2), (1, 5, 4)], [(2, 3, 4)]]: P2.0 is offered 5 twice and keeps (3, 5, 2) because 3 > 1 (right by luck here); in [[(1, 5, 4), (3, 5, 2)], [(2, 3, 4)]] it keeps (3, 5, 2) instead of the first, (1, 5, 4), and the root gets (3, 5, 2) instead of (2, 3, 4)
# Checked: maxn_value on both tie trees, this function against mine

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
    children = [maxn_value(game, game.result(state, a)) for a in game.actions(state)]
    return max((v[i], v) for v in children)[1]

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
            v = value(game.result(s, a), None if best is None else best[j], mover)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and parent != mover and best[j] >= max_sum - bound:
                break
        return best

    return value(state, None, None)
