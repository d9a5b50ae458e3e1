"""The first wrong node of a measure of a game tree (its node count, depth, leaves, branching factor).

The facts of a correct tree are data (`TreeFacts`: each node, depth first in actions() order, with the move that
made it, its parent and the numbers below it), written by the grader and shipped beside a lab's public cases, with
no code that computes them. `explain_measure` compares a student's function with them and says, in a few lines
(HINTS.md): where, what the correct tree holds there, the rule, what the student's function did. It looks, in
order, at the same question asked twice, at the walk (every node of the tree made once with ``result``), then at
the deepest node whose number is wrong while its children's numbers are right.

>>> from course_lib.games import GameTree
>>> tiny = GameTree.from_nested([[1, 2], 3])
>>> facts = decode_facts(encode_facts(TreeFacts([(None, None, 5, 3, 2, 2), (0, 0, 3, 2, 1, 1),
...     (0, 1, 1, 1, 0, 0), (1, 1, 1, 1, 0, 0), (1, 0, 1, 1, 0, 0)])))
>>> print(explain_measure("the tiny tree", tiny, tiny.initial, lambda g, s: 1 + (s == "P1.0"), facts, "nodes",
...                       walk=False))
the tiny tree: your count first differs from the correct one at P2.0.
There the correct tree has MIN node P2.0 with children L.0 = 1, L.1 = 1.
A node counts 1 for itself plus the nodes below each of its children: 1 + 1 + 1 = 3.
Yours, called on P2.0, returned 1; called alone on L.0, L.1, yours returned the correct number there.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from .annotations import action_text
from .explain import _back, _plain, kind_of, num
from .games import GameTree
from .trace import Traced

#: What each measure is called in a message.
WHAT = {"nodes": "count", "depth": "depth", "leaves": "number of leaves", "branching": "branching factor"}


@dataclass
class TreeFacts:
    """The nodes of a correct tree, depth first in actions() order: (action from the parent, parent index, nodes,
    leaves, internal nodes, depth in plies) of each, the root first with no action and no parent. Its states are
    made again from the start state with the game's own result() (`bind`): the facts hold no state."""

    rows: list
    states: list | None = None
    kids: list | None = None

    def bind(self, game: Any, state: Hashable) -> "TreeFacts":
        """The facts with the states of their nodes, made from `state` with `game`."""
        states: list = []
        for action, parent, *_ in self.rows:
            states.append(state if parent is None else game.result(states[parent], action))
        kids: list = [[] for _ in self.rows]
        for j, row in enumerate(self.rows):
            if row[1] is not None:
                kids[row[1]].append(j)
        return TreeFacts(self.rows, states, kids)

    def state(self, i: int) -> Hashable:
        assert self.states is not None, "bind the facts to a game first"
        return self.states[i]

    def children(self, i: int) -> list[int]:
        if self.kids is not None:
            return self.kids[i]
        return [j for j, row in enumerate(self.rows) if row[1] == i]

    def path(self, i: int) -> list:
        out = []
        while self.rows[i][1] is not None:
            out.append(self.rows[i][0])
            i = self.rows[i][1]
        return out[::-1]

    def value(self, i: int, measure: str) -> Any:
        _, _, nodes, leaves, internal, depth = self.rows[i]
        if measure == "branching":
            return (nodes - 1) / internal if internal else 0.0
        return {"nodes": nodes, "leaves": leaves, "depth": depth}[measure]


def encode_facts(facts: TreeFacts) -> str:
    """The facts as one short line of text, to ship beside a public case."""
    data = [[_plain(x) for x in row] for row in facts.rows]
    return base64.b64encode(zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)).decode()


def decode_facts(text: str) -> TreeFacts:
    """The facts `encode_facts` wrote."""
    return TreeFacts([[_back(x) for x in row] for row in json.loads(zlib.decompress(base64.b64decode(text)))])


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or type(a) not in (int, float):
        return False
    if isinstance(b, float) or isinstance(a, float):
        return type(a) is type(b) and abs(a - b) <= 1e-9 * max(1.0, abs(b))
    return a == b


