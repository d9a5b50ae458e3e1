# Entry ok_kind_dispatch_and_index_scan (06_beyond_two_players), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (expectimax_value, maxn_value, maxn_shallow_value): expectimax_value dispatches on a node kind computed once per node (terminal / chance / mine / theirs) and accumulates the average in a loop; maxn_value keeps the index of the first best child while scanning all children; maxn_shallow_value passes down only the entry its parent's player is sure of together with that player's index, and compares before storing
# Checked: the visible tests under nbconvert (all pass); against my base version: the same values and the same utility/generate traces on gambles, dice_then_min (from the root and from P2.3), 2,088 decision states of PigRace(6, 4, (1, 2, 2, 3)) (banks 0-5, turn totals 0-5, both players, 0-4 rolls left; so the roll/hold table is the same: +0.31 +0.56 +0.56 +0.56 / -0.69 -0.61 -0.59 +1.00); the same vectors and traces on three, tie, twice, shares (max_sum 10 and 20) and on 200 random trees of the notebook's random_shares

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def kind(s):
        if game.is_terminal(s):
            return "end"
        mover = game.to_move(s)
        return "chance" if mover == CHANCE else ("mine" if mover == me else "theirs")

    def value(s):
        k = kind(s)
        if k == "end":
            return game.utility(s, me)
        if k == "chance":
            total = 0.0
            for face, p in game.outcomes(s):
                total += p * value(game.result(s, face))
            return total
        pick = max if k == "mine" else min
        return pick(value(game.result(s, a)) for a in game.actions(s))

    return value(state)

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    if game.is_terminal(state):
        return tuple(game.utilities(state))
    me = game.players.index(game.to_move(state))
    vectors = [maxn_value(game, game.result(state, a)) for a in game.actions(state)]
    first_best = 0
    for k, v in enumerate(vectors):
        if v[me] > vectors[first_best][me]:
            first_best = k
    return vectors[first_best]

# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    """max^n with shallow pruning, for nonnegative utilities that sum to at most `max_sum`."""

    def search(s, above):
        # above: None, or (index of the parent's player, the entry that player is sure of)
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        j = game.players.index(game.to_move(s))
        best = None
        for a in game.actions(s):
            told = None if best is None else (j, best[j])
            v = search(game.result(s, a), told)
            if best is None or v[j] > best[j]:
                best = v
            if above is not None and above[0] != j and best[j] >= max_sum - above[1]:
                return best
        return best

    return search(state, None)
