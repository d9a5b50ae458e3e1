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
    order: list = field(default_factory=list)  # searched by a key: (child, key) in the order the key gives


@dataclass
class Note:
    """One step of the correct run (None after its last), the open path then, and the nodes just left by a cut-off."""

    step: tuple | None
    path: tuple
    cut: tuple | None = None     # the paths (root first) of the nodes the correct search cut since its step before,
    #                              in the order it cut them (deepest first); None when it cut none



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
    maxing = _maxing(f, path)
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
    through = " > ".join(name(x.node) for x in path[:-1])
    return (f" {which} = {num(bound)} there comes from the window the search was called with"
            + (f", passed down through {through}." if through else "."))


def _maxing(f: Frame, path: Sequence[Frame] = ()) -> bool:
    """Whether alpha-beta maximises at `f`: where the player to move at the start of the search (`path[0]`) moves."""
    return f.kind == (path[0].kind if path else "MAX")


def _role(f: Frame, name: Callable[[Hashable], str], path: Sequence[Frame] = ()) -> str:
    """In a tree searched for MIN (its start is a MIN node), what the search does at `f`: values are MIN's there."""
    if not path or path[0].kind != "MIN" or f.alpha is None:
        return ""
    does = "maximises them" if _maxing(f, path) else "minimises them, as MAX moves there"
    return f" (the values are MIN's, the player to move at {name(path[0].node)}, and the search {does})"


def _cut_rule(f: Frame, name: Callable[[Hashable], str], path: Sequence[Frame] = ()) -> str:
    if f.alpha is not None:
        maxing = _maxing(f, path)
        bound = f.beta if maxing else f.alpha
        tie = " (the course prunes on equality too)" if f.v == bound else ""
        return (f"{f.kind} node {name(f.node)}{_role(f, name, path)}: v = {num(f.v)} {'>=' if maxing else '<='} "
                f"{'beta' if maxing else 'alpha'} = {num(bound)}, so its other children cannot change the result "
                f"and are pruned{tie}." + (_bound_origin(path, name) if path else ""))
    if f.total is not None and f.v is not None:
        return (f"{f.kind}'s best entry there is {num(f.v[f.entry])} >= {num(f.total)} - {num(f.bound)}: its parent "
                f"({f.owner}) cannot get more than {num(f.bound)} from it, so its other children are cut.")
    return f"the correct search searched no more children of {name(f.node)}."


def _key_order(f: Frame, name: Callable[[Hashable], str]) -> str:
    """The order a key gives a node's children, with the keys: what decides which child comes next."""
    more = ", ..." if len(f.order) > 8 else ""
    if all(k is None for _, k in f.order):
        return f"The order it searches its children in: {', '.join(name(c) for c, _ in f.order[:8])}{more}."
    shown = ", ".join(f"{name(c)} (key {num(k)})" for c, k in f.order[:8])
    return f"The children sorted by key(state, action), smaller keys first and ties in actions() order: {shown}{more}."


def _next_rule(f: Frame, child: Hashable, name: Callable[[Hashable], str], path: Sequence[Frame] = ()) -> str:
    first = not f.done
    how = ("in actions() order" if not f.order else "in the order given" if all(k is None for _, k in f.order)
           else "in key order")
    what = "its first child" if first else f"its next child {how}"
    at = f"{f.kind} node {name(f.node)}{_role(f, name, path)}: "
    keys = f" {_key_order(f, name)}" if f.order else ""
    if f.alpha is not None and not first:
        if _maxing(f, path):
            why = f"v = {num(f.v)} < beta = {num(f.beta)}, so no cut-off: "
        else:
            why = f"v = {num(f.v)} > alpha = {num(f.alpha)}, so no cut-off: "
        return f"{at}{why}it searches {what}, {name(child)}, with the window ({num(f.alpha)}, {num(f.beta)}).{keys}"
    if f.total is not None and not first:
        if f.bound is None:
            return f"{at}no bound from its parent, so it searches {what}, {name(child)}."
        if f.owner == f.kind:
            return (f"{at}its parent is {f.owner}'s too ({f.owner} moves twice in a row), and shallow pruning needs "
                    f"two different players, so no cut-off: it searches {what}, {name(child)}.")
        return (f"{at}its best entry {num(f.v[f.entry])} < {num(f.total)} - {num(f.bound)}, so no cut-off: it "
                f"searches {what}, {name(child)}.")
    return (f"A search makes one child at a time, {how}, and searches it before making the next: "
            f"{what} is {name(child)}.{keys}")


