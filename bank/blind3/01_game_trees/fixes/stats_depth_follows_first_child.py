# fix: the message says depth is 1 + the largest depth among the children and mine at P2.0 followed only its first (leaf) child, so walk returns 1 + max(depths).
# clear: yes

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    nodes = leaves = internal = 0

    def walk(s):
        nonlocal nodes, leaves, internal
        nodes += 1
        if game.is_terminal(s):
            leaves += 1
            return 0
        internal += 1
        depths = [walk(game.result(s, a)) for a in game.actions(s)]
        return 1 + max(depths)

    depth = walk(state)
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(depth, leaves, branching)
