# fix: The message says the reordered tree must keep its root MIN, but mine came back with a MAX root; I pass root=tree.kind(tree.initial) to GameTree.from_nested.
# clear: yes

# %% perfect_ordering
def perfect_ordering(tree):
    """A copy of the GameTree `tree` with each node's children sorted best first."""

    def build(node):

        if tree.is_terminal(node):
            v = tree.value(node)
            return v, v
        parts = [build(c) for c in tree.children(node)]
        if tree.kind(node) == "MAX":
            parts.sort(key=lambda p: -p[1])
            value = parts[0][1]
        else:
            parts.sort(key=lambda p: p[1])
            value = parts[0][1]
        return [spec for spec, _ in parts], value

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
