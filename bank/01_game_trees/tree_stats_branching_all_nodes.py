# ruff: noqa
# Bug: the branching factor is averaged over all nodes, leaves included.
# %% tree_stats
def tree_stats(game, state):
    def walk(s):
        if game.is_terminal(s):
            return 0, 1, 1
        depth, leaves, nodes = 0, 0, 1
        for action in game.actions(s):
            d, l, n = walk(game.result(s, action))
            depth, leaves, nodes = max(depth, d + 1), leaves + l, nodes + n
        return depth, leaves, nodes

    depth, leaves, nodes = walk(state)
    return TreeStats(depth, leaves, (nodes - 1) / nodes)
