# fix: the message says the leaves below a node are the sum over all its children, but I kept only the deepest children's leaves; I now add every child's leaves and keep the max only for the depth.
# clear: yes

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    internal = 0
    children = 0

    def walk(s):

        nonlocal internal, children
        if game.is_terminal(s):
            return 0, 1
        internal += 1
        best_h, best_leaves = -1, 0
        for a in game.actions(s):
            children += 1
            h, n = walk(game.result(s, a))
            best_leaves += n
            if h > best_h:
                best_h = h
        return best_h + 1, best_leaves

    depth, leaves = walk(state)
    branching = children / internal if internal else 0.0
    return TreeStats(depth, leaves, branching)
