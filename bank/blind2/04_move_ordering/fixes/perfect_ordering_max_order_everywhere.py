# fix: The message said I put the largest child first at MIN nodes too; I sort largest first only at MAX nodes (reverse=is_max), smallest first at MIN.
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
        best = max(k[1] for k in kids) if is_max else min(k[1] for k in kids)
        return [spec for spec, _ in kids], best

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
