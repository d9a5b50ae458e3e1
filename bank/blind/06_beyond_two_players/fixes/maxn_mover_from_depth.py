# fix: the message says the mover was guessed from the depth; I ask game.to_move(state) at every node for the index to maximise.
# clear: yes

# %% maxn_value
def maxn_value(game, state, depth=0, first=None):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    if game.is_terminal(state):
        return tuple(game.utilities(state))
    if first is None:
        first = game.players.index(game.to_move(state))
    i = game.players.index(game.to_move(state))
    best = None
    for a in game.actions(state):
        v = maxn_value(game, game.result(state, a), depth + 1, first)
        if best is None or v[i] > best[i]:
            best = v
    return best
