# Breaks "the average number of children of the internal (non-terminal) nodes": divides by the number of
# all nodes instead of the internal ones, (nodes - 1) / nodes (still 0.0 for a terminal state).
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
            depth = max(depth, d + 1)
            leaves += l
            nodes += n
            internal += i
        return depth, leaves, nodes, internal

    depth, leaves, nodes, internal = walk(state)
    branching = (nodes - 1) / nodes
    return TreeStats(depth, leaves, float(branching))
