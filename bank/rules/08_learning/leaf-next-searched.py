# Breaks "else search it the same way (same `depth`, same weights), take its leaf's value `u`": next_state is not
# searched; u is its own static value for q, value(weights, features(next_state, q)), and the target is 1 - u.
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
        u = value(weights, features(next_state, q))
        target = 1 - u
    error = target - v
    if finished:
        new_weights = list(weights)
    else:
        f = features(leaf, p)
        new_weights = [w + alpha * error * v * (1 - v) * x for w, x in zip(weights, f)]
    return LeafStep(leaf, v, target, error, new_weights)
