# Bug: explores when the number drawn equals epsilon too (rng.random() <= epsilon, not < epsilon).
# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    weights = list(weights)
    trace = [0.0] * len(weights)
    state = game.initial
    history = []
    while not game.is_terminal(state):
        feats = features(state, game.to_move(state))
        v = value(weights, feats)
        moves = move_values(game, state, weights)
        best_action, target = moves[0]
        for action, worth in moves[1:]:
            if worth > target:
                best_action, target = action, worth
        if rng.random() <= epsilon:
            action = rng.choice(game.actions(state))
        else:
            action = best_action
        error = target - v
        trace = [-lam * e + v * (1 - v) * f for e, f in zip(trace, feats)]
        weights = [w + alpha * error * e for w, e in zip(weights, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history
