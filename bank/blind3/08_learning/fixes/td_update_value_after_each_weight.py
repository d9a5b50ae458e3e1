# fix: the message says compute v once, before changing any weight; I moved the v = value(...) line out of the loop, computed from the original weights
# clear: yes

# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    new = list(weights)
    v = value(weights, features)
    for i, f in enumerate(features):
        new[i] += alpha * (target - v) * v * (1 - v) * f
    return new
