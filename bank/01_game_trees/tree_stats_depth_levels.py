# ruff: noqa
# Bug: depth counts the nodes on the longest path (levels), not the moves: a leaf has depth 1.
# %% tree_stats
def tree_stats(game, state):
    def walk(s):
        if game.is_terminal(s):
            return 1, 1, 0, 0
        actions = game.actions(s)
        depth, leaves, internal, children = 0, 0, 1, len(actions)
        for action in actions:
            d, l, i, c = walk(game.result(s, action))
            depth, leaves, internal, children = max(depth, d + 1), leaves + l, internal + i, children + c
        return depth, leaves, internal, children

    depth, leaves, internal, children = walk(state)
    return TreeStats(depth, leaves, children / internal if internal else 0.0)
