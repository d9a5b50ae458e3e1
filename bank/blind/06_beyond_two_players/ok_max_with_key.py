# Entry ok_max_with_key (06_beyond_two_players), cell(s): expectimax_value, maxn_value
# Mistake: none: correct; max^n uses max(children, key=...) (which keeps the first of equals) and expectimax is one recursive function with the probabilities from game.outcomes
# First wrong step: none

# %% expectimax_value
def expectimax_value(game, state):
    """The expectimax value of `state` for the player to move there."""
    me = game.to_move(state)

    def ev(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        who = game.to_move(s)
        if who == CHANCE:
            return sum(prob * ev(game.result(s, face)) for face, prob in game.outcomes(s))
        best = max if who == me else min
        return best(ev(game.result(s, a)) for a in game.actions(s))

    return ev(state)

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    if game.is_terminal(state):
        return game.utilities(state)
    who = game.players.index(game.to_move(state))
    vectors = [maxn_value(game, game.result(state, a)) for a in game.actions(state)]
    return tuple(max(vectors, key=lambda v: v[who]))

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
