# fix: the message says MIN nodes must put the smallest value first (my tree has MIN children largest first, so MIN nodes also returned the wrong value and the root kept P2.0 first); the MIN sort is now ascending.
# clear: partly

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def build(node):

        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        kids = [build(child) for child in tree.children(node)]
        if tree.kind(node) == "MAX":
            kids.sort(key=lambda pair: -pair[0])
            return kids[0][0], [spec for _, spec in kids]
        kids.sort(key=lambda pair: pair[0])
        return kids[0][0], [spec for _, spec in kids]

    _, spec = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
