# Entry shallow_bound_indexed_by_child (06_beyond_two_players), cell(s): maxn_shallow_value
# Mistake: passes the parent's whole best vector down and the child reads the bound at ITS OWN index instead of the parent player's entry
# First wrong step: [(6, 1, 3), [(1, 5, 4), (7, 3, 0)]] with max_sum 10: P2.0 receives P1's best (6, 1, 3) and reads its own entry 1 as the bound; after (1, 5, 4) it tests 5 >= 10 - 1 (false) instead of 5 >= 10 - 6 (true) and values (7, 3, 0) as well

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
            if parent_best is not None and parent_player != me and best[j] >= max_sum - parent_best[j]:
                return best
        return best

    return search(state, None, None)
