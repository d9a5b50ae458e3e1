# fix: the message says a terminal state is a tree of 1 node but mine returned 0; terminal states now return 1.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    total = 1
    for action in game.actions(state):
        total += count_nodes(game, game.result(state, action))
    return total
