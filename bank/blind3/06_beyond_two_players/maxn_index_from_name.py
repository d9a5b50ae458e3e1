# Entry maxn_index_from_name (06_beyond_two_players), cell(s): maxn_value
# Mistake: the entry of the player to move is read at int(name[1:]), so 'P1' reads entry 1 (P2's) and 'P3' entry 3 (out of range): every player maximises the next player's entry
# First wrong step: three: the first P3 node, P3.0, reads entry 3 of (3, 3, 4) and fails with IndexError instead of keeping (3, 3, 4)
# Checked: maxn_value(three, 'P3.0') with this function (IndexError) and with mine

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
    i = int(game.to_move(state)[1:])
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
