# Correct: leaf vectors built from one utility() call per player; max() with a key keeps the first best.
# %% maxn_value
def maxn_value(game, state):
    if game.is_terminal(state):
        return tuple(game.utility(state, p) for p in game.players)
    i = game.players.index(game.to_move(state))
    children = [maxn_value(game, game.result(state, a)) for a in game.actions(state)]
    return max(children, key=lambda v: v[i])