def missed_cut(game: Any, cuts: Sequence[tuple], mine: tuple | None) -> tuple:
    """Of the cuts the correct search made after a step (`cuts`, deepest first), the one a search whose next step is
    `mine` did not make: the first made at or above the node `mine` is a child of, else the first."""
    if mine is not None and len(cuts) > 1:
        nodes = [f.node for f in cuts[0]]  # every later cut is of a node on the first one's path: closing goes up
        at = next((k for k in range(len(nodes) - 1, -1, -1) if _child_of(game, nodes[k], mine[1])), None)
        if at is not None:
            return next((c for c in cuts if len(c) - 1 <= at), cuts[-1])
    return cuts[0]


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
        cut = missed_cut(game, note.cut, mine)
        f = cut[-1]
        lines.append(f"{case_name}: your search first differs from the correct one at {step_word}, at "
                     f"{path_text(cut, name, game)}.")
        lines.append(f"There the correct search was at {_frame_text(f, name)}.")
        lines.append(_cut_rule(f, name, cut))
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
                lines.append(_next_rule(f, node, name, note.path))
            elif kind == "evaluate":
                lines.append(f"{name(node)} is at the depth limit (depth 0 left): the search evaluates it (once) as "
                             "soon as it has made it, before making anything else.")
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
    def frames(path: tuple) -> list:
        return [_plain(list(asdict(f).values())) for f in path]

    # One cut is written as its path alone (as course_lib 0.2.0 reads it), several as a list of paths.
    data = [[_plain(n.step), frames(n.path), None if not n.cut else frames(n.cut[0]) if len(n.cut) == 1 else
             [frames(c) for c in n.cut]] for n in notes]
    return base64.b64encode(zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)).decode()


def decode(text: str) -> list[Note]:
    """The notes `encode` wrote."""
    data = json.loads(zlib.decompress(base64.b64decode(text)))

    def frames(rows: list) -> tuple:
        return tuple(Frame(*_back(row)) for row in rows)

    def cuts(rows: list | None) -> tuple | None:
        if not rows:
            return None
        return tuple(frames(c) for c in rows) if isinstance(rows[0][0], list) else (frames(rows),)

    return [Note(_back(step) if step is not None else None, frames(path), cuts(cut)) for step, path, cut in data]


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


# -- a reordered tree: the first node whose best child is not first ---------------------------------------

def _shape(tree: Any, node: Hashable, memo: dict) -> Any:
    """The subtree below `node` with its children in a fixed order: equal for two reorderings of one subtree."""
    if node not in memo:
        if tree.is_terminal(node):
            memo[node] = ("leaf", tree.value(node))
        else:
            memo[node] = (tree.kind(node), tuple(sorted((_shape(tree, c, memo) for c in tree.children(node)), key=repr)))
    return memo[node]


def reordering(given: Any, yours: Any) -> dict | None:
    """Each node of `yours` -> the node of `given` it is (both GameTrees), when `yours` is `given` with only the
    children of its nodes reordered; None otherwise."""
    mg: dict = {}
    my: dict = {}
    if _shape(given, given.initial, mg) != _shape(yours, yours.initial, my):
        return None
    out = {yours.initial: given.initial}
    todo = [(yours.initial, given.initial)]
    while todo:
        y, g = todo.pop()
        if yours.is_terminal(y):
            continue
        free = list(given.children(g))
        for c in yours.children(y):
            match = next(k for k in free if mg[k] == my[c])
            free.remove(match)
            out[c] = match
            todo.append((c, match))
    return out


