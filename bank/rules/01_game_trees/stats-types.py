# Breaks "branching is a float": a terminal state returns the int 0 for branching (right value, wrong type);
# every other state still gets a float.
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
    if not internal:
        return TreeStats(depth, leaves, 0)
    return TreeStats(depth, leaves, (nodes - 1) / internal)
