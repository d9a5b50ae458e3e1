# fix: the message said the count changes between calls so nothing may carry over; I replaced the module-level global counter with a count local to each call (1 + the counts of the children).
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    visited = 1
    if not game.is_terminal(state):
        for a in game.actions(state):
            visited += count_nodes(game, game.result(state, a))
    return visited
