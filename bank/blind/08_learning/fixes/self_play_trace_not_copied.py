# fix: The message says every Step holds the same in-place-changed trace list and each needs its own copy; I store list(trace) in the Step.
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
    result = []
    for a in game.actions(state):
        child = game.result(state, a)
        if game.is_terminal(child):
            result.append((a, reward(game, child, p)))
        else:
            q = game.to_move(child)
            result.append((a, 1 - value(weights, features(child, q))))
    return result

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
        best_action, target = moves[0]
        for a, worth in moves[1:]:
            if worth > target:
                best_action, target = a, worth
        if rng.random() < epsilon:
            action = rng.choice(game.actions(state))
        else:
            action = best_action
        error = target - v
        for i in range(len(trace)):
            trace[i] = -lam * trace[i] + v * (1 - v) * f[i]
        weights = [w + alpha * error * e for w, e in zip(weights, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history
