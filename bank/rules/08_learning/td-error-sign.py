# Breaks "where $\delta = \text{target} - v$ is the **TD error**": the error is taken as v - target (and still added),
# so the value moves away from the target.
# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    error = v - target
    slope = v * (1 - v)
    return [w + alpha * error * slope * f for w, f in zip(weights, features)]
