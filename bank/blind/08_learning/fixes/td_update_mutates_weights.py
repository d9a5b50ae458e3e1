# fix: The message says td_update must return a new list and leave the given weights unchanged; I return a new list instead of updating in place.
# clear: yes

# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    return [w + alpha * (target - v) * v * (1 - v) * f for w, f in zip(weights, features)]
