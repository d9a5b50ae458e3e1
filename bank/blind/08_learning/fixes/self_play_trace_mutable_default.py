# fix: The message says each game must start with a trace of zeros, mine carried the trace over from the previous game via the mutable default; I now reset trace to zeros at the start of each call.
# clear: yes

# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0, trace=[0.0] * N_FEATURES):
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
