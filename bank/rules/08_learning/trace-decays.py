# Breaks "the **trace** becomes `-lam * trace + v * (1 - v) * f`": lam is forgotten, the trace becomes
# -trace + v(1-v)f, so it flips sign but never decays (as if lam were always 1).
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
        trace = [-e + v * (1 - v) * x for e, x in zip(trace, f)]
        weights = [w + alpha * error * e for w, e in zip(weights, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history
