# Breaks "the **target** is the best move's value, **whichever move is played**" the other way: the target is the value
# of the position the best move leads to for the player to move THERE (textbook TD(0) target V(s'): the reward for q
# if the game is over, else value(weights, features(child, q))), not the best move's value for p (no 1 - flip).
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
        child = game.result(state, best_action)
        q = game.to_move(child)
        target = reward(game, child, q) if game.is_terminal(child) else value(weights, features(child, q))
        error = target - v
        trace = [-lam * e + v * (1 - v) * x for e, x in zip(trace, f)]
        weights = [w + alpha * error * e for w, e in zip(weights, trace)]
        history.append(Step(state, action, v, target, error, list(trace), list(weights)))
        state = game.result(state, action)
    return weights, history
