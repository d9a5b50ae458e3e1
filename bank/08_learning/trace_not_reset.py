# Bug: the trace lives outside the function, so it is never reset between games.
# %% self_play_episode
TRACE = [0.0] * N_FEATURES


def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    global TRACE
    weights = list(weights)
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
        action = rng.choice(game.actions(state)) if rng.random() < epsilon else best_action
        error = target - v
        TRACE = [-lam * e + v * (1 - v) * f for e, f in zip(TRACE, feats)]
        weights = [w + alpha * error * e for w, e in zip(weights, TRACE)]
        history.append(Step(state, action, v, target, error, list(TRACE), list(weights)))
        state = game.result(state, action)
    return weights, history
