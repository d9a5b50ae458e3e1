# Entry self_play_weights_updated_before_trace (08_learning), cell(s): self_play_episode
# Mistake: the weights are moved along the OLD trace and the trace is updated afterwards, so each error is applied to the previous positions' trace and the first update of a game (trace of zeros) changes nothing
# First wrong step: HAND_WEIGHTS, seed 1, alpha 0.5, epsilon 0.3, update 1 (empty board): the trace is still zeros when the weights move, so the bias stays 0 instead of 0.03573 (error 0.2858, trace 0.25)

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
        weights = [w + alpha * error * e for w, e in zip(weights, trace)]
        trace = [-lam * e + v * (1 - v) * x for e, x in zip(trace, f)]
        history.append(Step(state, action, v, target, error, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history
