# Plain max^n: right vector, but nothing pruned.
# %% maxn_shallow_value
def maxn_shallow_value(game, state, max_sum):
    if game.is_terminal(state):
        return game.utilities(state)
    i = game.players.index(game.to_move(state))
    best = None
    for a in game.actions(state):
        v = maxn_shallow_value(game, game.result(state, a), max_sum)
        if best is None or v[i] > best[i]:
            best = v
    return best
