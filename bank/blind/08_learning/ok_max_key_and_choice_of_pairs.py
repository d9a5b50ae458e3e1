# Entry ok_max_key_and_choice_of_pairs (08_learning), cell(s): td_update, move_values, self_play_episode
# Mistake: none: correct, written with an explicit logistic and gradient list, a nested helper for the move values, max(..., key=) for the best move (max keeps the first of equal values) and rng.choice over the (action, value) pairs (same draw as rng.choice(actions), the lists have the same length and order)
# First wrong step: none

# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    x = sum(w * f for w, f in zip(weights, features))
    v = 1.0 / (1.0 + math.exp(-x))
    grad = [v * (1.0 - v) * f for f in features]
    return [w + alpha * (target - v) * g for w, g in zip(weights, grad)]

# %% move_values
def move_values(game, state, weights):
    """(action, value of that move for the player to move at `state`) for each action, in actions() order."""
    me = game.to_move(state)

    def worth(child):
        if game.is_terminal(child):
            return reward(game, child, me)
        return 1.0 - value(weights, features(child, game.to_move(child)))

    return [(a, worth(game.result(state, a))) for a in game.actions(state)]

# %% self_play_episode
def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
    """One game of self-play from game.initial, learning after every move: (new weights, list of Steps)."""
    w = [float(x) for x in weights]
    e = [0.0 for _ in w]
    steps = []
    s = game.initial
    while not game.is_terminal(s):
        f = features(s, game.to_move(s))
        v = value(w, f)
        moves = move_values(game, s, w)
        best, target = max(moves, key=lambda m: m[1])   # max keeps the first of equal values
        explore = rng.random() < epsilon
        played = rng.choice(moves)[0] if explore else best  # same draw as rng.choice(actions)
        delta = target - v
        e = [-lam * ei + v * (1 - v) * fi for ei, fi in zip(e, f)]
        w = [wi + alpha * delta * ei for wi, ei in zip(w, e)]
        steps.append(Step(s, played, v, target, delta, e[:], w[:]))
        s = game.result(s, played)
    return w, steps
