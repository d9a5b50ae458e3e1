# fix: the message says the tree has one node per move order, so a state reached twice must be walked twice; I removed the `seen` set that skipped states met before.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    def visit(s):
        n = 1
        if not game.is_terminal(s):
            for a in game.actions(s):
                n += visit(game.result(s, a))
        return n

    return visit(state)
