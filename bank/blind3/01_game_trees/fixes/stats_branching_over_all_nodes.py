# fix: the message says the branching factor averages children over internal nodes only (leaves are not averaged) while mine divided by all nodes, so I count internal nodes in walk and divide by them.
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
        return 1 + max(walk(game.result(s, a)) for a in game.actions(s))

    depth = walk(state)
    branching = (nodes - 1) / internal if internal else 0.0
    return TreeStats(depth, leaves, branching)
