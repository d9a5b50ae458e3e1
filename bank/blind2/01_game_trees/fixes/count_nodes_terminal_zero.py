# fix: the message said I forgot the root (a terminal state counts 1); I made a terminal state return 1 and each node count itself once plus its children's counts.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    return 1 + sum(count_nodes(game, game.result(state, a)) for a in game.actions(state))
