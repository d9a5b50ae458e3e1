# Entry ok_left_for_parent_dict_probs (06_beyond_two_players), cell(s): none
# Mistake: none
# First wrong step: none

# %% expectimax_value
def expectimax_value(game, state):
    """Expectimax with the probabilities looked up in a dict built from outcomes()."""
    me = game.to_move(state)

    def ev(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        who = game.to_move(s)
        if who == CHANCE:
            probs = dict(game.outcomes(s))
            return sum(probs[a] * ev(game.result(s, a)) for a in game.actions(s))
        best = None
        for a in game.actions(s):
            v = ev(game.result(s, a))
            if best is None or (v > best if who == me else v < best):
                best = v
        return best

    return ev(state)

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
    """Shallow pruning with the cut test written as 'what is left for the parent's player'."""
    players = list(game.players)

    def value(s, parent=None, parent_best=None):
        if game.is_terminal(s):
            return tuple(game.utilities(s))
        me = game.to_move(s)
        j = players.index(me)
        best = None
        for a in game.actions(s):
            v = value(game.result(s, a), me, None if best is None else best[j])
            if best is None or v[j] > best[j]:
                best = v
            left_for_parent = max_sum - best[j]
            if parent_best is not None and parent is not None and parent != me and left_for_parent <= parent_best:
                break
        return best

    return value(state)
