"""Game trees as plain text, optionally annotated with what a search did (its trace).

>>> from course_lib.games import GameTree
>>> print(ascii_tree(GameTree.from_nested([[3, 5], 2])))
P1.0 MAX
├── P2.0 MIN
│   ├── L.0 = 3
│   └── L.1 = 5
└── L.2 = 2

With a trace, visited nodes show the value they returned (``≥``/``≤`` for a bound),
leaves their evaluation order (``#1`` first), and nodes the search never visited say
``pruned``; see `course_lib.annotations` for how these are read from the trace.
"""

from __future__ import annotations

from typing import Any

from .annotations import Annotations, TreeShape, fmt_value, search_annotations, tree_shape
from .games.tree import CHANCE, MAX, MIN, TERMINAL, GameTree

KIND_TEXT = {MAX: "MAX", MIN: "MIN", CHANCE: "CHANCE"}
LEGEND = "#k: k-th value taken · ≥/≤: bound · pruned: never visited · <- chosen: best root move"


def _notes(tree: GameTree, trace: Any, root: Any) -> tuple[TreeShape, Annotations | None]:
    shape = tree_shape(tree, root)
    notes = search_annotations(tree, trace, root=shape.root, shape=shape) if trace is not None else None
    return shape, notes


def node_line(shape: TreeShape, n: Any, notes: Annotations | None = None, *, window: bool = False) -> str:
    """One node as text: ``P2.3 MIN ≤2``, ``L.0 = 7  #1``, ``L.3 = 8  pruned``."""
    kind = shape.kind[n]
    if kind == TERMINAL:
        text = f"{shape.label[n]} = {fmt_value(shape.value[n])}"
    else:
        text = f"{shape.label[n]} {KIND_TEXT.get(kind, kind)}"
    if n in shape.edge_text and shape.parent.get(n) is not None and shape.kind[shape.parent[n]] == CHANCE:
        text = f"p={shape.edge_text[n]} {text}"
    if notes is None:
        return text
    status = notes.status(n)
    if status in ("pruned", "pending", "unreached"):
        return f"{text}  {status}" if status != "unreached" else f"{text}  not visited"
    value = notes.text(n)
    if kind != TERMINAL and value:
        text += f" {value}"
    elif kind == TERMINAL and value and value != fmt_value(shape.value[n]):
        text += f" (search saw {value})"
    if n in notes.order:
        text += "  #" + ",".join(str(k) for k in notes.order[n])
    if window and n in notes.window:
        text += "  " + notes.window_text(n)
    if n == notes.chosen:
        text += "  <- chosen"
    return text


def ascii_tree(tree: GameTree, trace: Any = None, *, max_lines: int = 60, root: Any = None,
               window: bool = False) -> str:
    """Any `GameTree` as indented text, annotated from `trace` when one is given.

    Works for n-ary, unbalanced, chance and n-player trees and for a lone leaf. Long
    drawings stop after `max_lines` lines with a line saying how many were left out;
    `window=True` adds the alpha-beta window each visited node was entered with.

    >>> t = GameTree.from_leaves([3, 5, 2, 9], branching=2)
    >>> print(ascii_tree(t, max_lines=3))
    P1.0 MAX
    ├── P2.0 MIN
    │   ├── L.0 = 3
    … 4 more lines
    """
    shape, notes = _notes(tree, trace, root)
    lines: list[str] = []
    stack: list[tuple[Any, str, str]] = [(shape.root, "", "")]
    while stack:
        n, lead, rest = stack.pop()
        lines.append(lead + node_line(shape, n, notes, window=window))
        kids = shape.children.get(n, [])
        for i in reversed(range(len(kids))):
            last = i == len(kids) - 1
            stack.append((kids[i], rest + ("└── " if last else "├── "), rest + ("    " if last else "│   ")))
    if len(lines) > max_lines:
        hidden = len(lines) - max_lines
        lines = lines[:max_lines] + [f"… {hidden} more line{'s' if hidden > 1 else ''}"]
    if notes is not None:
        lines.append(LEGEND)
    return "\n".join(lines)


def binary_ascii(tree: GameTree, trace: Any = None, *, root: Any = None) -> str:
    """A binary `GameTree` drawn by the `binarytree` package, internal nodes labelled ``P1.i`` (MAX) and ``P2.i`` (MIN).

    Without a trace internal nodes show their labels and leaves their values. With one,
    visited internal nodes read ``P2.3:≤2``, leaves ``7#1`` (value, evaluation order)
    and nodes the search never visited are put in parentheses.

    >>> print(binary_ascii(GameTree.from_leaves([3, 5, 2, 9], branching=2)))
    <BLANKLINE>
         ____P1.0___
        /           \\
      P2.0          P2.1
     /    \\        /    \\
    3      5      2      9
    <BLANKLINE>
    """
    from binarytree import Node

    shape, notes = _notes(tree, trace, root)
    for n, kids in shape.children.items():
        if len(kids) > 2:
            raise ValueError(f"{shape.label[n]} has {len(kids)} children: binary_ascii draws binary trees; use ascii_tree")

    def text(n: Any) -> str:
        base = fmt_value(shape.value[n]) if shape.kind[n] == TERMINAL else shape.label[n]
        if notes is None:
            return base
        if notes.status(n) != "visited":
            return f"({base})"
        if shape.kind[n] == TERMINAL:
            return base + ("#" + ",".join(str(k) for k in notes.order[n]) if n in notes.order else "")
        value = notes.text(n)
        return f"{base}:{value}" if value else base

    def build(n: Any) -> Any:
        node = Node(text(n))
        kids = shape.children.get(n, [])
        if kids:
            node.left = build(kids[0])
        if len(kids) > 1:
            node.right = build(kids[1])
        return node

    drawing = str(build(shape.root))
    if notes is not None:
        drawing += "(...): never visited (pruned) · #k: k-th value taken · ≥/≤: bound\n"
    return drawing
