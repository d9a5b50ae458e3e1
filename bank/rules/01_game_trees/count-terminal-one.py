# Breaks "a terminal state is a tree of exactly 1 node": a terminal state counts 0 ("no nodes below it"), so
# only internal nodes are counted; on a terminal root this also leaves the root out.
# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 0
    n = 1
    for action in game.actions(state):
        n += count_nodes(game, game.result(state, action))
    return n
