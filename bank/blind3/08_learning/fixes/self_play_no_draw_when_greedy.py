# fix: the message says exactly one rng.random() at each position even with epsilon 0; I removed the `epsilon > 0 and` short-circuit so the number is always drawn
# clear: yes

# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    w = list(weights)
    trace = [0.0] * len(w)
    history = []
    state = game.initial
    while not game.is_terminal(state):
        p = game.to_move(state)
        f = features(state, p)
        v = value(w, f)
        moves = move_values(game, state, w)
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
        w = [wi + alpha * error * e for wi, e in zip(w, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(w)))
        state = game.result(state, action)
    return w, history
