# fix: the message says a node counts 1 for itself plus its children's counts; I added the 1 for the internal node itself.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    return 1 + sum(count_nodes(game, game.result(state, a)) for a in game.actions(state))
