"""The first wrong step of a search: where its ordered trace leaves the correct one, and what the correct
search held there.

A correct run is written down as `Note`s, one per step (a child generated, a leaf valued): the nodes open on
the correct search's path at that moment (`Frame`: the node, its kind, its window and value so far when the
algorithm has them, the children searched so far) and the node it left by a cut-off just before. The notes
are data (`encode` / `decode`); the labs' visible tests ship them for their public cases, and the grader
writes them for every case. `first_wrong_step` compares them with the steps of a traced search
(`steps`) and says, in a few lines: where, what the correct search held there, the rule, what yours did.

>>> notes = decode(encode([Note(("generate", "L.0"), (Frame("P1.0", "MAX", width=1),)), Note(None, ())]))
>>> print(first_wrong_step("a tiny tree", None, notes, [("generate", "L.1")]))
a tiny tree: your search first differs from the correct one at step 1, below P1.0.
There the correct search was at MAX node P1.0.
A search makes one child at a time, in actions() order, and searches it before making the next: its first child is L.0.
Yours generated L.1.
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Hashable, Sequence

from .games import GameTree


@dataclass
class Frame:
    """A node open on the correct search's path: its kind, what its rule needs, the children searched so far."""

    node: Hashable
    kind: str
    alpha: Any = None
    beta: Any = None
    v: Any = None
    bound: Any = None            # max^n shallow pruning: what the parent's player is sure of (None: no bound)
    owner: Any = None            # ... and who that parent's player is
    total: Any = None            # ... and the sum bound max_sum
    entry: int = 0               # ... and which entry of a vector is the mover's
    done: list = field(default_factory=list)   # (child, value or None) searched so far, in order
    width: int = 0               # how many children it has


@dataclass
class Note:
    """One step of the correct run (None after its last), the open path then, and a node just left by a cut-off."""

    step: tuple | None
    path: tuple
    cut: tuple | None = None     # the path (root first) of the node the correct search cut just before this step



def kind_of(game: Any, node: Hashable) -> str:
    """A node's kind as students read it: MAX/MIN/CHANCE in a tree, otherwise the player to move."""
    if isinstance(game, GameTree):
        return game.kind(node)
    try:
        return str(game.to_move(node))
    except Exception:  # noqa: BLE001 - a kind is only a label
        return "?"


def num(x: Any) -> str:
    """A number as a student writes it (inf, -inf, 2.5, 7)."""
    if isinstance(x, float):
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x.is_integer():
            return str(int(x))
        return f"{x:.4g}"
    if isinstance(x, tuple):
        return "(" + ", ".join(num(e) for e in x) + ")"
    return str(x)



def _first_difference(want: Sequence[Any], got: Sequence[Any]) -> int | None:
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            return i
    return None if len(want) == len(got) else min(len(want), len(got))


# -- the message -------------------------------------------------------------------------------------

VERBS = {"generate": "generated", "utility": "took the utility of", "evaluate": "evaluated", "leaf": "valued"}


def path_text(frames: Sequence[Frame], name: Callable[[Hashable], str], game: Any, last: Hashable | None = None) -> str:
    """The path to a node: tree labels joined by ``>`` in a tree, the moves from the start in a game."""
    nodes = [f.node for f in frames] + ([last] if last is not None else [])
    if isinstance(game, GameTree):
        return " > ".join(str(n) for n in nodes)
    return name(nodes[-1]) if nodes else "root"


def _frame_text(f: Frame, name: Callable[[Hashable], str]) -> str:
    """What the rule needs of a node: its kind, window and value so far, or its bound, and its children so far."""
    bits = []
    if f.alpha is not None:
        bits.append(f"window (alpha, beta) = ({num(f.alpha)}, {num(f.beta)})")
        searched = any(v is not None for _, v in f.done)
        bits.append(f"value so far v = {num(f.v)}" if searched else "no child searched yet")
    elif f.total is not None:
        if f.bound is not None:
            bits.append(f"its parent ({f.owner}) sure of {num(f.bound)} (bound max_sum - {num(f.bound)} = "
                        f"{num(f.total - f.bound)})")
        else:
            bits.append("no bound from its parent yet")
        if f.v is not None:
            bits.append(f"best vector so far {num(f.v)}")
    if f.done and f.alpha is None:
        known = [(c, v) for c, v in f.done if v is not None]
        if known:
            bits.append("children searched: " + ", ".join(f"{name(c)} = {num(v)}" for c, v in known[-3:]))
        else:
            bits.append(f"{len(f.done)} of its {f.width} children searched")
    return f"{f.kind} node {name(f.node)}" + (f", {', '.join(bits)}" if bits else "")


