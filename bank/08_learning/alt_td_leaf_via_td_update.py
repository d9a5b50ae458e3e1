# Correct alternative: both positions searched (a finished next position too: the search returns it), one helper
# values a leaf for a player, and the step on the leaf's features goes through td_update.
# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    def worth(leaf, player):
        return reward(game, leaf, player) if game.is_terminal(leaf) else value(weights, features(leaf, player))

    me, them = game.to_move(state), game.to_move(next_state)
    leaf, far = search(state, depth, weights), search(next_state, depth, weights)
    v = worth(leaf, me)
    target = reward(game, far, me) if game.is_terminal(far) else 1 - worth(far, them)
    if game.is_terminal(leaf):
        new = list(weights)
    else:
        new = td_update(weights, features(leaf, me), target, alpha)
    return LeafStep(leaf, v, target, target - v, new)
