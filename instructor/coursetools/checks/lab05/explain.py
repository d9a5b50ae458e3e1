"""The first wrong step of lab 05's searches (grader only): depth-limited alpha-beta with an evaluation at the
cut-off, its decision, and quiescence search.

The correct run is noted step by step (a child generated, a terminal state's utility, an evaluation at the
cut-off, with the player asked), each with the nodes open on its path then (their kind, window, value so far and
the depth they are searched with) and a node just left by a cut-off. `first_wrong_step` says where the student's
steps leave it: the node, its depth, what the cut-off rule says there (terminal, depth 0, quiet) or the window,
and what the student's search did. A search that took the correct steps but returned another value is followed
down (`value_descent`) to the deepest node whose value, called alone there with its depth, is wrong; a decision
that took them but chose another move gets the root's choice (`decision_choice`). Every sentence states facts of
the correct run or of what the student's search did.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Hashable, Sequence

from course_lib.explain import Frame, _cut_rule, _frame_text, _next_rule, num, path_text
from course_lib.games import GameTree
from course_lib.trace import Traced

from .. import common, explainer
from ..kit import Case, Run

INF = math.inf


@dataclass
class DFrame(Frame):
    """A node open on the correct search's path, with the depth it is searched with."""

    depth: int = 0


@dataclass
class Step:
    """One step of the correct run (None after its last), the path open then, the depth of the step's node, and
    the path of a node the correct search left by a cut-off just before."""

    step: tuple | None
    path: tuple
    depth: int = 0
    cut: tuple | None = None


def _snap(path: list[DFrame]) -> tuple:
    return tuple(replace(f, done=list(f.done)) for f in path)


def _kind(game: Any, node: Hashable, maxing: bool) -> str:
    side = "MAX" if maxing else "MIN"
    return side if isinstance(game, GameTree) else f"{game.to_move(node)}'s ({side})"


def notes(game: Any, state: Hashable, depth: int, evaluate: Callable[[Any, Any], Any], *, decision: bool = False,
          quiescence: bool = False) -> list[Step]:
    """The course's depth-limited alpha-beta (fail-soft, prunes on equality, values for the root player), or its
    decision (the root always searched, each root move with the best value so far as alpha), or quiescence (at
    depth <= 0 a noisy state is searched on), run with a note per step."""
    player = game.to_move(state)
    out: list[Step] = []
    path: list[DFrame] = []
    pending: list = [None]

    def note(step: tuple | None, d: int) -> None:
        out.append(Step(step, _snap(path), d, pending[0]))
        pending[0] = None

    def search(s: Hashable, d: int, a: float, b: float, root: bool = False) -> Any:
        if not root and game.is_terminal(s):
            note(("utility", s), d)
            return game.utility(s, player)
        if not root and (d <= 0 if quiescence else d == 0) and not (quiescence and game.is_noisy(s)):
            note(("evaluate", s, player), d)
            return evaluate(s, player)
        maxing = game.to_move(s) == player
        frame = DFrame(s, _kind(game, s, maxing), a, b, -INF if maxing else INF, width=len(game.actions(s)), depth=d)
        path.append(frame)
        for act in game.actions(s):
            child = game.result(s, act)
            note(("generate", child), d - 1)
            frame.done.append((child, None))
            w = search(child, d - 1, frame.alpha, frame.beta)
            frame.done[-1] = (child, w)
            if maxing:
                frame.v = max(frame.v, w)
                if frame.v >= frame.beta:
                    return leave(frame)
                frame.alpha = max(frame.alpha, frame.v)
            else:
                frame.v = min(frame.v, w)
                if frame.v <= frame.alpha:
                    return leave(frame)
                frame.beta = min(frame.beta, frame.v)
        path.pop()
        return frame.v

    def leave(frame: DFrame) -> Any:
        if len(frame.done) < frame.width:
            pending[0] = _snap(path)
        path.pop()
        return frame.v

    search(state, depth, -INF, INF, root=decision)
    note(None, 0)
    return out


