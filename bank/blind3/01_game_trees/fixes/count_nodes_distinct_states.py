# fix: the message says a state reached by two move orders is two nodes of the tree, each with its own children, and mine counted it once, so I dropped the seen-set check that skipped states already met.
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    seen = set()

    def visit(s):
        if game.is_terminal(s):
            return 1
        return 1 + sum(visit(game.result(s, a)) for a in game.actions(s))

    return visit(state)
