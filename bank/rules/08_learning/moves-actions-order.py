# Breaks "Return a list of `(action, value)` pairs, one per action, in `game.actions(state)` order": the pairs come
# back sorted best first (a stable sort, so the first of largest value is still first; the values are right).
# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    p = game.to_move(state)
    out = []
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child):
            out.append((a, reward(game, child, p)))
        else:
            q = game.to_move(child)
            out.append((a, 1 - value(weights, features(child, q))))
    return sorted(out, key=lambda pair: -pair[1])
