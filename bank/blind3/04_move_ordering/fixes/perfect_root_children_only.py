# fix: the message says my tree reorders the children at P1.0 only; copy() now sorts each inner node's children by minimax value too (largest first at MAX, smallest first at MIN).
# clear: yes

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def copy(node):
        if tree.is_terminal(node):
            return tree.value(node)
        kids = sorted(tree.children(node), key=minimax, reverse=tree.kind(node) == "MAX")
        return [copy(child) for child in kids]

    def minimax(node):
        if tree.is_terminal(node):
            return tree.value(node)
        values = [minimax(child) for child in tree.children(node)]
        return max(values) if tree.kind(node) == "MAX" else min(values)

    root = tree.initial
    kids = sorted(tree.children(root), key=minimax, reverse=tree.kind(root) == "MAX")
    return GameTree.from_nested([copy(k) for k in kids], root=tree.kind(root))
