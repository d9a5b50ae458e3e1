# fix: the message says a terminal state counts 1 and I forgot the root; I now count the state itself (1, terminal included) plus the counts of its children.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    count = 1
    for action in game.actions(state):
        child = game.result(state, action)
        count += count_nodes(game, child)
    return count
