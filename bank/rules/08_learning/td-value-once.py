# Breaks "Compute $v$ once, from the weights before the step": v (and so the error and slope) is recomputed for every
# weight from the new list, which already holds the weights updated before it.
# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    new = list(weights)
    for i, f in enumerate(features):
        v = value(new, features)
        new[i] += alpha * (target - v) * v * (1 - v) * f
    return new
