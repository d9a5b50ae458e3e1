# fix: The message says my tree reorders the children of the root only and every other node keeps the given order; nested() now also sorts each inner node's children by minimax value (largest first at MAX, smallest first at MIN).
# clear: yes

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def nested(node):
        if tree.is_terminal(node):
            return tree.value(node)
        kids = sorted(tree.children(node), key=minimax, reverse=(tree.kind(node) == "MAX"))
        return [nested(c) for c in kids]

    def minimax(node):
        if tree.is_terminal(node):
            return tree.value(node)
        vals = [minimax(c) for c in tree.children(node)]
        return max(vals) if tree.kind(node) == "MAX" else min(vals)

    root = tree.initial
    kids = tree.children(root)
    kids = sorted(kids, key=minimax, reverse=(tree.kind(root) == "MAX"))
    return GameTree.from_nested([nested(c) for c in kids], root=tree.kind(root))