def _bound_origin(path: Sequence[Frame], name: Callable[[Hashable], str]) -> str:
    """Where the bound that cuts at the last node of `path` came from: the nearest ancestor of the other kind whose
    value so far it is (passed down through the nodes between), or the window the search was called with."""
    f = path[-1]
    maxing = f.kind == "MAX"
    which, bound = ("beta", f.beta) if maxing else ("alpha", f.alpha)
    for k in range(len(path) - 2, -1, -1):
        a = path[k]
        if a.kind != f.kind and a.alpha is not None and a.v == bound and any(v is not None for _, v in a.done):
            through = [name(x.node) for x in path[k + 1:-1]]
            via = f", passed down through {' > '.join(through)}" if through else ""
            return (f" {which} = {num(bound)} there is the value so far of {a.kind} node {name(a.node)}{via}: a node "
                    "searches each child with its own window, updated after each child.")
    if math.isinf(bound):
        return ""
    return f" {which} = {num(bound)} there comes from the window the search was called with."


def _cut_rule(f: Frame, name: Callable[[Hashable], str], path: Sequence[Frame] = ()) -> str:
    if f.alpha is not None:
        maxing = f.kind == "MAX"
        bound = f.beta if maxing else f.alpha
        tie = " (the course prunes on equality too)" if f.v == bound else ""
        return (f"{f.kind} node {name(f.node)}: v = {num(f.v)} {'>=' if maxing else '<='} "
                f"{'beta' if maxing else 'alpha'} = {num(bound)}, so its other children cannot change the result "
                f"and are pruned{tie}." + (_bound_origin(path, name) if path else ""))
    if f.total is not None and f.v is not None:
        return (f"{f.kind}'s best entry there is {num(f.v[f.entry])} >= {num(f.total)} - {num(f.bound)}: its parent "
                f"({f.owner}) cannot get more than {num(f.bound)} from it, so its other children are cut.")
    return f"the correct search searched no more children of {name(f.node)}."


def _next_rule(f: Frame, child: Hashable, name: Callable[[Hashable], str]) -> str:
    first = not f.done
    what = "its first child" if first else "its next child in actions() order"
    at = f"{f.kind} node {name(f.node)}: "
    if f.alpha is not None and not first:
        if f.kind == "MAX":
            why = f"v = {num(f.v)} < beta = {num(f.beta)}, so no cut-off: "
        else:
            why = f"v = {num(f.v)} > alpha = {num(f.alpha)}, so no cut-off: "
        return f"{at}{why}it searches {what}, {name(child)}, with the window ({num(f.alpha)}, {num(f.beta)})."
    if f.total is not None and not first:
        if f.bound is None:
            return f"{at}no bound from its parent, so it searches {what}, {name(child)}."
        return (f"{at}its best entry {num(f.v[f.entry])} < {num(f.total)} - {num(f.bound)}, so no cut-off: it "
                f"searches {what}, {name(child)}.")
    return (f"A search makes one child at a time, in actions() order, and searches it before making the next: "
            f"{what} is {name(child)}.")


