"""Lab 03's test groups (alpha-beta): one rule per group, so partial credit follows the mistake.

Groups of ``alphabeta_value``:

=============  ===========================================================================
``value``      the value, with the full window, on trees and game positions (the player to
               move may be the second player): returning the move, the wrong perspective
``children``   how the search walks the tree: children made one at a time, in actions()
               order, each once; each leaf valued once; utility() only on terminal states
``pruning``    the leaves evaluated, in order, with the full window: a search that never
               prunes, or that does not pass the updated bounds down
``equality``   ties at the cut prune (the course prunes on equality: v >= beta, v <= alpha): strict pruning
``deep``       bounds from every ancestor, not only the parent: bounds reset at each level
``window``     alpha and beta given by the caller: fail-soft values, the window used at all
=============  ===========================================================================

Groups of ``alphabeta_decision``: ``decision`` (the first best action, an action and not a
value, no ``return`` inside the loop) and ``decision_pruning`` (the best value so far is passed
down as alpha, so later root moves are pruned).

Each group compares with the correct model first (`profile.judged`); the groups that grade only
an answer (`value`, `decision`) ask for it on the case's own game (`kit.answer`: no call comes back
over the channel) and run a wrong answer again, traced, to decide and explain. A hint names a mistake
only when `kit` has seen its model reproduce what the search did (`kit.Judge.hint`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import partial
from typing import Any, Callable, Hashable

from course_lib.annotations import action_text
from course_lib.games import Game
from course_lib.trace import Traced

from .. import common, explainer, kit
from ..kit import Case, Run
from . import cases as data
from . import reference as ref
from ..kit import Judge, judged
from .profile import decision_profile, make_judge, value_profile

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

INTERNAL = ("internal nodes evaluated. Call game.utility only on states where game.is_terminal(state) is True; "
            "test is_terminal first instead of trying utility() and catching the error.")
UNSEARCHED = ("a child generated but never searched is one too many: call game.result only for the child you "
              "are about to search; after a cut-off, no further child should be made.")
WALK = ("Make one child with game.result, search it, and only then make the next one, in actions() order; "
        "search each child once and keep its value in a variable.")


class Recorder(Game):
    """A game that notes every utility() call, even one that raises (an internal node).

    It answers as `game` does (`answers_as`), so the kernel may answer on a copy of `game` and send
    its calls in a record; the checker then makes them here, and this game notes them as usual.
    """

    def __init__(self, game: Any):
        self._inner, self.attempts, self.answers_as = game, [], game
        self.initial, self.players = game.initial, game.players

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def to_move(self, state: Any) -> Any:
        return self._inner.to_move(state)

    def actions(self, state: Any) -> list:
        return self._inner.actions(state)

    def result(self, state: Any, action: Any) -> Any:
        return self._inner.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        return self._inner.is_terminal(state)

    def utility(self, state: Any, player: Any) -> Any:
        self.attempts.append(state)
        return self._inner.utility(state, player)

    def display(self, state: Any) -> str:
        return self._inner.display(state)


def run_student(fn: Callable[..., Any], case: Case, recorder: Recorder | None = None) -> Run:
    """The student's search on a traced copy of the case; utility() on an internal node is said so."""
    try:
        return kit.run_student(fn, case, game=recorder)
    except common.CheckFailed as failure:
        if "utility() is only defined for terminal states" in str(failure):
            raise common.CheckFailed(f"{failure}\nHint: seen in the trace: {INTERNAL}") from None
        raise


# -- messages ---------------------------------------------------------------------------------

def namer(case: Case, run: Run) -> Callable[[Hashable], str]:
    """How a node of this run is written: ``L.3=8`` in a tree, the moves leading to it in a game."""
    if not case.is_tree:
        return kit.namer(case, run)
    tree = case.game

    def tree_name(n: Hashable) -> str:
        try:
            return f"{n}={tree.value(n)}" if tree.kind(n) == "TERMINAL" else str(n)
        except ValueError:
            return str(n)

    return tree_name


def _show_step(case: Case, *runs: Run) -> Callable[[Any], str]:
    name = namer(case, *runs) if case.is_tree else kit.namer(case, *runs)
    return lambda step: f"{'evaluate' if step[0] != 'generate' else 'generate'} {name(step[1])}"


