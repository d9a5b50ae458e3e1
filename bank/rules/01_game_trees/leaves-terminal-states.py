# Breaks "the number of leaves: the terminal states": leaves are counted when a parent generates a terminal
# child, so a terminal root (which has no parent) is not counted: a terminal state alone has 0 leaves.
# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""

    def walk(s):
        # (depth, leaves, nodes, internal nodes) of the tree below s
        if game.is_terminal(s):
            return 0, 0, 1, 0
        depth, leaves, nodes, internal = 0, 0, 1, 1
        for action in game.actions(s):
            child = game.result(s, action)
            d, l, n, i = walk(child)
            if game.is_terminal(child):
                l += 1
            depth = max(depth, d + 1)
            leaves += l
            nodes += n
            internal += i
        return depth, leaves, nodes, internal

    depth, leaves, nodes, internal = walk(state)
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(depth, leaves, float(branching))
