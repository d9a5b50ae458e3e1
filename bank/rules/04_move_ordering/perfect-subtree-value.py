# Breaks "the value of the whole subtree below the child": children are sorted by the best leaf below them for the
# node's player (largest leaf under a MAX node, smallest under a MIN node), not by the child's minimax value.
# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def leaves_below(node):
        if tree.is_terminal(node):
            return [tree.value(node)]
        return [x for c in tree.children(node) for x in leaves_below(c)]

    def build(node):
        """(minimax value, nested spec) of the subtree below `node`, its children sorted best first."""
        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        kids = [(leaves_below(c), build(c)) for c in tree.children(node)]
        if tree.kind(node) == "MAX":
            kids = sorted(kids, key=lambda k: -max(k[0]))
        else:
            kids = sorted(kids, key=lambda k: min(k[0]))
        return None, [spec for _, (_, spec) in kids]

    _, spec = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
