# ruff: noqa
# Bug: only the leaves on the deepest level are counted (as if the tree were balanced).
# %% tree_stats
def tree_stats(game, state):
    level, depth, internal, children = [state], 0, 0, 0
    while True:
        below = []
        for s in level:
            if not game.is_terminal(s):
                actions = game.actions(s)
                internal += 1
                children += len(actions)
                below.extend(game.result(s, a) for a in actions)
        if not below:
            break
        level, depth = below, depth + 1
    return TreeStats(depth, len(level), children / internal if internal else 0.0)
