"""Bug: the children are sorted by the value of their first leaf, not by their minimax value."""
from course_lib.games import GameTree

# %% perfect_ordering
def perfect_ordering(tree):
    def first_leaf(node):
        while not tree.is_terminal(node):
            node = tree.children(node)[0]
        return tree.value(node)

    def build(node):
        if tree.is_terminal(node):
            return tree.value(node)
        kids = tree.children(node)
        if tree.kind(node) == "MAX":
            kids = sorted(kids, key=lambda c: -first_leaf(c))
        else:
            kids = sorted(kids, key=first_leaf)
        return [build(c) for c in kids]

    return GameTree.from_nested(build(tree.initial), root=tree.kind(tree.initial))
