# Breaks "each weight moves by `alpha * error * v * (1 - v) * features(leaf, p)[i]`, the gradient of the **leaf's**
# value": the gradient uses the features of the searched position, features(state, p), not the leaf's.
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
        f = features(state, p)
        new_weights = [w + alpha * error * v * (1 - v) * x for w, x in zip(weights, f)]
    return LeafStep(leaf, v, target, error, new_weights)
