# fix: the message said a state reached by two move orders is two nodes of the tree and must be walked below each time; I dropped the seen-set check and count every node visited (seen is now a list).
# clear: yes

# %% count_nodes
def count_nodes(game, state):
    """The number of nodes of the full game tree below `state`, `state` itself included."""
    seen = []

    def visit(s):
        seen.append(s)
        if not game.is_terminal(s):
            for a in game.actions(s):
                visit(game.result(s, a))

    visit(state)
    return len(seen)