def _namer(game: Any, facts: TreeFacts) -> Callable[[int], str]:
    if isinstance(game, GameTree):
        return lambda i: str(facts.state(i))

    def name(i: int) -> str:
        path = facts.path(i)
        return f"the state after the moves {'/'.join(action_text(a) for a in path)}" if path else "the start state"

    return name


def explain_measure(case_name: str, game: Any, state: Hashable, fn: Callable[[Any, Hashable], Any], facts: TreeFacts,
                    measure: str, walk: bool = True, max_calls: int = 30) -> str | None:
    """Where the student's `fn(game, state)` (returning the `measure` of the tree below a state) first differs from
    the correct tree of `facts` below `state`; None when it returns the right number at `state`."""
    facts = facts.bind(game, state)
    what, name = WHAT[measure], _namer(game, facts)
    mine = fn(game, facts.state(0))
    if _same(mine, facts.value(0, measure)):
        return None
    again = fn(game, facts.state(0))
    if not _same(again, mine):
        return (f"{case_name}: yours returned {num(mine)}, then {num(again)} when called again on the same state: "
                f"the {what} of a tree does not change between calls, so nothing of one call may carry over to the "
                "next.")
    text = _walk(case_name, game, fn, facts, name) if walk else None
    return text or _descent(case_name, game, fn, facts, measure, mine, name, max_calls)


def _walk(case_name: str, game: Any, fn: Callable[[Any, Hashable], Any], facts: TreeFacts,
          name: Callable[[int], str]) -> str | None:
    """The first node (depth first) the student's walk made fewer or more times than the tree has it."""
    traced = Traced(game)
    fn(traced, facts.state(0))
    made = Counter((e.parent, e.action) for e in traced.trace.events("generate"))
    total = Counter((facts.state(row[1]), row[0]) for row in facts.rows[1:])
    seen: Counter = Counter()
    for row in facts.rows[1:]:
        key = (facts.state(row[1]), row[0])
        seen[key] += 1
        k = seen[key]
        if made[key] >= k and not (k == 1 and made[key] > total[key]):
            continue
        where = [j for j, r in enumerate(facts.rows[1:], start=1) if (facts.state(r[1]), r[0]) == key]
        p = row[1]
        pstate = facts.state(p)
        holders = [j for j in range(len(facts.rows)) if facts.state(j) == pstate]
        lines = [f"{case_name}: your walk first differs from the tree below {name(p)}, where the tree makes a "
                 f"child by the move {action_text(row[0])}."]
        if len(holders) > 1:
            lines.append(f"The state there ({pstate!r:.60}) is reached by {len(holders)} move orders ("
                         + ", ".join(name(j) for j in holders[:4]) + (", ..." if len(holders) > 4 else "")
                         + "): each is a node of the tree, with its own children below it.")
        lines.append("A walk of the tree makes each child of each node once with result(), below every node, a "
                     "state it has met before included.")
        at = "that state" if len(holders) > 1 else name(p)
        lines.append(f"Yours made the move {action_text(row[0])} from {at} {made[key]} time(s) in all; the tree "
                     f"makes it {len(where)} time(s).")
        return "\n".join(lines)
    return None


def _descent(case_name: str, game: Any, fn: Callable[[Any, Hashable], Any], facts: TreeFacts, measure: str,
             mine: Any, name: Callable[[int], str], max_calls: int) -> str:
    """The deepest node whose number is wrong, below which the student's function, called alone, is right."""
    node, calls, right = 0, 0, []
    while calls < max_calls:
        deeper, right = None, []
        for c in facts.children(node):
            if measure == "branching" and not facts.children(c):
                continue  # a terminal state's branching is no evidence either way
            calls += 1
            theirs = fn(game, facts.state(c))
            if not _same(theirs, facts.value(c, measure)):
                deeper = (c, theirs)
                break
            right.append(c)
            if calls >= max_calls:
                break
        if deeper is None:
            break
        node, mine = deeper
    kids = facts.children(node)
    what = WHAT[measure]
    if measure == "branching":
        shown = ", ".join(f"{name(c)} with {len(facts.children(c))} children" for c in kids[:6])
    else:
        shown = ", ".join(f"{name(c)} = {num(facts.value(c, measure))}" for c in kids[:6])
    shown += ", ..." if len(kids) > 6 else ""
    kind = kind_of(game, facts.state(node))
    at = f"{kind} node {name(node)}" if isinstance(game, GameTree) else f"{name(node)} ({kind} to move)"
    lines = [f"{case_name}: your {what} first differs from the correct one at {name(node)}."]
    if kids:
        lines.append(f"There the correct tree has {at} with children {shown}.")
    else:
        lines.append(f"There the correct tree has {name(node)}, a terminal state.")
    lines.append(_rule(facts, node, measure, name))
    below = ", ".join(name(c) for c in right[:6]) + (", ..." if len(right) > 6 else "")
    lines.append(f"Yours, called on {name(node)}, returned {num(mine)}"
                 + (f"; called alone on {below}, yours returned the correct number there." if right else "."))
    if measure == "depth" and kids:
        lines.append(_leaves_reached(game, fn, facts, node, name))
    return "\n".join(line for line in lines if line)


