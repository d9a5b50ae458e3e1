"""Bug: the children are sorted largest first at every node, MIN nodes included."""
from course_lib.games import GameTree

# %% perfect_ordering
def perfect_ordering(tree):
    def build(node):
        if tree.is_terminal(node):
            return tree.value(node), tree.value(node)
        built = sorted((build(c) for c in tree.children(node)), key=lambda pair: -pair[1])
        values = [v for _, v in built]
        return [spec for spec, _ in built], max(values) if tree.kind(node) == "MAX" else min(values)

    spec, _ = build(tree.initial)
    return GameTree.from_nested(spec, root=tree.kind(tree.initial))
