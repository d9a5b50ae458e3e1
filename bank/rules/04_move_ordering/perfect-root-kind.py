# Breaks "GameTree.from_nested(spec, root=...) takes the kind of the root": the copy is built with from_nested's
# default root (MAX), so a tree whose root is MIN comes back with a MAX root (children still sorted for the right kinds).
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
            kids = sorted(kids, key=lambda k: k[0])
            value = kids[0][0]
        return value, [spec for _, spec in kids]

    _, spec = build(tree.initial)
    return GameTree.from_nested(spec)
