"""Text alternatives of the figures, written from the same tree, trace and numbers as the pictures.

A screen reader reads these where a sighted student looks at the picture, so each one carries the
numbers the picture shows: the root's value, how many nodes and leaves, what the search visited and
pruned, the counts of a chart.

>>> from course_lib.games import GameTree
>>> from course_lib.annotations import tree_shape
>>> tree_alt(tree_shape(GameTree.from_leaves([3, 5, 2, 9], branching=2)), None)
'Game tree: MAX to move; 7 nodes, 4 leaves; leaves from left to right: 3 5 2 9.'
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .annotations import Annotations, TreeShape, fmt_value
from .games.tree import CHANCE, MAX, MIN, TERMINAL

KIND_WORDS = {MAX: "MAX", MIN: "MIN", CHANCE: "chance", TERMINAL: "terminal"}
MARK_WORDS = {".": "empty", "#": "blocked"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s" if not word.endswith("s") else f"{n} {word}es"


def pruned_subtrees(shape: TreeShape, notes: Annotations, keep: set | None = None) -> list:
    """The pruned nodes whose parent was visited: the roots of the subtrees the search never entered."""
    keep = set(shape.nodes()) if keep is None else keep
    found, todo = [], [shape.root]
    while todo:  # depth first, children left to right: the order of the picture
        n = todo.pop()
        if n != shape.root and notes.status(n) == "pruned":
            found.append(n)
            continue
        todo.extend(reversed([c for c in shape.children.get(n, []) if c in keep]))
    return [n for n in found if notes.status(shape.parent[n]) == "visited"]


def tree_alt(shape: TreeShape, notes: Annotations | None, *, keep: set | None = None, hidden: int = 0,
             name: str = "", title: str | None = None) -> str:
    """What a tree figure shows, in words: who moves at the root, its value, the sizes, the search's record."""
    keep = set(shape.nodes()) if keep is None else keep
    nodes = [n for n in shape.nodes() if n in keep]
    leaves = [n for n in nodes if not any(c in keep for c in shape.children.get(n, []))]
    root_kind = shape.kind[shape.root]
    head = f"Game tree{' of ' + name if name else ''}: "
    head += f"{KIND_WORDS.get(root_kind, root_kind)} to move" if root_kind != TERMINAL else "the root is terminal"
    if notes is not None and notes.text(shape.root):
        head += f", value {notes.text(shape.root)}"
    parts = [head, f"{_plural(len(nodes), 'node')}, {_plural(len(leaves), 'leaf').replace('leafs', 'leaves')}"
             + (f" drawn and {hidden} more leaves not drawn" if hidden else "")]
    if notes is not None:
        visited = [n for n in nodes if notes.status(n) == "visited"]
        valued = notes.evaluated()
        record = f"the search visited {len(visited)} of them and valued {_plural(len(valued), 'leaf')}"
        record = record.replace("leafs", "leaves")
        if valued and len(valued) <= 24:
            record += " in the order " + " ".join(fmt_value(shape.value.get(n, notes.value.get(n))) for n in valued)
        parts.append(record)
        cut = pruned_subtrees(shape, notes, keep)
        if cut:
            labels = ", ".join(shape.label[n] for n in cut[:12]) + (", …" if len(cut) > 12 else "")
            parts.append(f"alpha-beta pruned {_plural(len(cut), 'subtree')} ({labels})")
        elif visited:
            parts.append("nothing pruned")
        pending = sum(1 for n in nodes if notes.status(n) == "pending")
        if notes.step < notes.total_steps:
            parts.append(f"after event {notes.step} of {notes.total_steps}, {pending} nodes still to come")
        if notes.chosen is not None and notes.chosen in keep:
            move = shape.edge_text.get(notes.chosen) or shape.label[notes.chosen]
            parts.append(f"best move at the root: {move} (value {notes.text(notes.chosen)})")
    elif len(leaves) <= 24 and all(n in shape.value for n in leaves):
        parts.append("leaves from left to right: " + " ".join(fmt_value(shape.value[n]) for n in leaves))
    text = "; ".join(parts) + "."
    return f"{title}. {text}" if title else text


def grid_alt(board: str, cols: int, name: str = "Board") -> str:
    """A grid board row by row: ``Board, 3 by 3: row 0: X, empty, O; ...``.

    >>> grid_alt("X.O.X....", 3)
    'Board, 3 rows by 3 columns: row 0: X, empty, O; row 1: empty, X, empty; row 2: empty, empty, empty.'
    """
    rows = [board[i:i + cols] for i in range(0, len(board), cols)]
    text = "; ".join(f"row {r}: " + ", ".join(MARK_WORDS.get(m, m) for m in row) for r, row in enumerate(rows))
    return f"{name}, {len(rows)} rows by {cols} columns: {text}."


def series_alt(kind: str, results: Mapping[str, Sequence[tuple[Any, float]]], x_name: str, y_name: str) -> str:
    """A chart of named series of (x, y) points, every number written out.

    >>> series_alt("Line chart", {"minimax": [(1, 9), (2, 72)]}, "depth", "nodes visited")
    'Line chart of nodes visited against depth. minimax: depth 1: 9, depth 2: 72.'
    """
    lines = "; ".join(f"{name}: " + ", ".join(f"{x_name} {a}: {_number(b)}" for a, b in points)
                      for name, points in results.items())
    return f"{kind} of {y_name} against {x_name}. {lines}."


def _number(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.3g}"
