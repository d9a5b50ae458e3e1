# Breaks "the weights as they are **before** the update for everything": the weights are updated one by one in the new
# list, and each one's value, slope and error are recomputed from that list, which already holds the weights updated
# before it (the LeafStep still records the v, target and error computed before the update).
# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    """One TDLeaf step: the value of `state`, from its search's leaf, moved towards that of `next_state`."""
    p = game.to_move(state)
    leaf = search(state, depth, weights)
    finished = game.is_terminal(leaf)
    v = reward(game, leaf, p) if finished else value(weights, features(leaf, p))
    if game.is_terminal(next_state):
        target = reward(game, next_state, p)
    else:
        q = game.to_move(next_state)
        next_leaf = search(next_state, depth, weights)
        u = reward(game, next_leaf, q) if game.is_terminal(next_leaf) else value(weights, features(next_leaf, q))
        target = 1 - u
    error = target - v
    if finished:
        new_weights = list(weights)
    else:
        f = features(leaf, p)
        new_weights = list(weights)
        for i, x in enumerate(f):
            vi = value(new_weights, f)
            new_weights[i] += alpha * (target - vi) * vi * (1 - vi) * x
    return LeafStep(leaf, v, target, error, new_weights)