def compare_leaves(what: str, case: Case, mine: Run, want: Run, hint: Callable[[], str], note: str = "") -> None:
    """Fail unless the leaves evaluated are the same, in the same order."""
    got, exp = mine.trace.leaves(), want.trace.leaves()
    if got == exp:
        return
    name_got, name_want = namer(case, mine), namer(case, want)
    raise common.CheckFailed(common.sequence_message(
        f"The leaves {what} evaluated (in order)", [name_want(n) for n in exp], [name_got(n) for n in got],
        f"on {case.name}", kit.picture(case, mine), hint()) + note)


def compare_result(what: str, case: Case, got: Any, expected: Any, hint: Callable[[], str], mine: Run | None = None,
                   note: str = "") -> None:
    if common.same(got, expected):
        return
    extra = ""
    try:
        if type(got) is not type(expected) and got == expected:
            extra = f" (yours is a {type(got).__name__}, not a {type(expected).__name__})"
    except Exception:  # noqa: BLE001 - a comparison that raises is no match either
        pass
    common.fail(f"{what} on {case.name}: {kit.expected_text(case, expected)}, yours returned {got!r:.120}"
                f"{extra}.{note}",
                hint(), kit.picture(case, mine))


def _hint(judge: Judge, case: Case, mine: Run, advice: str, window: bool = False) -> Callable[[], str]:
    """The judge's hint; with `window` (alphabeta_value), on a case called without alpha and beta, also what the
    search does when they are given as -inf and +inf, when that is the correct search."""
    def text() -> str:
        out = judge.hint(case, mine, advice, _show_step(case, mine))
        return out + (default_window(judge, case, mine) if out and window and not case.args else "")

    return text


def default_window(judge: Judge, case: Case, mine: Run) -> str:
    """A line for a case called as ``alphabeta_value(game, state)``: when the student's search, called with
    alpha=-inf and beta=inf given, takes the expected steps and returns the expected value, the difference comes
    from the window it takes when none is given (its default arguments). Empty otherwise."""
    try:
        full = kit.run_student(judge.student, replace(case, args=(-math.inf, math.inf)))
    except common.CheckFailed:
        return ""
    want = judge.want(case)
    if not common.same(full.result, want.result) or full.steps() != want.steps():
        return ""
    return (f"\nThis case calls alphabeta_value(game, state), without alpha and beta. Called as "
            f"alphabeta_value(game, state, -math.inf, math.inf), yours takes the correct steps and returns "
            f"{explainer.num(full.result)}: the difference comes from the window your search starts from when the "
            "caller gives none (its default arguments; the course's are alpha=-math.inf, beta=math.inf).")


def _value_judge(group: str, alphabeta_value: Callable[..., Any], cases: list[Case]) -> Judge:
    return make_judge(group, alphabeta_value, cases, partial(value_profile, alphabeta_value))


# -- the groups of alphabeta_value ------------------------------------------------------------

def check_value(alphabeta_value: Callable[..., Any]) -> int:
    """Values with the full window on trees and positions, as numbers, from the root player's view."""
    todo = data.cases("value")
    judge = _value_judge("value", alphabeta_value, todo)
    answers = [kit.answer(alphabeta_value, case) for case in todo]  # only the value counts here

    def compare() -> None:
        for case, answer in zip(todo, answers):
            want = judge.want(case)
            if common.is_number(answer) and common.same(answer, want.result):
                judge.passes(case)
                continue
            mine = run_student(alphabeta_value, case)
            advice = ("The value is from the point of view of the player to move in `state` "
                      "(game.to_move(state)): MAX nodes take the largest child value, MIN nodes the smallest.")
            if not common.is_number(mine.result):
                advice = "alphabeta_value returns a number: the value of `state`, not a move."
            hint = _hint(judge, case, mine, advice, window=True)
            if not common.is_number(mine.result):
                common.fail(f"alphabeta_value on {case.name} should return a number (int or float), but it "
                            f"returned {type(mine.result).__name__}: {mine.result!r:.80}", hint())
            compare_result("alphabeta_value", case, mine.result, want.result, hint, mine, judge.note)
            judge.passes(case, mine)

    return judged(judge, compare)


