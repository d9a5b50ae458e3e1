# Breaks "root included": the running total starts at 0 instead of 1, so a non-terminal node does not count
# itself (the root and every internal node are left out; a terminal state still counts 1).
# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    n = 0
    for action in game.actions(state):
        n += count_nodes(game, game.result(state, action))
    return n
