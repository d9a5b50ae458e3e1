# Breaks "Return the **new** weights as a new list (leave the list you were given unchanged)": the weights are updated
# in place and the same list is returned.
# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    error = target - v
    slope = v * (1 - v)
    for i, f in enumerate(features):
        weights[i] += alpha * error * slope * f
    return weights