def walk_problems(case: Case, run: Run, recorder: Recorder | None = None) -> list[tuple[str, str]]:
    """How the search broke the depth-first walk: (kind, what happened), in order.

    Children must be generated one at a time, in actions() order, each once, each one
    searched before the next is generated; each leaf valued once, when it is reached;
    utility() only on terminal states. is_terminal() and to_move() calls are free.
    """
    game, name = case.game, namer(case, run)
    # the open path: (node id, state); ids are action paths, so transpositions stay apart
    path: list[tuple[tuple, Any]] = [((), case.state)]
    next_index: dict[tuple, int] = {}
    done: set[tuple] = set()
    evaluated: set[tuple] = set()
    for e in run.trace.events("generate", "utility", "evaluate"):
        if e.kind == "generate":
            at = next((i for i in range(len(path) - 1, -1, -1) if path[i][1] == e.parent), None)
            if at is None:
                return [("eager", f"it generated {name(e.node)} from {name(e.parent)}, a node it had "
                                  "already left: children were generated before being searched")]
            del path[at + 1:]
            pid, pstate = path[at]
            acts = list(game.actions(pstate))
            i = next_index.get(pid, 0)
            child = pid + (e.action,)
            if child in done:
                return [("twice", f"it generated {name(e.node)} (child of {name(e.parent)}) twice")]
            if i >= len(acts) or acts[i] != e.action:
                expected = name(game.result(pstate, acts[i])) if i < len(acts) else "nothing more"
                return [("order", f"at {name(e.parent)} it generated {name(e.node)} (action {e.action!r}) when "
                                  f"the next child in actions() order was {expected}")]
            next_index[pid] = i + 1
            done.add(child)
            path.append((child, e.node))
        else:
            top_id, top_state = path[-1]
            if top_state != e.node:
                return [("eager", f"it evaluated {name(e.node)} after generating {name(top_state)}: "
                                  "children were generated before being searched")]
            if top_id in evaluated:
                return [("twice", f"it evaluated {name(e.node)} twice")]
            evaluated.add(top_id)
    for state in (recorder.attempts if recorder is not None else []):
        if not game.is_terminal(state):
            return [("internal", f"it called utility() on {name(state)}, which is not a terminal "
                                 "state (the error this raises was caught)")]
    return []


def check_children(alphabeta_value: Callable[..., Any]) -> int:
    """Children made one at a time in actions() order, each once; leaves valued once; utility only at the end."""
    todo = data.cases("children")
    judge = _value_judge("children", alphabeta_value, todo)

    def compare() -> None:
        for case in todo:
            recorder = Recorder(case.game)
            mine, want = run_student(alphabeta_value, case, recorder), judge.want(case)
            if judge.expected.returns == "value":
                common.expect_number(mine.result, f"alphabeta_value on {case.name}")
                compare_result("alphabeta_value", case, mine.result, want.result,
                               lambda: "this test looks at how your search walks the tree, but the value must be "
                                       "right too", mine)
            if not mine.trace.leaves() and not case.game.is_terminal(case.state):
                common.fail(f"On {case.name} your alphabeta_value evaluated no leaf at all: a search has to "
                            "reach terminal states and take their utility.")
            problems = walk_problems(case, mine, recorder)
            if problems:
                kind, what = problems[0]
                hint = (f"Seen in the trace: {INTERNAL}" if kind == "internal"
                        else _hint(judge, case, mine, WALK, window=True)())
                common.fail(f"On {case.name} your search broke the depth-first walk: {what}.", hint,
                            kit.picture(case, mine))
            got, expected = mine.trace.generated(), want.trace.generated()
            if got != expected:
                name_got, name_want = namer(case, mine), namer(case, want)
                raise common.CheckFailed(common.sequence_message(
                    "The children your search generated with game.result (in order)",
                    [name_want(n) for n in expected], [name_got(n) for n in got], f"on {case.name}",
                    kit.picture(case, mine), _hint(judge, case, mine, UNSEARCHED, window=True)()) + judge.note)
            judge.passes(case, mine)

    return judged(judge, compare)


#: The rule that decides a window case's result when the steps are right.
FAIL_SOFT = ("The rule that decides the result here: fail-soft, a node returns v, the value it found, on a cut-off and "
             "after its last child, even when v is outside its window.")