def _rule_at(game: Any, node: Hashable, d: int, quiescence: bool) -> str:
    """Why the correct search goes on below `node` (it is not terminal and is not cut off at depth `d`)."""
    if quiescence and d <= 0:
        return (f"Its depth is {d} <= 0, but it is noisy (game.is_noisy is True), so quiescence does not stop "
                "there: it searches its children")
    return f"It is not terminal and its depth is {d} > 0, so the cut-off rule does not apply: it searches its children"


def _did(step: tuple | None, name: Callable[[Hashable], str], leaf_player: Any) -> str:
    if step is None:
        return "Yours stopped there."
    if step[0] == "evaluate":
        who = step[2] if len(step) > 2 else None
        return f"Yours evaluated {name(step[1])}" + (f" for {who!r}." if who != leaf_player else ".")
    return f"Yours {explainer.VERBS.get(step[0], step[0])} {name(step[1])}."


def first_wrong_step(case_name: str, game: Any, written: Sequence[Step], got: Sequence[tuple],
                     name: Callable[[Hashable], str] = str, quiescence: bool = False) -> str | None:
    """Where `got` (the student's steps) first leaves the correct run `written`; None when they agree."""
    want = [s.step for s in written if s.step is not None]
    i = next((k for k, (w, g) in enumerate(zip(want, got)) if w != g), None)
    if i is None:
        if len(want) == len(got):
            return None
        i = min(len(want), len(got))
    note = written[i] if i < len(written) else written[-1]
    mine = got[i] if i < len(got) else None
    player = game.to_move(written[0].path[0].node) if written[0].path else None
    head = f"{case_name}: your search first differs from the correct one at step {i + 1}"
    lines: list[str] = []
    if note.cut is not None and (mine is not None or note.step is None):
        f = note.cut[-1]
        lines += [f"{head}, at {path_text(note.cut, name, game)} (depth {f.depth}).",
                  f"There the correct search was at {_frame_text(f, name)}.", _cut_rule(f, name)]
    elif note.step is None:
        lines.append(f"{head}: the correct search had finished, having made each child and valued each state it "
                     "needs once.")
        mine_text = "Yours went on: " + _did(mine, name, player)[5:] if mine is not None else "Yours went on."
        return "\n".join(lines + [mine_text])
    else:
        kind, node = note.step[0], note.step[1]
        where = path_text(note.path, name, game) if note.path else "the start"
        if kind == "generate":
            f = note.path[-1]
            lines += [f"{head}, below {where}.", f"There the correct search was at {_frame_text(f, name)}, depth "
                      f"{f.depth}."]
            if not f.done:
                lines.append(f"{_rule_at(game, f.node, f.depth, quiescence)}; its first child is {name(node)}.")
            else:
                lines.append(_next_rule(f, node, name))
        elif kind == "evaluate":
            p = note.step[2]
            quiet = " and quiet (game.is_noisy is False)" if quiescence else ""
            reach = f"{head}, at {path_text(note.path, name, game, node)}."
            rule = ("depth <= 0" if quiescence else "depth 0") + quiet
            lines += [reach, f"There the correct search reached {name(node)} with depth {note.depth}: not terminal"
                      f"{quiet}.", f"At {rule} a state that is not terminal is valued by evaluate(state, {p!r}), for "
                      "the player to move at the root, and not searched below."]
        else:
            lines += [f"{head}, at {path_text(note.path, name, game, node)}.",
                      f"There the correct search reached {name(node)} with depth {note.depth}: a terminal state.",
                      f"A terminal state is valued by game.utility(state, {player!r}) at any depth, never by "
                      "evaluate and never searched below."]
    lines.append(_did(mine, name, player))
    return "\n".join(lines)