def explain_order(case_name: str, given: Any, yours: Any, values: dict) -> str | None:
    """The first node of `yours` (pre-order, in your order) whose first child is not a best one, told with the given
    tree's labels, its children's minimax values (`values`: a node of `given` -> its value, as the leaves are written)
    and the rule; None when every node puts a best child first or `yours` is not a reordering of `given`."""
    where = reordering(given, yours)
    if where is None:
        return None
    changed = [where[y] for y in yours.nodes() if not yours.is_terminal(y)
               and [where[c] for c in yours.children(y)] != list(given.children(where[y]))]
    todo = [yours.initial]
    while todo:
        y = todo.pop()
        if yours.is_terminal(y):
            continue
        g, kids = where[y], [where[c] for c in yours.children(y)]
        vals = [values[k] for k in kids]
        maxing = given.kind(g) == "MAX"
        best = max(vals) if maxing else min(vals)
        if vals[0] != best:
            first = kids[vals.index(best)]
            named = "" if str(y) == str(g) else f" ({y} in yours)"
            kept = kids == list(given.children(g))
            lines = [
                f"{case_name}: your tree first puts a child that is not a best one first at {g}{named}, a "
                f"{given.kind(g)} node (labels of the given tree).",
                "Its children and their minimax values, in the given order: "
                + ", ".join(f"{k} = {num(values[k])}" for k in given.children(g)) + ".",
                f"A {given.kind(g)} node's best child is the one with the {'largest' if maxing else 'smallest'} value "
                f"({first} = {num(best)}), and perfect ordering puts it first (when several tie, any of them).",
                f"Yours puts {kids[0]} = {num(vals[0])} first"
                + (": there yours keeps the given order." if kept else
                   f" (your order: {', '.join(kids)})."),
            ]
            inner = sum(1 for n in given.nodes() if not given.is_terminal(n))
            if changed and len(changed) <= 6:
                lines.append(f"Your tree changes the order of the children at {', '.join(map(str, changed))} only; "
                             f"the other {inner - len(changed)} of its {inner} inner nodes keep the given order.")
            elif not changed:
                lines.append("Your tree keeps the given order at every node.")
            return "\n".join(lines)
        todo.extend(reversed(yours.children(y)))
    return None


# -- a search with a transposition table: the first entry read or stored that differs -----------------------

EXACT, LOWER, UPPER = "exact", "lower", "upper"


@dataclass
class Visit:
    """One state entered by the correct table search: the window and depth it was entered with, the entry the table
    held then and whether it answered, and the entry stored when the search left it (`at`/`left`: steps made before)."""

    node: Hashable
    kind: str
    alpha: Any
    beta: Any
    depth: Any
    entry: Any = None            # (value, flag, depth) found in the table, or None
    answered: bool = False       # the entry ended the search of this state
    at: int = 0                  # steps made before the state was entered
    value: Any = None            # the value the search returned for it
    stored: Any = None           # the entry stored when it was left (None: nothing stored)
    left: int = 0                # steps made before it was left
    terminal: bool = False
    true: Any = None             # its minimax value searched `depth` plies deep, when known (None: not known)


def rule_flag(v: Any, alpha: Any, beta: Any) -> str:
    """The flag of a value `v` found with the window (alpha, beta) the state was entered with."""
    return UPPER if v <= alpha else LOWER if v >= beta else EXACT