def _subtree(facts: TreeFacts, i: int) -> list[int]:
    out, todo = [], [i]
    while todo:
        j = todo.pop()
        out.append(j)
        todo.extend(reversed(facts.children(j)))
    return out


def _rule(facts: TreeFacts, i: int, measure: str, name: Callable[[int], str]) -> str:
    kids = facts.children(i)
    v = facts.value(i, measure)
    if not kids:
        return {"nodes": "A terminal state is a tree of 1 node: itself.",
                "leaves": "A terminal state is 1 leaf: itself.",
                "depth": "A terminal state has depth 0: no move is left.",
                "branching": "A terminal state has no children: its branching factor is 0.0."}[measure]
    values = [facts.value(c, measure) for c in kids]
    if measure == "nodes":
        text = (f"A node counts 1 for itself plus the nodes below each of its children: "
                f"1 + {' + '.join(num(x) for x in values)} = {num(v)}.")
        sub = _subtree(facts, i)
        states = Counter(facts.state(j) for j in sub)
        twice = next((s for s in (facts.state(j) for j in sub) if states[s] > 1), None)
        if twice is not None:
            holders = [j for j in sub if facts.state(j) == twice]
            text += (f" Below it one state is reached by {len(holders)} move orders ("
                     + ", ".join(name(j) for j in holders[:3]) + "): each is a node, and each counts.")
        return text
    if measure == "leaves":
        return (f"The leaves below a node are the leaves below each of its children, added up: "
                f"{' + '.join(num(x) for x in values)} = {num(v)}.")
    if measure == "depth":
        deepest = next(j for j in _subtree(facts, i) if not facts.children(j)
                       and len(facts.path(j)) - len(facts.path(i)) == v)
        return (f"The depth is 1 + the largest depth among its children: 1 + {num(max(values))} = {num(v)}; the "
                f"longest path from {name(i)} ends at {name(deepest)}, {num(v)} move(s) down.")
    _, _, nodes, _, internal, _ = facts.rows[i]
    return (f"Below and including {name(i)} there are {internal} internal node(s) with {nodes - 1} children in all; "
            f"terminal states have none and are not averaged: {nodes - 1} / {internal} = {num(v)}.")


def _leaves_reached(game: Any, fn: Callable[[Any, Hashable], Any], facts: TreeFacts, i: int,
                    name: Callable[[int], str]) -> str:
    """The terminal states the student's walk reached below node `i`, in order, with their depth from it."""
    traced = Traced(game)
    try:
        fn(traced, facts.state(i))
    except Exception:  # noqa: BLE001 - an observation only
        return ""
    base = len(facts.path(i))
    depth_of = {facts.state(j): len(facts.path(j)) - base for j in _subtree(facts, i)}
    label = {facts.state(j): name(j) for j in _subtree(facts, i)}
    seen = [e.node for e in traced.trace.events("terminal_test") if e.value is True and e.node in depth_of]
    if not seen:
        return ""
    shown = ", ".join(f"{label[s]} (depth {depth_of[s]})" for s in seen[:5]) + (", ..." if len(seen) > 5 else "")
    return (f"The terminal states your walk reached below {name(i)}, in the order it reached them (depth counted "
            f"from {name(i)}): {shown}.")

