# Breaks "the trace is reset every game, never carried over from the previous one": the trace is one list made once,
# when the cell runs, and updated in place, so a game starts with the trace the previous game ended with (the Steps
# still record copies).
# %% self_play_episode
TRACE = [0.0] * N_FEATURES


def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    weights = list(weights)
    trace = TRACE
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
        for i, x in enumerate(f):
            trace[i] = -lam * trace[i] + v * (1 - v) * x
        weights = [w + alpha * error * e for w, e in zip(weights, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history
