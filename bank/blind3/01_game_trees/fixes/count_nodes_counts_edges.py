# fix: the message says I forgot the root (a terminal state is 1 node, mine gave 0), so count_nodes now counts the state itself (1 for a terminal, 1 + children's counts otherwise) instead of counting edges.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    if game.is_terminal(state):
        return 1
    actions = game.actions(state)
    return 1 + sum(count_nodes(game, game.result(state, a)) for a in actions)
