# fix: The message says my tree puts the largest child first at every node, MIN nodes included; at MIN nodes I now sort the children smallest value first (and take the first one's value as the node's value).
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
