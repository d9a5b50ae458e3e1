# Entry ok_gradient_lists_and_negamax_leaf (08_learning), cell(s): none
# Mistake: none
# First wrong step: none
# Alternative (td_update, move_values, self_play_episode, pv_leaf, td_leaf_update): td_update builds the gradient list first and adds it; move_values maps a helper over the actions; self_play_episode keeps the best move with max() over the move list (which keeps the first of equal values) and the trace update in a loop; pv_leaf as negamax that carries (value for the node's mover, leaf) and flips it as 1 - value at the opponent's nodes; td_leaf_update values leaves through one small function
# Checked: the visible tests under nbconvert (all pass); against my base version: the same weights from td_update on 50 random cases; the same move_values on 200 random positions; the same histories (all seven fields, within 1e-12) for 60 self-play games (seeds 0-9 x epsilon 0, 0.3, 1 x lam 0, 0.6); the same pv_leaf leaves on 200 random positions at depths 1-3 with HAND_WEIGHTS, also equal to an unpruned minimax that keeps the first best leaf; the same LeafSteps on 200 random (state, next_state) pairs at depths 1-3

# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    gradient = [v * (1 - v) * f for f in features]
    error = target - v
    return [w + alpha * error * g for w, g in zip(weights, gradient)]

# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    mover = game.to_move(state)

    def worth(action):
        after = game.result(state, action)
        if game.is_terminal(after):
            return reward(game, after, mover)
        return 1 - value(weights, features(after, game.to_move(after)))

    return [(a, worth(a)) for a in game.actions(state)]

# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    w = [float(x) for x in weights]
    trace = [0.0 for _ in w]
    record = []
    s = game.initial
    while not game.is_terminal(s):
        player = game.to_move(s)
        f = features(s, player)
        v = value(w, f)
        options = move_values(game, s, w)
        greedy, target = max(options, key=lambda pair: pair[1])  # max keeps the first of equal values
        explore = rng.random() < epsilon
        played = rng.choice(game.actions(s)) if explore else greedy
        error = target - v
        for i in range(len(w)):
            trace[i] = -lam * trace[i] + v * (1 - v) * f[i]
            w[i] += alpha * error * trace[i]
        record.append(Step(s, played, v, target, error, list(trace), list(w)))
        s = game.result(s, played)
    return w, record

# %% pv_leaf
def pv_leaf(game, state, depth, weights):
    """The leaf of the principal variation of a depth-limited alpha-beta search from `state` (see above)."""
    root = game.to_move(state)

    def negamax(s, alpha, beta, left):
        # (value of s for its player to move, on the 0..1 scale, and the leaf it came from); alpha, beta for that player
        me = game.to_move(s)
        if game.is_terminal(s) or left == 0:
            mine = reward(game, s, root) if game.is_terminal(s) else value(weights, features(s, root))
            return (mine if me == root else 1 - mine), s
        best, leaf = None, None
        for a in game.actions(s):
            child = game.result(s, a)
            if game.to_move(child) == me:
                v, l = negamax(child, alpha, beta, left - 1)
            else:
                v, l = negamax(child, 1 - beta, 1 - alpha, left - 1)
                v = 1 - v
            if best is None or v > best:
                best, leaf = v, l
            if best >= beta:
                break
            alpha = max(alpha, best)
        return best, leaf

    return negamax(state, -math.inf, math.inf, depth)[1]

# %% td_leaf_update
def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
    """One TDLeaf step: the value of `state`, from its search's leaf, moved towards that of `next_state`."""
    def worth(s, who):
        return (reward(game, s, who), False) if game.is_terminal(s) else (value(weights, features(s, who)), True)

    p = game.to_move(state)
    leaf = search(state, depth, weights)
    v, learns = worth(leaf, p)
    if game.is_terminal(next_state):
        target = reward(game, next_state, p)
    else:
        q = game.to_move(next_state)
        target = 1 - worth(search(next_state, depth, weights), q)[0]
    error = target - v
    if not learns:
        return LeafStep(leaf, v, target, error, list(weights))
    slope = v * (1 - v)
    return LeafStep(leaf, v, target, error,
                    [w + alpha * error * slope * x for w, x in zip(weights, features(leaf, p))])
