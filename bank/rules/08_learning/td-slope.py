# Breaks "$v(1-v)$ is the slope of the logistic function at $v$": the slope is left out, each weight moves by
# alpha * (target - v) * f_i (the gradient of the weighted sum, not of the squashed value).
# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    error = target - v
    return [w + alpha * error * f for w, f in zip(weights, features)]
