# fix: the message said on a tie for P1 the first child with the largest own entry must be kept, but my max over (v[i], v) broke ties by the whole vector; I now take max(children, key=lambda v: v[i]), which keeps the first
# clear: yes

# %% maxn_value
def maxn_value(game, state):
    """The max^n utility vector of `state`: each player keeps the first child best for her."""
    if game.is_terminal(state):
        return tuple(game.utilities(state))
    i = game.players.index(game.to_move(state))
    children = [maxn_value(game, game.result(state, a)) for a in game.actions(state)]
    return max(children, key=lambda v: v[i])
