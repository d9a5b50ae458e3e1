# Entry shallow_best_starts_at_zeros (06_beyond_two_players), cell(s): maxn_shallow_value
# Mistake: the best vector starts as (0, 0, 0) instead of 'nothing yet': the first child is told a bound of 0 instead of nothing, and a node whose children all give its player 0 returns (0, 0, 0) instead of its first child's vector
# First wrong step: the tree [[(5, 0, 5), (10, 0, 0)], [(3, 3, 4)]] with max_sum 10: P2.0's children both give P2 0, so it returns its starting (0, 0, 0) instead of (5, 0, 5), and the root returns (3, 3, 4) instead of (5, 0, 5); in [[(0, 10, 0), (0, 0, 10)], [(3, 3, 4)]] the first child P2.0 is told 0 instead of nothing and stops after (0, 10, 0) (10 >= 10 - 0), so L.1 is never valued
# Checked: Traced runs on those two trees with max_sum 10 and on shares with max_sum 10-15 and 20 (no difference there), this function against mine

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
        best = (0,) * len(game.players)
        for a in game.actions(s):
            v = value(game.result(s, a), best[j], mover)
            if v[j] > best[j]:
                best = v
            if bound is not None and parent != mover and best[j] >= max_sum - bound:
                break
        return best

    return value(state, None, None)