def _read_text(visit: Visit, name: Callable[[Hashable], str]) -> tuple[str, bool]:
    """Whether the entry found at `visit` answers, and the rule that says so, with its numbers."""
    e, at = visit.entry, name(visit.node)
    if e is None:
        return f"the table held no entry for {at}, so the search goes on with its children", False
    v, flag, d = e
    held = f"the table held ({num(v)}, {flag.upper()}, {num(d)}) for {at}"
    if d < visit.depth:
        return (f"{held}; an entry answers only when entry depth >= depth, and here {num(d)} < {num(visit.depth)} (it "
                "was searched less deep than asked there), so the search goes on with its children"), False
    if flag == EXACT:
        return f"{held}: an EXACT entry searched deep enough is the value, so the search returns {num(v)} at once", True
    if flag == LOWER:
        if v >= visit.beta:
            return (f"{held}: a LOWER entry says the value is at least {num(v)}, and {num(v)} >= beta = "
                    f"{num(visit.beta)}, so the search returns {num(v)} at once (a cut-off)"), True
        return (f"{held}: a LOWER entry says the value is at least {num(v)}; it answers only when {num(v)} >= beta, "
                f"and beta = {num(visit.beta)}, so the search goes on with its children"), False
    if v <= visit.alpha:
        return (f"{held}: an UPPER entry says the value is at most {num(v)}, and {num(v)} <= alpha = "
                f"{num(visit.alpha)}, so the search returns {num(v)} at once (a cut-off)"), True
    return (f"{held}: an UPPER entry says the value is at most {num(v)}; it answers only when {num(v)} <= alpha, "
            f"and alpha = {num(visit.alpha)}, so the search goes on with its children"), False


def _store_text(visit: Visit, name: Callable[[Hashable], str]) -> str:
    at, v = name(visit.node), visit.value
    if visit.terminal:
        return f"{at} is a terminal state: its entry is its utility, ({num(v)}, EXACT, inf)."
    if visit.depth == 0:
        return f"{at} is searched at depth 0: its entry is its evaluation, ({num(v)}, EXACT, 0)."
    flag = rule_flag(v, visit.alpha, visit.beta)
    why = {UPPER: f"v = {num(v)} <= alpha = {num(visit.alpha)}: the value is at most {num(v)} (UPPER)",
           LOWER: f"v = {num(v)} >= beta = {num(visit.beta)}: the value is at least {num(v)} (LOWER)",
           EXACT: f"alpha = {num(visit.alpha)} < v = {num(v)} < beta = {num(visit.beta)}: the value is exact"}[flag]
    bound = "; a value found after a cut-off is only a bound" if flag != EXACT else ""
    return (f"The flag comes from the window the state was entered with: {why}{bound}. So the entry is "
            f"({num(v)}, {flag.upper()}, {num(visit.depth)}).")


def _first_false(case_name: str, visits: Sequence[Visit], table: dict, found: dict,
                 name: Callable[[Hashable], str]) -> str | None:
    """The first state (in the order the correct search stored them) whose entry in the student's table is false,
    told with a visit of the correct search that found the same value there."""
    for vis in sorted((v for v in visits if v.stored is not None), key=lambda x: x.left):
        theirs = table.get(vis.node)
        if theirs is None or found.get(vis.node) is not None and _entry_is(theirs, found[vis.node]):
            continue
        try:
            same = theirs[0] == vis.value
        except (TypeError, IndexError, KeyError):
            same = False
        if same and vis.true is not None and _false_entry(theirs, vis):
            return _stored_message(case_name, vis, theirs, name, later=True)
    return None


def _stored_message(case_name: str, vis: Visit, theirs: Any, name: Callable[[Hashable], str],
                    read: int | None = None, later: bool = False) -> str:
    lines = [f"{case_name}: the first entry your search stored that differs is the one of {name(vis.node)}.",
             f"The correct search entered {name(vis.node)} ({vis.kind}) with the window (alpha, beta) = "
             f"({num(vis.alpha)}, {num(vis.beta)}) and depth {num(vis.depth)}, and found v = {num(vis.value)}.",
             _store_text(vis, name)]
    known = f" (searched {num(vis.depth)} plies deep its value is {num(vis.true)})" if vis.true is not None else ""
    if later:
        lines[0] = (f"{case_name}: your search takes another way through the table than the correct one (an entry of "
                    f"yours that is true answers where the correct one does not), and the first entry it stored that "
                    f"is false is the one of {name(vis.node)}.")
        lines.append(f"Your table ends the search with {theirs!r:.80} for it{known}.")
    elif read is None:
        lines.append(f"Yours stored {theirs!r:.80} for it{known}.")
    else:
        lines.append(f"Your table ends the search with {theirs!r:.80} for it{known}, and at step {read + 1}, where the "
                     f"correct search reads its entry again, yours did what that entry says.")
    return "\n".join(lines)


