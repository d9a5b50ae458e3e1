# fix: the message says the count grows between calls because something carries over; I replaced the global counter with a local count returned by each call.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    nodes_counted = 1
    if not game.is_terminal(state):
        for action in game.actions(state):
            nodes_counted += count_nodes(game, game.result(state, action))
    return nodes_counted
