"""The first wrong step (grader only): where a student's ordered trace leaves the correct one, and what
the correct search held there.

The correct run is written down as `Note`s, one per step (a child generated, a leaf valued), each with
the nodes open on the correct search's path at that moment (`Frame`: the node, its kind, its window and
value so far when the algorithm has them, the children searched so far) and the node it left by a
cut-off just before. `annotate` writes them from the correct model's own trace (any search that
walks a tree depth first); `alphabeta_notes` and `shallow_notes` run alpha-beta and max^n with shallow
pruning and keep their windows and bounds. `first_wrong_step` turns the notes and the student's steps
into a message (HINTS.md): where, what the correct search held there, the rule, what theirs did.
`first_wrong_value` does the same for a search that took the right steps but combined values wrongly:
it asks the student's function for the values of deeper and deeper nodes until it finds the deepest one
whose value is wrong while its children's values are right.

Every sentence states facts of the correct run or of what the student's search did, nothing guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Hashable, Sequence

from course_lib.annotations import action_text
from course_lib.explain import VERBS, Frame, Note, first_wrong_step, kind_of, num  # noqa: F401 - the kit's names too
from course_lib.explain import _frame_text, path_text
from course_lib.games import GameTree

from . import common


def snapshot(path: list[Frame]) -> tuple:
    """The path of frames as it is now (each frame's list of done children copied), for a Note."""
    return tuple(replace(f, done=list(f.done)) for f in path)


# -- notes of a correct run ---------------------------------------------------------------------------

def annotate(game: Any, state: Hashable, events: Sequence[Any], steps: Sequence[tuple],
             value_of: Callable[[Hashable], Any] | None = None) -> list[Note]:
    """Notes of a correct depth-first run from its trace `events` (generate, utility, evaluate) and its `steps`
    (as the group compares them, one per generate and one per leaf valued): a node left before all its children
    were made is a cut, noted at the next step. `value_of(node)` gives a searched child's correct value."""
    path = [Frame(state, kind_of(game, state), width=_width(game, state))]
    notes: list[Note] = []
    cuts: list[tuple] = []
    gens = [e for e in events if e.kind == "generate"]
    gi = 0
    for step in steps:
        if step[0] == "generate":
            e = gens[gi] if gi < len(gens) else None
            gi += 1
            parent = e.parent if e is not None else None
            while len(path) > 1 and path[-1].node != parent:
                _close(path, value_of, cuts)
            notes.append(Note(step, snapshot(path), take_cuts(cuts)))
            path[-1].done.append((step[1], None))
            path.append(Frame(step[1], kind_of(game, step[1]), width=_width(game, step[1])))
        else:
            while len(path) > 1 and path[-1].node != step[1]:
                _close(path, value_of, cuts)
            notes.append(Note(step, snapshot(path), take_cuts(cuts)))
    while len(path) > 1:
        _close(path, value_of, cuts)
    last = _close_root(path)
    notes.append(Note(None, snapshot(path), take_cuts(cuts + ([last] if last else []))))
    return notes


def take_cuts(cuts: list[tuple]) -> tuple | None:
    """The cuts made since the last step (a Note's `cut`), and none pending after."""
    taken = tuple(cuts) or None
    cuts.clear()
    return taken


def _width(game: Any, node: Hashable) -> int:
    try:
        return 0 if game.is_terminal(node) else len(game.actions(node))
    except Exception:  # noqa: BLE001
        return 0


def _close(path: list[Frame], value_of: Callable[[Hashable], Any] | None, cuts: list[tuple]) -> None:
    """Leave the deepest open node; its path joins `cuts` when it was left before all its children were made."""
    frame = path[-1]
    if 0 < len(frame.done) < frame.width:
        cuts.append(tuple(snapshot(path)))
    path.pop()
    if value_of is not None and path and path[-1].done and path[-1].done[-1][0] == frame.node:
        try:
            path[-1].done[-1] = (frame.node, value_of(frame.node))
        except Exception:  # noqa: BLE001 - a value is extra information only
            pass


def _close_root(path: list[Frame]) -> tuple | None:
    frame = path[-1]
    return tuple(snapshot(path)) if 0 < len(frame.done) < frame.width else None


def alphabeta_notes(game: Any, state: Hashable, alpha: float = -math.inf, beta: float = math.inf,
                    player: Any = None, leaf: str = "utility") -> tuple[Any, list[Note]]:
    """The course's alpha-beta (fail-soft, prunes on equality, children in actions() order, values for `player`,
    by default the player to move at `state`), run with a note per step: its value and its notes."""
    player = game.to_move(state) if player is None else player
    notes: list[Note] = []
    path: list[Frame] = []
    pending: list[tuple] = []

    def search(s: Hashable, a: float, b: float) -> Any:
        if game.is_terminal(s):
            notes.append(Note((leaf, s), snapshot(path), take_cuts(pending)))
            return game.utility(s, player)
        maxing = game.to_move(s) == player
        frame = Frame(s, search_kind(game, s, maxing), a, b, -math.inf if maxing else math.inf,
                      width=len(game.actions(s)))
        path.append(frame)
        for act in game.actions(s):
            child = game.result(s, act)
            notes.append(Note(("generate", child), snapshot(path), take_cuts(pending)))
            frame.done.append((child, None))
            w = search(child, frame.alpha, frame.beta)
            frame.done[-1] = (child, w)
            if maxing:
                frame.v = max(frame.v, w)
                if frame.v >= frame.beta:
                    return _leave(path, frame, cut=len(frame.done) < frame.width)
                frame.alpha = max(frame.alpha, frame.v)
            else:
                frame.v = min(frame.v, w)
                if frame.v <= frame.alpha:
                    return _leave(path, frame, cut=len(frame.done) < frame.width)
                frame.beta = min(frame.beta, frame.v)
        return _leave(path, frame, cut=False)

    def _leave(path: list[Frame], frame: Frame, cut: bool) -> Any:
        if cut:
            pending.append(snapshot(path))
        path.pop()
        return frame.v

    result = search(state, alpha, beta)
    notes.append(Note(None, (), take_cuts(pending)))
    return result, notes


def search_kind(game: Any, node: Hashable, maxing: bool) -> str:
    """A node's kind in an alpha-beta note: the tree's own (MAX or MIN, as drawn; the search is for the player to
    move at its start, so a MIN node maximises in a search started at one), else whether the search maximises."""
    return game.kind(node) if isinstance(game, GameTree) else "MAX" if maxing else "MIN"


def shallow_notes(game: Any, state: Hashable, max_sum: float) -> tuple[Any, list[Note]]:
    """max^n with shallow pruning (as the course's lab 06 writes it), run with a note per step."""
    players = list(game.players)
    notes: list[Note] = []
    path: list[Frame] = []
    pending: list[tuple] = []

    def value(s: Hashable, owner: Any, bound: Any) -> Any:
        if game.is_terminal(s):
            notes.append(Note(("leaf", s), snapshot(path), take_cuts(pending)))
            return game.utilities(s)
        me = game.to_move(s)
        j = players.index(me)
        frame = Frame(s, str(me), bound=bound, owner=owner, total=max_sum, entry=j, width=len(game.actions(s)))
        path.append(frame)
        for a in game.actions(s):
            child = game.result(s, a)
            notes.append(Note(("generate", child), snapshot(path), take_cuts(pending)))
            frame.done.append((child, None))
            v = value(child, me, None if frame.v is None else frame.v[j])
            frame.done[-1] = (child, v)
            if frame.v is None or v[j] > frame.v[j]:
                frame.v = v
            if bound is not None and owner != me and frame.v[j] >= max_sum - bound:
                if len(frame.done) < frame.width:
                    pending.append(snapshot(path))
                path.pop()
                return frame.v
        path.pop()
        return frame.v

    result = value(state, None, None)
    notes.append(Note(None, (), take_cuts(pending)))
    return result, notes


# -- a leaf valued for another player ------------------------------------------------------------------

def first_wrong_leaf(case_name: str, game: Any, start: Hashable, notes: Sequence[Note], want: Sequence[Any],
                     mine: Sequence[Any], name: Callable[[Hashable], str] = str) -> str | None:
    """The first leaf whose utility the student's search asked for another player than the correct search did, at a
    step before any step differs (`want`, `mine`: the runs' generate/utility/evaluate events, one per note); None
    when there is none. A leaf's value comes before every step that depends on it, so it is told first."""
    for i, (w, g) in enumerate(zip(want, mine)):
        if (w.kind, w.node) != (g.kind, g.node) or i >= len(notes):
            return None
        if w.kind != "utility" or w.player == g.player:
            continue
        note, leaf = notes[i], name(w.node)
        players = {e.player for e in want if e.kind == "utility"}
        where = f", below {path_text(note.path, name, game)}" if note.path else ""
        lines = [f"{case_name}: your search first differs from the correct one at step {i + 1}, the leaf {leaf}"
                 f"{where}."]
        if note.path:
            lines.append(f"There the correct search was at {_frame_text(note.path[-1], name)}.")
        rule = f"{leaf} is a terminal state: the correct search takes its utility for {w.player}"
        if len(players) == 1:
            rule += ", as at every leaf of this search"
            try:
                if game.to_move(start) == w.player:
                    rule += f" ({w.player} is the player to move at {name(start)}, where the search was called)"
            except Exception:  # noqa: BLE001 - who moves there is extra information only
                pass
        lines.append(f"{rule}: utility({leaf}, {w.player}) = {num(w.value)}.")
        lines.append(f"Yours asked utility({leaf}, {g.player}) = {num(g.value)}.")
        return "\n".join(lines)
    return None


# -- the deepest wrong value ---------------------------------------------------------------------------

@dataclass
class Descent:
    """What `first_wrong_value` needs of a lab: the student's value and the correct one at a node, a node's
    children with their correct values (in the view the rule uses), and the rule that combines them."""

    student: Callable[[Hashable], Any]
    correct: Callable[[Hashable], Any]
    children: Callable[[Hashable], list[tuple[Hashable, Any]]]
    rule: Callable[[Hashable], str]
    callable_at: Callable[[Hashable], bool] = lambda node: True
    view: Callable[[Hashable], str] = lambda node: ""
    max_calls: int = 40
    below: int = 0               # levels it still looks down, under a node whose children are all right
    calls: Callable[[Hashable], list[tuple]] | None = None   # (kind, node, player, answer) the student's search
    #                                                   asked of the game, called alone there (a node just above leaves)
    # Whether the student's function called alone on a node tests what that node does in the whole search from
    # `start` (its value for the same player): only then is "called alone, yours returned the correct value" said.
    alone_tests: Callable[[Hashable, Hashable], bool] = lambda start, node: True


def first_wrong_value(case_name: str, game: Any, start: Hashable, mine: Any, d: Descent,
                      name: Callable[[Hashable], str] = str) -> str:
    """From `start`, where the student's search returned `mine` (wrong), go down to the first child whose value
    is wrong too, until a node below which the student's function, called alone, is right (with `d.below`, it
    also looks that many levels under children that were right): the message states those observations and the
    correct rule there, never a cause."""
    node, path, calls, mine_here = start, [start], [0], mine
    right: list[Hashable] = []  # below the last node: where the student's function, called alone, was right
    skipped: list[Hashable] = []  # nodes on the path where the student's function, called alone, was right

    def ask(child: Hashable) -> Any:
        calls[0] += 1
        try:
            theirs = d.student(child)
        except common.CheckFailed:
            return None
        return None if common.same(theirs, d.correct(child)) else (theirs,)

    while calls[0] < d.max_calls:
        deeper, right = None, []
        todo = [c for c, _ in d.children(node)]
        while todo:
            child = todo.pop(0)
            if game.is_terminal(child):
                continue
            if not d.callable_at(child):  # a chance node: look at its outcomes instead
                todo[:0] = [game.result(child, a) for a in game.actions(child)]
                continue
            wrong = ask(child)
            if wrong is not None:
                deeper = ([child], wrong[0])
                break
            right.append(child)
            if calls[0] >= d.max_calls:
                break
        if deeper is None and d.below:
            deeper = _look_below(game, d, right, ask, calls)
        if deeper is None:
            break
        chain, mine_here = deeper
        if len(chain) > 1:
            skipped += chain[:-1]
        node = chain[-1]
        path += chain
    kids = d.children(node)
    where = " > ".join(str(n) for n in path) if isinstance(game, GameTree) else name(node)
    shown = ", ".join(f"{name(c)} = {num(v)}" for c, v in kids[:6]) + (", ..." if len(kids) > 6 else "")
    view = d.view(node)
    # Only what was observed: the student's function called alone on a node below may be right there and still
    # be wrong inside the search of this node (a value seen from the wrong side, say), so nothing is said of why.
    # A call alone that values a node for another player than the whole search does (a MIN node becomes its own
    # player's MAX node) clears nothing of the code that values it inside the search: it is not mentioned.
    right = [c for c in right if d.alone_tests(start, c)]
    skipped = [c for c in skipped if d.alone_tests(start, c)]
    below = ", ".join(name(c) for c in right[:6]) + (", ..." if len(right) > 6 else "")
    asked = ""
    if d.calls is not None:
        try:
            made = d.calls(node)
        except Exception:  # noqa: BLE001 - what was asked is extra information only
            made = []
        if 0 < len(made) <= 6:
            asked = "asked " + ", ".join(f"{k}({name(n)}, {p!r}) = {num(v)}" for k, n, p, v in made)
    lines = [
        f"{case_name}: your values first differ from the correct ones at {where}.",
        (f"There the correct search has {kind_of(game, node)} node {name(node)} with children "
         f"{'(values for ' + view + ') ' if view else ''}{shown}." if kids else
         f"There the correct search has {kind_of(game, node)} node {name(node)}, whose children it does not search."),
        d.rule(node),
        f"Yours, called on {name(node)}, {asked + ' and ' if asked else ''}returned {_shown(mine_here)}"
        + (f"; called alone on {below}, yours returned the correct value there." if right else "."),
    ]
    if skipped:
        lines.append(f"(Called alone on {', '.join(name(n) for n in skipped[:4])}, above it, yours returned the "
                     "correct value.)")
    return "\n".join(lines)


def _look_below(game: Any, d: Descent, right: list[Hashable], ask: Callable[[Hashable], Any],
                calls: list[int]) -> tuple[list[Hashable], Any] | None:
    """The first node, level by level under `right` (at most `d.below` levels down), where the student's function
    called alone is wrong: the nodes from a child of `right` down to it, and its value."""
    level = [[c] for c in right]
    for _ in range(d.below):
        nxt: list[list[Hashable]] = []
        for chain in level:
            for c, _ in d.children(chain[-1]):
                if game.is_terminal(c) or not d.callable_at(c):
                    continue
                if calls[0] >= d.max_calls:
                    return None
                wrong = ask(c)
                if wrong is not None:
                    return chain + [c], wrong[0]
                nxt.append(chain + [c])
        level = nxt
    return None


def _shown(x: Any) -> str:
    return num(x) if common.is_number(x) or isinstance(x, tuple) else repr(x)[:60]


def value_for(game: Any, state: Hashable, player: Any) -> Any:
    """The minimax value of `state` for `player` (expected value at a chance node): the facts a rule quotes."""
    if game.is_terminal(state):
        return game.utility(state, player)
    if hasattr(game, "outcomes") and game.to_move(state) == "CHANCE":
        return sum(p * value_for(game, game.result(state, a), player) for a, p in game.outcomes(state))
    vals = [value_for(game, game.result(state, a), player) for a in game.actions(state)]
    return max(vals) if game.to_move(state) == player else min(vals)


def minimax_descent(game: Any, student: Callable[[Hashable], Any], what: str = "value",
                    max_calls: int = 40) -> Descent:
    """The descent of a two-player value function whose value is for the player to move at the state it is
    called on (max where that player moves, min where the other one does)."""

    def kids(node: Hashable) -> list[tuple[Hashable, Any]]:
        p = game.to_move(node)
        return [(c, value_for(game, c, p)) for c in (game.result(node, a) for a in game.actions(node))]

    def rule(node: Hashable) -> str:
        p = game.to_move(node)
        best = max(v for _, v in kids(node))
        return (f"Called on {_label(game, node)}, the {what} is for {p}, the player to move there, who takes the "
                f"largest of its children's values for {p}: {num(best)}.")

    return Descent(student, lambda n: value_for(game, n, game.to_move(n)), kids, rule,
                   view=lambda n: str(game.to_move(n)), max_calls=max_calls, alone_tests=same_mover(game))


def same_mover(game: Any) -> Callable[[Hashable, Hashable], bool]:
    """For a value function whose value is for the player to move where it is called: a call alone on `node`
    tests what the node does in the search from `start` only when the same player moves at both."""
    return lambda start, node: game.to_move(node) == game.to_move(start)


def expectimax_descent(game: Any, student: Callable[[Hashable], Any], max_calls: int = 30) -> Descent:
    """The descent of an expectimax value (for the player to move where it is called); it is not called on
    chance nodes, and looks through them to their outcomes."""
    d = minimax_descent(game, student, max_calls=max_calls)

    def rule(node: Hashable) -> str:
        p = game.to_move(node)
        best = max(v for _, v in d.children(node))
        return (f"Called there, the value is for {p}, to move there, who takes the largest of its children's values "
                f"({num(best)}); a chance node is worth sum(p * value) over its outcomes.")

    return replace(d, rule=rule, callable_at=lambda n: game.to_move(n) != "CHANCE")


def maxn_descent(game: Any, student: Callable[[Hashable], Any], correct: Callable[[Hashable], Any],
                 max_calls: int = 30) -> Descent:
    """The descent of a max^n vector value: the player to move takes the first child whose entry for her is
    largest."""
    players = list(game.players)

    def kids(node: Hashable) -> list[tuple[Hashable, Any]]:
        out = []
        for c in (game.result(node, a) for a in game.actions(node)):
            out.append((c, game.utilities(c) if game.is_terminal(c) else correct(c)))
        return out

    def rule(node: Hashable) -> str:
        p = game.to_move(node)
        j = players.index(p)
        return (f"{p}, to move there, takes the first child whose entry for {p} (entry {j}) is largest: "
                f"{num(correct(node))}.")

    return Descent(student, correct, kids, rule, max_calls=max_calls)


def root_choice(case_name: str, game: Any, state: Hashable, moves: Sequence[tuple[Any, Hashable, Any]], got: Any,
                name: Callable[[Hashable], str] = str, worth: str = "worth", lines: Sequence[str] = (),
                lead: str | None = None) -> str:
    """A decision that took the correct steps but chose another move: each root move's correct value (`moves`:
    action, child, value for the player to move), the move the first-best rule picks and how, and the student's.
    `lead` replaces the first line where the steps cannot tell whether the choice or the values behind it differ."""
    p = game.to_move(state)
    best, best_v, trail = None, None, []
    for a, _, v in moves:
        if best is None or v > best_v:
            best, best_v = a, v
            trail.append(f"{action_text(a)} ({num(v)})")
    tree = isinstance(game, GameTree)
    listed = ", ".join(f"{action_text(a)}{' (' + name(c) + ')' if tree else ''}: {num(v)}" for a, c, v in moves)
    legal = [a for a, _, _ in moves]
    mine = [v for a, _, v in moves if common.same(a, got)]
    out = [lead or f"{case_name}: your search took the same steps as the correct one; it first differs at the choice "
           f"at the root{' ' + name(state) if tree else ''}.",
           (f"There the correct decision has {kind_of(game, state)} node {name(state)} with its" if tree else
            f"There, {p} to move, the correct decision has its") + f" moves {worth}, for {p}: {listed}.", *lines,
           "Going through the moves in actions() order it keeps the first move whatever its value, then a move only "
           f"when its value is strictly larger than the best so far ({' then '.join(trail)}), so it returns "
           f"{best!r}."]
    if mine:
        out.append(f"Yours returned {got!r} (worth {num(mine[0])}).")
    else:
        out.append(f"Yours returned {_shown(got)}, which is not one of the actions {legal!r:.80}.")
    return "\n".join(out)


def minimax_choice(case_name: str, game: Any, state: Hashable, got: Any, name: Callable[[Hashable], str] = str
                   ) -> str:
    """`root_choice` with each root move's minimax value for the player to move."""
    p = game.to_move(state)
    moves = [(a, c, value_for(game, c, p)) for a in game.actions(state) for c in [game.result(state, a)]]
    return root_choice(case_name, game, state, moves, got, name)


def _label(game: Any, node: Hashable) -> str:
    return str(node) if isinstance(game, GameTree) else "that state"
