# Entry ok_index_loops_td_update_reuse (08_learning), cell(s): td_update, move_values, self_play_episode
# Mistake: none: correct, written with index loops; the best move found by values.index(max); the opponent named directly ('O' if p == 'X' else 'X'); with lam = 0 the update calls td_update itself and the trace is the plain gradient
# First wrong step: none

# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    error = target - v
    new = weights[:] if isinstance(weights, list) else list(weights)
    for i in range(len(new)):
        new[i] = new[i] + alpha * error * v * (1 - v) * features[i]
    return new

# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    p = game.to_move(state)
    q = "O" if p == "X" else "X"
    pairs = []
    for action in game.actions(state):
        after = game.result(state, action)
        if game.is_terminal(after):
            pairs.append((action, reward(game, after, p)))
            continue
        pairs.append((action, 1 - value(weights, features(after, q))))
    return pairs

# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    n = len(weights)
    current = list(weights)
    trace = [0.0] * n
    record = []
    state = game.initial
    while True:
        if game.is_terminal(state):
            break
        player = game.to_move(state)
        f = features(state, player)
        v = value(current, f)
        moves = move_values(game, state, current)
        values = [x for _, x in moves]
        target = max(values)
        best_action = moves[values.index(target)][0]
        action = best_action
        if rng.random() < epsilon:
            action = rng.choice(game.actions(state))
        error = target - v
        if lam == 0:
            trace = [v * (1 - v) * f[i] for i in range(n)]
            current = td_update(current, f, target, alpha)
        else:
            trace = [-lam * trace[i] + v * (1 - v) * f[i] for i in range(n)]
            current = [current[i] + alpha * error * trace[i] for i in range(n)]
        record.append(Step(state, action, v, target, error, trace.copy(), current.copy()))
        state = game.result(state, action)
    return current, record
