# fix: the message says chance nodes were valued as a minimum; I value a chance node as the expectation sum(p * value) over game.outcomes(s), checked before the max/min.
# clear: yes
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
        if mover == player:
            return max(values)
        else:
            return min(values)

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

    def search(s, bound, parent_player):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        player = game.to_move(s)
        j = game.players.index(player)
        best = None
        for a in game.actions(s):
            v = search(game.result(s, a), None if best is None else best[j], player)
            if best is None or v[j] > best[j]:
                best = v
            if bound is not None and parent_player != player and best[j] >= max_sum - bound:
                return best
        return best

    return search(state, None, None)
