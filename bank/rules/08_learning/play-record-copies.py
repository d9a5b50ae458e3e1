# Breaks "append `Step(...)` with copies of the trace and the new weights": trace and weights are updated in place and
# the Steps hold the lists themselves, so every recorded Step shows the trace and weights of the end of the game.
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
        for i, x in enumerate(f):
            trace[i] = -lam * trace[i] + v * (1 - v) * x
            weights[i] += alpha * error * trace[i]
        history.append(Step(state, action, v, target, error, trace, weights))
        state = game.result(state, action)
    return weights, history