def outside_returns(case: Case, flags: ref.Flags, mine: Run, want: Run) -> str:
    """For a search that took the correct steps but returned another value: the first node of the correct search
    (the model with `flags`) that stops at a cut-off, and the first that ends after its last child, with v outside
    the window it was given, where fail-soft returns v and fail-hard the bound. Empty when there is none."""
    if mine.steps() != want.steps():
        return ""
    log = ref.returns(case.game, case.state, *case.args, flags=flags)
    name = namer(case, mine)
    firsts = [next((r for r in log if r.how == how and not r.alpha <= r.v <= r.beta), None) for how in ("end", "cut")]
    out = []
    for r in sorted((r for r in firsts if r is not None), key=log.index):
        below = r.v < r.alpha
        bound, value = ("alpha", r.alpha) if below else ("beta", r.beta)
        v = explainer.num(r.v)
        window = f"window ({explainer.num(r.alpha)}, {explainer.num(r.beta)})"
        if r.how == "end":
            what = (f"The first node that ends after all its children with v outside its window is {name(r.node)} "
                    f"({'MAX' if r.maxing else 'MIN'}, {window}): v = {v} {'<' if below else '>'} {bound} = "
                    f"{explainer.num(value)}")
        else:
            what = (f"The first node that stops at a cut-off with v outside its window is {name(r.node)} "
                    f"({'MAX' if r.maxing else 'MIN'}, {window}): after {name(r.child)} = {explainer.num(r.w)}, "
                    f"v = {v} {'<=' if below else '>='} {bound} = {explainer.num(value)}, so it stops")
        out.append(f"{what}, and it returns v = {v}, not {bound} = {explainer.num(value)}.")
    return f"In the correct search, t{' '.join(out)[1:]}" if out else ""


def _leaves_group(group: str, alphabeta_value: Callable[..., Any], advice: str, values: bool = False) -> int:
    """Compare the leaves evaluated, in order (and with `values` the values), case by case; in the window group,
    a search that took the correct steps also hears where the correct search returned v outside a window."""
    todo = data.cases(group)
    judge = _value_judge(group, alphabeta_value, todo)

    def case_hint(case: Case, mine: Run) -> Callable[[], str]:
        def text() -> str:
            extra = outside_returns(case, judge.expected, mine, judge.want(case)) if group == "window" else ""
            return _hint(judge, case, mine, f"{FAIL_SOFT} {extra}" if extra else advice, window=True)()

        return text

    def compare() -> None:
        for case in todo:
            mine, want = run_student(alphabeta_value, case), judge.want(case)
            hint = case_hint(case, mine)
            if values and judge.expected.returns == "value":
                common.expect_number(mine.result, f"alphabeta_value on {case.name}")
                compare_result("alphabeta_value", case, mine.result, want.result, hint, mine, judge.note)
            compare_leaves("your alphabeta_value", case, mine, want, hint, judge.note)
            judge.passes(case, mine)

    return judged(judge, compare)


def check_pruning(alphabeta_value: Callable[..., Any]) -> int:
    """The leaves evaluated, in order, with the full window: the cut-offs alpha-beta makes."""
    return _leaves_group("pruning", alphabeta_value, "Alpha-beta prunes a child as soon as the node's value reaches "
                                                     "the bound: compare your search with the course's, cut by cut.")


def check_equality(alphabeta_value: Callable[..., Any]) -> int:
    """Ties at the cut prune (v >= beta at MAX, v <= alpha at MIN)."""
    return _leaves_group("equality", alphabeta_value, "The course prunes on a tie: at a MAX node stop as soon as "
                                                      "v >= beta, at a MIN node as soon as v <= alpha.")


def check_deep(alphabeta_value: Callable[..., Any]) -> int:
    """Deep cut-offs: a bound set two or more levels up still cuts."""
    return _leaves_group("deep", alphabeta_value, "A node passes on BOTH bounds it received (updated): a bound set "
                                                  "by a grandparent or higher still cuts.")


def check_window(alphabeta_value: Callable[..., Any]) -> int:
    """alpha and beta given by the caller: the window is used, and values are fail-soft."""
    return _leaves_group("window", alphabeta_value, "The rules that decide the result here: the course's alpha-beta "
                                                    "starts from the caller's alpha and beta, starts v at -inf at a "
                                                    "MAX node and +inf at a MIN node, and returns v, the value found, "
                                                    "on a cut-off and at the end (fail-soft).", values=True)


# -- the groups of alphabeta_decision -----------------------------------------------------------

