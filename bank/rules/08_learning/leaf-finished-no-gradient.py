# Breaks "A finished leaf's value does not depend on the weights: they stay as they are": the update is made for a
# finished leaf too, alpha * error * v * (1 - v) * features(leaf, p)[i] with v its reward (this moves the weights
# when the leaf is a draw, v = 0.5, and the error is not 0).
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
    f = features(leaf, p)
    new_weights = [w + alpha * error * v * (1 - v) * x for w, x in zip(weights, f)]
    return LeafStep(leaf, v, target, error, new_weights)
