# fix: the message says the branching factor averages over internal nodes only; I divide the number of children by `internal` instead of `nodes`.
# clear: yes

# %% tree_stats
def tree_stats(game, state):
    """TreeStats(depth, leaves, branching) of the full game tree below `state`."""
    nodes = 0
    internal = 0
    leaves = 0
    max_depth = 0
    stack = [(state, 0)]
    while stack:
        s, d = stack.pop()
        nodes += 1
        if game.is_terminal(s):
            leaves += 1
            max_depth = max(max_depth, d)
            continue
        internal += 1
        for a in game.actions(s):
            stack.append((game.result(s, a), d + 1))
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(max_depth, leaves, float(branching))
