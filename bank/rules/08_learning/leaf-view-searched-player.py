# Breaks "the value `v` is the leaf's value **for `p`** ... whoever is to move at the leaf": v is the leaf's value for
# the player to move AT THE LEAF (reward or value for game.to_move(leaf)); the gradient still uses features(leaf, p).
# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    """One TDLeaf step: the value of `state`, from its search's leaf, moved towards that of `next_state`."""
    p = game.to_move(state)
    leaf = search(state, depth, weights)
    finished = game.is_terminal(leaf)
    r = game.to_move(leaf)
    v = reward(game, leaf, r) if finished else value(weights, features(leaf, r))
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
        new_weights = [w + alpha * error * v * (1 - v) * x for w, x in zip(weights, f)]
    return LeafStep(leaf, v, target, error, new_weights)
