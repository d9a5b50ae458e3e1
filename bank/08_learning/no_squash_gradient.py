# Bug: the step leaves out the slope v * (1 - v) of the squashing.
# %% td_update
def td_update(weights, features, target, alpha):
    v = value(weights, features)
    return [w + alpha * (target - v) * f for w, f in zip(weights, features)]