def first_wrong_step(case_name: str, game: Any, notes: Sequence[Note], got: Sequence[tuple],
                     name: Callable[[Hashable], str] = str) -> str | None:
    """The message for the first step where `got` (the student's steps, as the notes' steps) leaves the correct
    run; None when they agree."""
    want = [n.step for n in notes if n.step is not None]
    i = _first_difference(want, list(got))
    if i is None:
        return None
    note = notes[i] if i < len(notes) else notes[-1]
    mine = got[i] if i < len(got) else None
    step_word = f"step {i + 1}"
    lines = []
    if note.cut is not None and (mine is not None or note.step is None):
        f = note.cut[-1]
        lines.append(f"{case_name}: your search first differs from the correct one at {step_word}, at "
                     f"{path_text(note.cut, name, game)}.")
        lines.append(f"There the correct search was at {_frame_text(f, name)}.")
        lines.append(_cut_rule(f, name, note.cut))
    elif note.step is None:
        lines.append(f"{case_name}: your search first differs from the correct one at {step_word}: "
                     "the correct search had finished, having made each child and valued each leaf it needs once.")
    else:
        kind, node = note.step
        if note.path:
            f = note.path[-1]
            lines.append(f"{case_name}: your search first differs from the correct one at {step_word}, below "
                         f"{path_text(note.path, name, game)}.")
            lines.append(f"There the correct search was at {_frame_text(f, name)}.")
            if kind == "generate":
                lines.append(_next_rule(f, node, name))
            else:
                lines.append(f"{name(node)} is a terminal state: the search values it (once) as soon as it has made "
                             "it, before making anything else.")
        else:
            lines.append(f"{case_name}: your search first differs from the correct one at {step_word}, at the start.")
            lines.append(f"The correct search starts by {VERBS.get(kind, kind)} {name(node)}.")
    if mine is None:
        lines.append("Yours stopped there." if note.step is not None else "Yours went on.")
    else:
        lines.append(f"Yours {VERBS.get(mine[0], mine[0])} {name(mine[1])}.")
    return "\n".join(lines)



# -- notes as data, and the steps of a traced search ------------------------------------------------------

def _plain(x: Any) -> Any:
    if isinstance(x, float) and math.isinf(x):
        return {"inf": 1 if x > 0 else -1}
    if isinstance(x, (list, tuple)):
        return {"t": [_plain(e) for e in x]} if isinstance(x, tuple) else [_plain(e) for e in x]
    return x


def _back(x: Any) -> Any:
    if isinstance(x, dict):
        return (math.inf if x["inf"] > 0 else -math.inf) if "inf" in x else tuple(_back(e) for e in x["t"])
    if isinstance(x, list):
        return [_back(e) for e in x]
    return x


def encode(notes: Sequence[Note]) -> str:
    """The notes as one short line of text (JSON, compressed, base64), to ship beside a public case."""
    data = [[_plain(n.step), [_plain(list(asdict(f).values())) for f in n.path],
             None if n.cut is None else [_plain(list(asdict(f).values())) for f in n.cut]] for n in notes]
    return base64.b64encode(zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)).decode()


def decode(text: str) -> list[Note]:
    """The notes `encode` wrote."""
    data = json.loads(zlib.decompress(base64.b64decode(text)))

    def frames(rows: list) -> tuple:
        return tuple(Frame(*_back(row)) for row in rows)

    return [Note(_back(step) if step is not None else None, frames(path), None if cut is None else frames(cut))
            for step, path, cut in data]


def steps(trace: Any, leaf: str | None = None) -> list[tuple]:
    """(kind, node) of each child generated and each leaf valued, in order: the steps notes are written in.
    With `leaf` (for example ``"leaf"``), a leaf's utility calls in a row for different players count once."""
    out: list[tuple] = []
    asked: set = set()
    for e in trace.events("generate", "utility", "evaluate"):
        if e.kind == "generate" or leaf is None:
            out.append((e.kind, e.node))
            continue
        if out and out[-1] == (leaf, e.node) and e.player is not None and e.player not in asked:
            asked.add(e.player)
            continue
        out.append((leaf, e.node))
        asked = {e.player}
    return out


def explain_run(case_name: str, traced: Any, notes: str, leaf: str | None = None,
                stop_early: bool = False) -> str | None:
    """The first wrong step of the search `traced` (a `Traced` game it ran on) against the shipped `notes`;
    None when every step agrees (with `stop_early`, also when the search only stopped before the end: a test
    that grades the order of the steps leaves when to stop to another)."""
    written, done = decode(notes), steps(traced.trace, leaf)
    if stop_early and done == [n.step for n in written if n.step is not None][:len(done)]:
        return None
    return first_wrong_step(case_name, traced.game, written, done)
