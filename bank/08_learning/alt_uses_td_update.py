# Correct alternative: with lam = 0 the update goes through td_update; the best move found with max().
# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    weights = list(weights)
    trace = [0.0] * len(weights)
    state, history = game.initial, []
    while not game.is_terminal(state):
        feats = features(state, game.to_move(state))
        v = value(weights, feats)
        moves = move_values(game, state, weights)
        target = max(worth for _, worth in moves)
        best_action = next(a for a, worth in moves if worth == target)
        explore = rng.random() < epsilon
        action = rng.choice(game.actions(state)) if explore else best_action
        trace = [-lam * e + v * (1 - v) * f for e, f in zip(trace, feats)]
        if lam == 0:
            weights = td_update(weights, feats, target, alpha)
        else:
            weights = [w + alpha * (target - v) * e for w, e in zip(weights, trace)]
        history.append(Step(state, action, v, target, target - v, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history