def _reached(key: Any, reached: set) -> bool:
    try:
        return key in reached
    except TypeError:
        return False


def _entry_is(mine: Any, entry: Any) -> bool:
    try:
        return tuple(mine) == tuple(entry)
    except TypeError:
        return False


def _false_entry(mine: Any, visit: Visit) -> bool:
    """True when the student's entry for the state of `visit` is not a true statement (its value `visit.true` known),
    or, the value not known, not the entry the rule gives."""
    if visit.true is None:
        return not _same_entry(mine, visit)
    try:
        v, flag, d = mine
    except (TypeError, ValueError):
        return True
    if type(v) not in (int, float) or flag not in (EXACT, LOWER, UPPER):
        return True
    if not visit.terminal and d != visit.depth:
        return True
    t = visit.true
    return v != t if flag == EXACT else v > t if flag == LOWER else v < t


def _same_entry(mine: Any, visit: Visit) -> bool:
    try:
        v, flag, d = mine
    except (TypeError, ValueError):
        return False
    want_flag = EXACT if visit.terminal or visit.depth == 0 else rule_flag(visit.value, visit.alpha, visit.beta)
    return (v == visit.value and type(v) in (int, float) and flag == want_flag
            and (visit.terminal or d == visit.depth))


def explain_table(case_name: str, visits: Sequence[Visit], want: Sequence[tuple], got: Sequence[tuple],
                  table: Any, game: Any, name: Callable[[Hashable], str] = str) -> str | None:
    """The first entry stored or read where the student's table search (its steps `got`, its table afterwards)
    leaves the correct one (`visits` and its steps `want`): the state, the window held there, the value, the flag
    the rule gives or the entry the rule reads, and what the student's search stored or did instead. None when
    nothing differs."""
    k = _first_difference(list(want), list(got))
    end = len(want) if k is None else k
    later = {i: {s[1] for s in got[i:] if s[0] == "generate"} for i in {vis.left for vis in visits if vis.left <= end}}
    last: dict = {}
    for vis in visits:  # the last entry the correct search stored for each state before the first different step
        if vis.stored is not None and vis.left <= end:
            last[vis.node] = vis
    tables = isinstance(table, dict)
    if tables and visits:
        states = set(game.nodes()) if isinstance(game, GameTree) else None
        kind = type(visits[0].node)
        strange = [key for key in table if not (_reached(key, states) if states is not None else type(key) is kind)]
        if strange:
            return (f"{case_name}: your table has the key {strange[0]!r:.60}, which is not a state of the game "
                    f"({len(strange)} such keys in all). The table answers for states: key the table by the state "
                    "itself (the player to move is part of it), so that two states never share an entry.")
    found: dict = {}  # each state's entry before this search (what the correct search found on first entering it)
    for vis in visits:
        found.setdefault(vis.node, vis.entry)
    for vis in sorted(last.values(), key=lambda x: x.left):
        if vis.node in later[vis.left] or not tables or vis.node not in table:
            continue
        if found.get(vis.node) is not None and _entry_is(table[vis.node], found[vis.node]):
            continue  # an entry of an earlier search that this one left as it was: another way of storing
        if _false_entry(table[vis.node], vis):
            return _stored_message(case_name, vis, table[vis.node], name)
    if k is None:
        return None
    mine = got[k] if k < len(got) else None
    # A read that differs, where the student's table ends with another entry for the state than the one the correct
    # search read, and that entry read by the rule does what the student's search did: the entry stored differs.
    for vis in visits:
        if vis.at != k or vis.terminal or not tables or vis.node not in table or vis.node not in last:
            continue
        theirs = table[vis.node]
        if not _false_entry(theirs, last[vis.node]) or (found.get(vis.node) is not None
                                                         and _entry_is(theirs, found[vis.node])):
            continue
        try:
            _, answers = _read_text(Visit(vis.node, vis.kind, vis.alpha, vis.beta, vis.depth, tuple(theirs)), name)
        except (TypeError, ValueError):
            continue
        if answers != vis.answered:
            return _stored_message(case_name, last[vis.node], theirs, name, k)
    # A true entry of the student's that answers where the correct one did not (or the other way round) is another
    # right way: what differs first is then a false entry of theirs, wherever it was stored.
    for vis in visits:
        if vis.at != k or vis.terminal or not tables or vis.node not in table or vis.true is None and vis.entry is None:
            continue
        theirs = table[vis.node]
        if vis.node in last and not _false_entry(theirs, last[vis.node]) and not _entry_is(theirs, vis.entry or ()):
            try:
                _, answers = _read_text(Visit(vis.node, vis.kind, vis.alpha, vis.beta, vis.depth, tuple(theirs)), name)
            except (TypeError, ValueError):
                continue
            if answers != vis.answered:
                return _first_false(case_name, visits, table, found, name)
    did = "Yours stopped there." if mine is None else f"Yours {VERBS.get(mine[0], mine[0])} {name(mine[1])}."
    answered = [vis for vis in visits if vis.at == k and vis.answered]
    entered = [vis for vis in visits if vis.at == k and not vis.answered and not vis.terminal and vis.depth != 0]
    # The correct search answered a state from the table just before step k; yours searched it.
    for vis in answered:
        if mine is not None and mine[0] == "generate" and _child_of(game, vis.node, mine[1]):
            text, _ = _read_text(vis, name)
            return "\n".join([
                f"{case_name}: your search first differs from the correct one at step {k + 1}, at {name(vis.node)}.",
                f"The correct search entered {name(vis.node)} ({vis.kind}) with the window (alpha, beta) = "
                f"({num(vis.alpha)}, {num(vis.beta)}) and depth {num(vis.depth)}; {text}.",
                f"Yours {VERBS.get(mine[0], mine[0])} {name(mine[1])}, a child of {name(vis.node)}: it searched on "
                "where the table answers.",
            ])
    # The correct search read an entry that does not answer and searched the state's children; yours did not.
    step = want[k] if k < len(want) else None
    for vis in entered:
        text, _ = _read_text(vis, name)
        first = f"its first child, {name(step[1])}" if step is not None else "its children"
        if mine is None:
            did = f"Yours generated nothing more: it made no child of {name(vis.node)}."
        elif mine[0] == "generate" and not _child_of(game, vis.node, mine[1]):
            did = (f"Yours generated {name(mine[1])}, which is not a child of {name(vis.node)}: it made no child of "
                   f"{name(vis.node)} there.")
        return "\n".join([
            f"{case_name}: your search first differs from the correct one at step {k + 1}, at {name(vis.node)}.",
            f"The correct search entered {name(vis.node)} ({vis.kind}) with the window (alpha, beta) = "
            f"({num(vis.alpha)}, {num(vis.beta)}) and depth {num(vis.depth)}; {text}: it generates {first}.",
            did,
        ])
    open_ = [vis for vis in visits if vis.at <= k < vis.left and not vis.answered]
    if open_ and step is not None and open_[-1].terminal and mine is not None and mine[1] == open_[-1].node:
        vis = open_[-1]
        return "\n".join([
            f"{case_name}: your search first differs from the correct one at step {k + 1}, at {name(vis.node)}.",
            f"The correct search reached {name(vis.node)} with depth {num(vis.depth)} left: it is a terminal state, so "
            "it takes its utility, at any depth (depth 0 too), and never evaluates it.",
            did,
        ])
    if open_ and step is not None and open_[-1].terminal:
        vis = open_[-1]
        return "\n".join([
            f"{case_name}: your search first differs from the correct one at step {k + 1}, at {name(vis.node)}.",
            f"There the correct search had reached {name(vis.node)}, a terminal state, and took its utility next.",
            did,
        ])
    if open_ and step is not None:
        vis = open_[-1]
        return "\n".join([
            f"{case_name}: your search first differs from the correct one at step {k + 1}, below {name(vis.node)}.",
            f"There the correct search was at {name(vis.node)} ({vis.kind}), entered with the window (alpha, beta) = "
            f"({num(vis.alpha)}, {num(vis.beta)}) and depth {num(vis.depth)}; it {VERBS.get(step[0], step[0])} "
            f"{name(step[1])} next (children in actions() order, pruned when v >= beta at MAX or v <= alpha at MIN).",
            did,
        ])
    return None