def explain(case: Case, mine: Run, steps: Callable[[Run], list], name: Callable[[Hashable], str], *,
            decision: bool = False, quiescence: bool = False) -> str | None:
    """The first wrong step of the student's run on a lab 05 case; None when nothing can be said."""
    depth, evaluation = case.args[0], case.args[1]
    written = notes(case.game, case.state, depth, evaluation, decision=decision, quiescence=quiescence)
    return first_wrong_step(case.name, case.game, written, steps(mine), name, quiescence)


# -- the values of a search that took the correct steps ------------------------------------------------

def value_descent(case: Case, student: Callable[..., Any], correct: Callable[..., Any],
                  max_calls: int = 20) -> explainer.Descent:
    """The descent of a depth-limited value: called on a node d plies below the start, the search gets depth
    depth - d, and its value is for the player to move there."""
    game, evaluation = case.game, case.args[1]
    depth_of: dict[Hashable, int] = {case.state: case.args[0]}

    def kids(node: Hashable) -> list[tuple[Hashable, Any]]:
        p, d = game.to_move(node), depth_of[node]
        out: list[tuple[Hashable, Any]] = []
        if d <= 0:  # evaluated there: nothing below is searched
            return out
        for a in game.actions(node):
            c = game.result(node, a)
            depth_of.setdefault(c, d - 1)
            out.append((c, _value(game, c, d - 1, p, evaluation)))
        return out

    def rule(node: Hashable) -> str:
        p, d = game.to_move(node), depth_of[node]
        if d <= 0:
            return (f"Called on {name_of(node)} with depth=0, the value is evaluate(state, {p!r}) = "
                    f"{num(evaluation(node, p))}, for {p}, the player to move there.")
        best = max(v for _, v in kids(node))
        return (f"Called on {name_of(node)} with depth={d}, the value is for {p}, the player to move there, who takes "
                f"the largest of its children's values for {p} (each searched with depth={d - 1}): {num(best)}.")

    def name_of(node: Hashable) -> str:
        return str(node) if isinstance(game, GameTree) else "that state"

    def theirs(node: Hashable) -> Any:
        return common.call(student, game, node, depth_of[node], evaluation, where=f"on {case.name}")

    def right(node: Hashable) -> Any:
        return correct(game, node, depth_of[node], evaluation)

    def asked(node: Hashable) -> list[tuple]:
        if depth_of[node] != 1:
            return []
        traced = Traced(game)
        common.call(student, traced, node, 1, traced.evaluator(evaluation), where=f"on {case.name}")
        return [(e.kind, e.node, e.player, e.value) for e in traced.trace.events("utility", "evaluate")]

    return explainer.Descent(theirs, right, kids, rule, calls=asked, view=lambda n: str(game.to_move(n)),
                             max_calls=max_calls, below=2, alone_tests=explainer.same_mover(game))


def _value(game: Any, state: Hashable, d: int, player: Any, evaluation: Callable[[Any, Any], Any]) -> Any:
    """The depth-limited minimax value of `state` for `player`, `d` plies deep (what alpha-beta returns with the
    full window)."""
    if game.is_terminal(state):
        return game.utility(state, player)
    if d <= 0:
        return evaluation(state, player)
    vals = [_value(game, game.result(state, a), d - 1, player, evaluation) for a in game.actions(state)]
    return max(vals) if game.to_move(state) == player else min(vals)


def decision_choice(case: Case, mine: Run, name: Callable[[Hashable], str]) -> str:
    """The root's choice of a depth-limited decision: each root move's value, searched depth - 1 plies below it."""
    game, state, (depth, evaluation) = case.game, case.state, case.args[:2]
    p = game.to_move(state)
    moves = [(a, c, _value(game, c, depth - 1, p, evaluation)) for a in game.actions(state)
             for c in [game.result(state, a)]]
    return explainer.root_choice(case.name, game, state, moves, mine.result, name,
                                 worth=f"worth (each searched with depth={depth - 1}, the full window)")


