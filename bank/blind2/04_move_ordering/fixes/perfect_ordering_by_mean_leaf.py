# fix: The message said children must be ordered by their minimax value (the whole subtree's value), and mine put a worse child first; I made build return each subtree's minimax value (best child's value) instead of its leaves' mean and sort by that.
# clear: yes

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def build(node):

        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        kids = [build(child) for child in tree.children(node)]
        kids.sort(key=lambda kid: kid[1], reverse=tree.kind(node) == "MAX")
        return [spec for spec, _ in kids], kids[0][1]

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
