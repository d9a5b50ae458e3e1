# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    error = target - v
    slope = v * (1 - v)
    return [w + alpha * error * slope * f for w, f in zip(weights, features)]


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
            q = game.to_move(child)
            out.append((a, 1 - value(weights, features(child, q))))
    return out


# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    weights = list(weights)
    trace = [0.0] * len(weights)
    history = []
    state = game.initial
    while not game.is_terminal(state):
        p = game.to_move(state)
        f = features(state, p)
        v = value(weights, f)
        moves = move_values(game, state, weights)
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
        weights = [w + alpha * error * e for w, e in zip(weights, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history


# %% pv_leaf
def pv_leaf(game, state, depth, weights):
    """The leaf of the principal variation of a depth-limited alpha-beta search from `state` (see above)."""
    p = game.to_move(state)

    def search(s, d, alpha, beta):
        if game.is_terminal(s):
            return reward(game, s, p), s
        if d == 0:
            return value(weights, features(s, p)), s
        maximizing = game.to_move(s) == p
        best, leaf = None, None
        for a in game.actions(s):
            v, below = search(game.result(s, a), d - 1, alpha, beta)
            if maximizing:
                if best is None or v > best:
                    best, leaf = v, below
                if best >= beta:
                    break
                alpha = max(alpha, best)
            else:
                if best is None or v < best:
                    best, leaf = v, below
                if best <= alpha:
                    break
                beta = min(beta, best)
        return best, leaf

    return search(state, depth, -math.inf, math.inf)[1]


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
        f = features(leaf, p)
        new_weights = [w + alpha * error * v * (1 - v) * x for w, x in zip(weights, f)]
    return LeafStep(leaf, v, target, error, new_weights)
