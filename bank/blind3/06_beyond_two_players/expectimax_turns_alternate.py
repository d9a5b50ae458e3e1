# Entry expectimax_turns_alternate (06_beyond_two_players), cell(s): expectimax_value
# Mistake: whose turn it is at a decision node is worked out from the last decision node above it (the other player moves next), not asked with game.to_move: after a roll of the die, when the same player decides again, the search lets the opponent choose
# First wrong step: PigRace(6, 4, (1, 2, 2, 3)), state(0, 0, 0, 'A', 2): A must roll; after a 2 (p = 0.5) A decides again with turn total 2 and one roll left, worth 0.75 to A, but the search lets B choose there and values it 0.0; the root is 0.0 instead of 0.375 (after a 1 and after a 3 the values agree: -0.75 and 0.75)
# Checked: every decision state of PigRace(6, 4, (1, 2, 2, 3)) with this function and with mine (708 differ; the first with the fewest rolls left is this one), then the value after each face of it

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    player = game.to_move(state)

    def value(s, maximising):
        # maximising: whether the root player decides at the next decision node
        if game.is_terminal(s):
            return game.utility(s, player)
        if game.to_move(s) == CHANCE:
            return sum(p * value(game.result(s, a), maximising) for a, p in game.outcomes(s))
        values = [value(game.result(s, a), not maximising) for a in game.actions(s)]
        return max(values) if maximising else min(values)

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
