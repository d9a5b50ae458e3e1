# Bug: each leaf is valued for the player to move AT THE LEAF, not for the player to move at the searched position.
# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    me = game.to_move(state)
    leaf = search(state, depth, weights)
    if game.is_terminal(leaf):
        v, feats = reward(game, leaf, me), None
    else:
        feats = features(leaf, game.to_move(leaf))
        v = value(weights, feats)
    if game.is_terminal(next_state):
        target = reward(game, next_state, me)
    else:
        far = search(next_state, depth, weights)
        if game.is_terminal(far):
            target = reward(game, far, me)
        else:
            target = 1 - value(weights, features(far, game.to_move(far)))
    error = target - v
    new = list(weights) if feats is None else [w + alpha * error * v * (1 - v) * f for w, f in zip(weights, feats)]
    return LeafStep(leaf, v, target, error, new)
