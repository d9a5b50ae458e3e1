# fix: The message said the root should stay MIN but my tree has a MAX root; I build the tree with root=tree.kind(tree.initial).
# clear: yes

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def build(node):

        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        kids = [build(child) for child in tree.children(node)]
        is_max = tree.kind(node) == "MAX"
        kids.sort(key=lambda kid: kid[1], reverse=is_max)
        return [spec for spec, _ in kids], kids[0][1]

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
