# fix: the message says the update must follow the gradient of the LEAF's value, features(leaf, p), not the searched position's; I changed features(state, p) to features(leaf, p)
# clear: yes
# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    step = alpha * (target - v) * v * (1 - v)
    return [w + step * f for w, f in zip(weights, features)]

# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    p = game.to_move(state)
    out = []
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child):
            out.append((a, reward(game, child, p)))
        else:
            out.append((a, 1 - value(weights, features(child, game.to_move(child)))))
    return out

# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    w = list(weights)
    trace = [0.0] * len(w)
    history = []
    state = game.initial
    while not game.is_terminal(state):
        p = game.to_move(state)
        f = features(state, p)
        v = value(w, f)
        moves = move_values(game, state, w)
        best_action, best = moves[0]
        for a, worth in moves[1:]:
            if worth > best:
                best_action, best = a, worth
        if rng.random() < epsilon:
            action = rng.choice(game.actions(state))
        else:
            action = best_action
        target = best
        error = target - v
        trace = [-lam * e + v * (1 - v) * x for e, x in zip(trace, f)]
        w = [wi + alpha * error * e for wi, e in zip(w, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(w)))
        state = game.result(state, action)
    return w, history

# %% pv_leaf
def pv_leaf(game, state, depth, weights):
    """The leaf of the principal variation of a depth-limited alpha-beta search from `state` (see above)."""
    p = game.to_move(state)

    def search(s, alpha, beta, depth):

        if game.is_terminal(s):
            return reward(game, s, p), s
        if depth == 0:
            return value(weights, features(s, p)), s
        if game.to_move(s) == p:
            best, leaf = -math.inf, None
            for a in game.actions(s):
                v, l = search(game.result(s, a), alpha, beta, depth - 1)
                if v > best:
                    best, leaf = v, l
                if best >= beta:
                    return best, leaf
                alpha = max(alpha, best)
            return best, leaf
        best, leaf = math.inf, None
        for a in game.actions(s):
            v, l = search(game.result(s, a), alpha, beta, depth - 1)
            if v < best:
                best, leaf = v, l
            if best <= alpha:
                return best, leaf
            beta = min(beta, best)
        return best, leaf

    return search(state, -math.inf, math.inf, depth)[1]

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
