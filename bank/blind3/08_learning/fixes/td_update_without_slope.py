# fix: the message says the step leaves out the slope v * (1 - v); I multiplied the step by v * (1 - v)
# clear: yes

# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    v = value(weights, features)
    step = alpha * (target - v) * v * (1 - v)
    return [w + step * f for w, f in zip(weights, features)]