def _decision_judge(group: str, alphabeta_decision: Callable[..., Any], alphabeta_value: Callable[..., Any] | None,
                    cases: list[Case]) -> Judge:
    vprofile: list[ref.Flags | None] = []

    def value_side() -> ref.Flags | None:
        if not vprofile:
            vprofile.append(value_profile(alphabeta_value) if alphabeta_value is not None else None)
        return vprofile[0]

    return make_judge(group, alphabeta_decision, cases,
                 lambda evidence: decision_profile(alphabeta_decision, value_side(), evidence), value_side)


def own_decision(alphabeta_value: Callable[..., Any]) -> Callable[..., Any]:
    """The lab's decision written over the student's OWN alphabeta_value: each root move's value for the opponent,
    asked with the mirrored window (-inf, -alpha), negated; the first best move."""

    def decide(game: Any, state: Any) -> Any:
        best, alpha = None, -math.inf
        for a in game.actions(state):
            v = -alphabeta_value(game, game.result(state, a), -math.inf, -alpha)
            if best is None or v > alpha:
                best, alpha = a, v
        return best

    return decide


def _fails_alike(alphabeta_decision: Callable[..., Any], model: Callable[..., Any], case: Case) -> bool:
    """True when the student's decision raises on `case` the error the lab's decision over the student's own
    alphabeta_value raises there (its type and words), after the same ordered steps."""
    mine, want = Traced(case.game), Traced(case.game)
    try:
        common.call(alphabeta_decision, mine, case.state, *case.args, where=f"on {case.name}")
        return False
    except common.CheckFailed as failed:
        said = str(failed)
    try:
        model(want, case.state, *case.args)
        return False
    except Exception as error:  # noqa: BLE001 - the student's alphabeta_value may raise anything
        same_error = f" raised {type(error).__name__}: {error} on {case.name}" in said
    return same_error and Run(None, mine).steps() == Run(None, want).steps()


def _own_value_explains(alphabeta_decision: Callable[..., Any], alphabeta_value: Callable[..., Any] | None,
                        todo: list[Case]) -> bool:
    """True when the decision does, on every case of the group, exactly what the lab's decision does over the
    student's own alphabeta_value (the same ordered steps, the same move, or the same error): the difference from
    the correct search is then a mistake of alphabeta_value, graded by its own groups, not here."""
    if alphabeta_value is None:
        return False
    model = own_decision(alphabeta_value)
    for case in todo:
        try:
            mine = run_student(alphabeta_decision, case)
        except common.CheckFailed:
            if _fails_alike(alphabeta_decision, model, case):
                continue
            return False
        want = kit.run_model(model, case)
        if want is None or not common.same(mine.result, want.result) or mine.steps() != want.steps():
            return False
    return True


def _decision_group(todo: list[Case], alphabeta_decision: Callable[..., Any],
                    alphabeta_value: Callable[..., Any] | None, judge: Judge, compare: Callable[[], None]) -> int:
    """`judged`, except that a decision which is the lab's decision over the student's own alphabeta_value passes."""
    try:
        return judged(judge, compare)
    except common.CheckFailed:
        if _own_value_explains(alphabeta_decision, alphabeta_value, todo):
            return len(todo)
        raise


def root_values(case: Case, mine: Run) -> str:
    """Each root move's correct value for the player to move at the root, the move the first-best rule keeps, and
    what the student's trace shows of its own values (`_own_searches`), and the move it returned."""
    game, state = case.game, case.state
    p = game.to_move(state)
    moves = [(a, game.result(state, a)) for a in game.actions(state)]
    worth = [(a, c, ref.search_value(game, c, -math.inf, math.inf, p, ref.CORRECT)) for a, c in moves]
    best = None
    for a, _, v in worth:
        if best is None or v > best[1]:
            best = (a, v)
    name = namer(case, mine)
    tree = case.is_tree

    def listed(values: list) -> str:
        return ", ".join(f"{action_text(a)}{' (' + name(c) + ')' if tree else ''}: {explainer.num(v)}"
                         for a, c, v in values)

    where = f" {name(state)}" if tree else ""
    lines = [f"The root{where} ({p} to move): the correct decision's moves are worth, for {p}, {listed(worth)}; "
             f"it keeps the first best, {action_text(best[0])}."]
    own = _own_searches(case, mine)
    if own is not None:
        q, values = own
        there = ", the player to move there," if all(game.is_terminal(c) or game.to_move(c) == q for c in values) else ""
        lines.append(f"Below each root move, yours took exactly the steps of the correct alpha-beta search of that "
                     f"child alone for {q}{there} with the full window (-inf, inf); those "
                     f"searches find, for {q}: {listed([(a, c, values[c]) for a, c, _ in worth if c in values])}.")
    got = [v for a, _, v in worth if common.same(a, mine.result)]
    lines.append(f"Yours returned {mine.result!r:.60}" + (f" (worth {explainer.num(got[0])} for {p})." if got else "."))
    return "\n".join(lines)


