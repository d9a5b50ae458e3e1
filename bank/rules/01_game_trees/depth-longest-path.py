# Breaks "the longest path from the root to a terminal state": depth is overwritten by each child in turn
# (missing max), so it follows the last child at every node, not the longest path.
# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""

    def walk(s):
        # (depth, leaves, nodes, internal nodes) of the tree below s
        if game.is_terminal(s):
            return 0, 1, 1, 0
        depth, leaves, nodes, internal = 0, 0, 1, 1
        for action in game.actions(s):
            d, l, n, i = walk(game.result(s, action))
            depth = d + 1
            leaves += l
            nodes += n
            internal += i
        return depth, leaves, nodes, internal

    depth, leaves, nodes, internal = walk(state)
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(depth, leaves, float(branching))
