# Breaks "of a MIN node by increasing value": every node sorts its children by decreasing value, MIN nodes too.
# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def build(node):
        """(minimax value, nested spec) of the subtree below `node`, its children sorted best first."""
        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        kids = [build(c) for c in tree.children(node)]
        if tree.kind(node) == "MAX":
            kids = sorted(kids, key=lambda k: -k[0])
            value = kids[0][0]
        else:
            kids = sorted(kids, key=lambda k: -k[0])
            value = kids[-1][0]
        return value, [spec for _, spec in kids]

    _, spec = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
