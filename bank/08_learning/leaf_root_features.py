# Bug: the value comes from the search's leaf, but the update moves the weights of the root's features.
# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    me = game.to_move(state)
    leaf = search(state, depth, weights)
    finished = game.is_terminal(leaf)
    v = reward(game, leaf, me) if finished else value(weights, features(leaf, me))
    if game.is_terminal(next_state):
        target = reward(game, next_state, me)
    else:
        them = game.to_move(next_state)
        far = search(next_state, depth, weights)
        target = 1 - (reward(game, far, them) if game.is_terminal(far) else value(weights, features(far, them)))
    error = target - v
    if finished:
        return LeafStep(leaf, v, target, error, list(weights))
    root = features(state, me)
    return LeafStep(leaf, v, target, error, [w + alpha * error * v * (1 - v) * f for w, f in zip(weights, root)])