def _child_of(game: Any, node: Hashable, child: Hashable) -> bool:
    """True when `child` is one of the states `node` leads to."""
    try:
        return not game.is_terminal(node) and any(game.result(node, a) == child for a in game.actions(node))
    except Exception:  # noqa: BLE001 - a question about the student's step only
        return False


def encode_table_run(want: Sequence[tuple], visits: Sequence[Visit]) -> str:
    """The steps and visits of a correct table search as one short line of text, to ship beside a public case."""
    data = [[_plain(list(step)) for step in want], [_plain(list(asdict(v).values())) for v in visits]]
    return base64.b64encode(zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 9)).decode()


def explain_table_run(case_name: str, traced: Any, table: Any, run: str) -> str | None:
    """The first entry stored or read where the table search `traced` (a `Traced` game it ran on, with `table` as it
    left it) leaves the correct run shipped as `run` (`encode_table_run`); None when nothing differs."""
    want_rows, visit_rows = json.loads(zlib.decompress(base64.b64decode(run)))
    game = traced.game
    start = game.initial
    make = type(start)._make if isinstance(start, tuple) and hasattr(type(start), "_make") else None

    def state(x: Any) -> Any:
        return make(x) if make is not None and isinstance(x, tuple) else x

    want = [(kind, state(node)) for kind, node in (_back(row) for row in want_rows)]
    visits = []
    for row in visit_rows:
        vis = Visit(*_back(row))
        vis.node = state(vis.node)
        vis.entry = tuple(vis.entry) if vis.entry is not None else None
        vis.stored = tuple(vis.stored) if vis.stored is not None else None
        visits.append(vis)
    got = steps(traced.trace)
    name = (lambda s: f"{s.board}/{s.to_move}") if hasattr(start, "board") else str
    return explain_table(case_name, visits, want, got, table, game, name)


def explain_depths(case_name: str, traced: Any, runs: Sequence[str]) -> str | None:
    """The first wrong step of an iterative deepening (`traced`: the `Traced` game it ran on) against the shipped
    notes of each depth's search (`runs`, depth 1 first): the depth, then the step inside it; None when all agree."""
    done, start = steps(traced.trace), 0
    roots: list = []   # the root's children: every depth starts by making one of them
    for d, text in enumerate(runs, 1):
        written = decode(text)
        want = [n.step for n in written if n.step is not None]
        roots += [n.step[1] for n in written if n.step is not None and n.step[0] == "generate" and len(n.path) == 1]
        end, last = start + len(want), d == len(runs)
        # A step just after this depth's last one that makes no root child carries this depth on (the correct
        # search had ended it, its last note says why): the first difference is here, not in the next depth.
        goes_on = len(done) > end and not (done[end][0] == "generate" and done[end][1] in roots)
        if done[start:end] != want or last and len(done) != end or goes_on:
            where = f"{case_name}, depth {d} of {len(runs)}" + (f" (after the {start} steps of the depths before)"
                                                                 if d > 1 else "")
            return first_wrong_step(where, traced.game, written, done[start:])
        start = end
    return None