def check_decision(alphabeta_decision: Callable[..., Any], alphabeta_value: Callable[..., Any] | None = None) -> int:
    """The first best action in actions() order, as an action, for either player."""
    todo = data.cases("decision")
    judge = _decision_judge("decision", alphabeta_decision, alphabeta_value, todo)
    answers = [kit.answer(alphabeta_decision, case) for case in todo]  # only the move counts here

    def compare() -> None:
        for case, answer in zip(todo, answers):
            want = judge.want(case)
            if answer is not kit.NO_ANSWER and (common.same(answer, want.result) or judge.right_anyway(case, answer)):
                judge.passes(case)
                continue
            mine = run_student(alphabeta_decision, case)
            legal = case.game.actions(case.state)
            advice = "Keep the first best action in actions() order (change it only on a strictly better value)."
            if not any(common.same(mine.result, a) for a in legal):
                advice = f"alphabeta_decision returns one of game.actions(state): here {legal!r:.100}."
            hint = _hint(judge, case, mine, advice)
            compare_result("alphabeta_decision", case, mine.result, want.result,
                           partial(_with_root, hint, case, mine), mine, judge.note)
            judge.passes(case, mine)

    return _decision_group(todo, alphabeta_decision, alphabeta_value, judge, compare)


def _own_searches(case: Case, mine: Run) -> tuple[Any, dict] | None:
    """When the student's decision searched every root move it made as the correct alpha-beta search of that child
    alone, with the full window, for one player other than the root's (the steps below each child are those of
    that search): that player and each child's value for it. None otherwise."""
    game, state = case.game, case.state
    events = mine.trace.events(*kit.STEPS)
    parent = {e.node: e.parent for e in events if e.kind == "generate"}
    below: dict = {}  # root child -> the student's steps below it, in order
    for e in events:
        node = e.node if e.kind != "generate" or e.parent != state else None
        while node is not None and parent.get(node) not in (state, None):
            node = parent[node]
        if node is not None and parent.get(node) == state:
            below.setdefault(node, []).append((e.kind, e.node))
    players = {e.player for e in events if e.kind == "utility"}
    if not below or len(players) != 1 or players == {game.to_move(state)}:
        return None
    q, values = players.pop(), {}
    for child, got in below.items():
        traced = Traced(game)
        values[child] = ref.search_value(traced, child, -math.inf, math.inf, q, ref.CORRECT)
        if got != [(e.kind, e.node) for e in traced.trace.events(*kit.STEPS)]:
            return None
    return q, values


def _with_root(hint: Callable[[], str], case: Case, mine: Run) -> str:
    """A decision's hint led by the root moves' values (`root_values`); the hint alone when they cannot be told."""
    text = hint()
    if not text:
        return text
    try:
        return root_values(case, mine) + "\n" + text
    except Exception:  # noqa: BLE001 - an explanation must never hide the failure itself
        return text


def check_decision_pruning(alphabeta_decision: Callable[..., Any],
                           alphabeta_value: Callable[..., Any] | None = None) -> int:
    """The decision prunes too: the best value so far goes down as alpha to the next root move."""
    todo = data.cases("decision_pruning")
    judge = _decision_judge("decision_pruning", alphabeta_decision, alphabeta_value, todo)

    def compare() -> None:
        for case in todo:
            mine, want = run_student(alphabeta_decision, case), judge.want(case)
            compare_leaves("your alphabeta_decision", case, mine, want,
                           _hint(judge, case, mine, "Search each root move with (alpha, +inf), alpha the best value "
                                                    "so far, so that later root moves are pruned."), judge.note)
            judge.passes(case, mine)

    return _decision_group(todo, alphabeta_decision, alphabeta_value, judge, compare)


#: Each group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {group: (partial(data.public, group), ref.model(group, ref.CORRECT)) for group in ref.HOME}
