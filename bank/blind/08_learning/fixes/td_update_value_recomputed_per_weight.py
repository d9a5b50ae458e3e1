# fix: The message says v must be computed once before changing any weight; I moved v = value(weights, features) out of the loop.
# clear: yes

# %% td_update
def td_update(weights, features, target, alpha):
    """The weights after one TD(0) step of the value towards `target` (a new list)."""
    new = list(weights)
    v = value(weights, features)
    for i in range(len(new)):
        new[i] = new[i] + alpha * (target - v) * v * (1 - v) * features[i]
    return new