# -- the evaluations the lab specifies exactly: each feature's correct value and the sum ----------------

def mobility_parts(game: Any, state: Any, player: Any) -> str:
    """Isolation mobility worked out: each player's moves and the formula with them."""
    other = game.opponent(player)
    mine, theirs = game.mobility(state, player), game.mobility(state, other)
    value = (mine - theirs) / (mine + theirs + 1)
    return (f"In this position {player!r} has mine = game.mobility(state, {player!r}) = {mine} moves and the opponent "
            f"{other!r} has theirs = game.mobility(state, {other!r}) = {theirs}; (mine - theirs) / (mine + theirs + 1) "
            f"= ({mine} - {theirs}) / ({mine} + {theirs} + 1) = {num(float(value))}.")


def material_parts(fen: str, player: str, pieces: dict[str, int]) -> str:
    """Chess material worked out: each side's pieces in the placement field, their values, the difference."""
    placement = fen.split()[0]

    def side(upper: bool) -> tuple[str, int]:
        parts, total = [], 0
        for letter, worth in pieces.items():
            ch = letter.upper() if upper else letter
            n = placement.count(ch)
            if n:
                parts.append(f"{ch} x{n} = {n * worth}")
                total += n * worth
        return ", ".join(parts) or "none", total

    (w_text, w), (b_text, b) = side(True), side(False)
    mine, theirs = (w, b) if player == "w" else (b, w)
    return (f"In the placement field {placement!r}: White's pieces (upper case) {w_text}: {w}; Black's (lower case) "
            f"{b_text}: {b}. For {player!r} the value is {'White' if player == 'w' else 'Black'}'s material minus "
            f"{'Black' if player == 'w' else 'White'}'s: {mine} - {theirs} = {mine - theirs}.")


def yours(got: Any) -> str:
    """The student's value, after a worked correct one."""
    return f" Yours returned {num(got)}."


def windows_parts(state: Any, player: Any, lines: Sequence[tuple[int, ...]], weights: Sequence[int],
                  got: Any = None) -> str:
    """Connect Four windows worked out: the open windows of each side by discs, the weighted totals, the scale; with
    `got`, the student's value in the same terms (its difference of totals over the same scale)."""
    other = "O" if player == "X" else "X"
    counts = {player: [0, 0, 0, 0, 0], other: [0, 0, 0, 0, 0]}
    blocked = 0
    for line in lines:
        cells = [state.board[i] for i in line]
        a, b = cells.count(player), cells.count(other)
        if a and b:
            blocked += 1
        elif a:
            counts[player][a] += 1
        elif b:
            counts[other][b] += 1

    def side(p: Any) -> tuple[str, int]:
        total = sum(counts[p][k] * weights[k] for k in (1, 2, 3))
        return ", ".join(f"{counts[p][k]} with {k} (x{weights[k]})" for k in (1, 2, 3)) + f": {total}", total

    (m_text, m), (t_text, t) = side(player), side(other)
    scale = weights[3] * len(lines) + 1
    text = (f"Of its {len(lines)} windows of four, those holding discs of {player!r} only: {m_text}; of {other!r} "
            f"only: {t_text}; {blocked} hold discs of both and count for neither. ({m} - {t}) / (9 * {len(lines)} + 1)"
            f" = {m - t} / {scale} = {num(float((m - t) / scale))}.")
    if got is None or not isinstance(got, (int, float)) or isinstance(got, bool):
        return text + yours(got)
    tally = got * scale  # the student's number in the rule's own terms: its difference of weighted totals
    if got == m - t:
        return text + f" Yours returned {num(got)}: the difference of the weighted totals itself, not over {scale}."
    if abs(got) < 1 and abs(tally - round(tally)) < 1e-6:
        return text + (f" Yours returned {num(got)}, which is {round(tally)} / {scale}: a difference of "
                       f"{round(tally)} between the weighted totals, where the correct one is {m - t}.")
    return text + yours(got)
