"""Correct, another style: only the best child is moved to the front (the rest keep their order),
and the tree is rebuilt with GameTree.from_mapping under the original node names."""
from course_lib.games import GameTree

# %% perfect_ordering
def perfect_ordering(tree):
    values = {}

    def minimax(node):
        if tree.is_terminal(node):
            values[node] = tree.value(node)
        else:
            kids = [minimax(c) for c in tree.children(node)]
            values[node] = max(kids) if tree.kind(node) == "MAX" else min(kids)
        return values[node]

    minimax(tree.initial)
    nodes = {}
    for node in tree.nodes():
        if tree.is_terminal(node):
            nodes[node] = tree.value(node)
            continue
        kids = tree.children(node)
        best = next(c for c in kids if values[c] == values[node])
        nodes[node] = (tree.kind(node), [best] + [c for c in kids if c != best])
    return GameTree.from_mapping(nodes, root=tree.initial)
