# fix: the message says the target is 1 - the next leaf's value for the player to move there; I added the missing `1 -`
# clear: yes

# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    """One TDLeaf step: the value of `state`, from its search's leaf, moved towards that of `next_state`."""
    p = game.to_move(state)

    def leaf_value(leaf, who):
        return reward(game, leaf, who) if game.is_terminal(leaf) else value(weights, features(leaf, who))

    leaf = search(state, depth, weights)
    v = leaf_value(leaf, p)
    if game.is_terminal(next_state):
        target = reward(game, next_state, p)
    else:
        q = game.to_move(next_state)
        target = 1 - leaf_value(search(next_state, depth, weights), q)
    error = target - v
    if game.is_terminal(leaf):
        new = list(weights)
    else:
        new = [w + alpha * error * v * (1 - v) * x for w, x in zip(weights, features(leaf, p))]
    return LeafStep(leaf, v, target, error, new)
