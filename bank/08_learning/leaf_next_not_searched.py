# Bug: only the position itself is searched; the target is the static value of the next position.
# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    me = game.to_move(state)
    leaf = search(state, depth, weights)
    if game.is_terminal(leaf):
        v, feats = reward(game, leaf, me), None
    else:
        feats = features(leaf, me)
        v = value(weights, feats)
    if game.is_terminal(next_state):
        target = reward(game, next_state, me)
    else:
        target = 1 - value(weights, features(next_state, game.to_move(next_state)))
    error = target - v
    new = list(weights) if feats is None else [w + alpha * error * v * (1 - v) * f for w, f in zip(weights, feats)]
    return LeafStep(leaf, v, target, error, new)
