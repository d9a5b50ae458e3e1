# Bug: the TD error taken as value - target, so the value moves away from its target.
# %% td_update
def td_update(weights, features, target, alpha):
    v = value(weights, features)
    error = v - target
    return [w + alpha * error * v * (1 - v) * f for w, f in zip(weights, features)]
