"""The checks kit: what every lab's hidden tests share (grader only).

- `Case`: one search to run, as data: a stable id (what golden files and reports use),
  the name a student reads, the game, the start state and the arguments after them.
- `run_student` / `run_model`: a function run on a traced copy of the case's game, as a
  `Run` (its result and the trace of what it did); `answer`: the student's answer alone, on
  the case's own game (no call comes back over the channel), for groups that grade only that.
- `where`, `Mistake` and `explain`: a hint says where the student's search first leaves the
  correct one, what the correct search held there, the rule and what theirs did
  (`explainer`); then it names a known mistake only when that mistake's model, run on the
  same cases, reproduces what the student's search did (the same ordered steps, the same
  result).
- `namer` / `picture`: how nodes and cases are shown in messages.
- `rngs` / `playout`: seeded cases (public ones fixed, secret ones drawn from the
  instructor's ``COURSE_SECRET_SEED``).

A lab's room (``checks/labNN/``) holds its ``reference.py`` (the correct model and every
mistake model), ``cases.py`` (its cases as data) and ``groups.py`` (one small function per
test group, ``check_<group>``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Sequence

from course_lib.annotations import action_text  # an action as the figures write it, in paths too
from course_lib.clock import NodeBudget
from course_lib.games import Game, GameTree
from course_lib.trace import Traced

from . import common, explainer

#: The events that say what a search did (`is_terminal`, `to_move` and `actions` calls are free).
STEPS = ("generate", "utility", "evaluate")


@dataclass(frozen=True)
class Case:
    """One search to run: ``fn(game, state, *args)``; `id` is stable, `name` is what a student reads."""

    id: str
    name: str
    game: Any
    state: Any
    args: tuple = ()

    @property
    def is_tree(self) -> bool:
        return isinstance(self.game, GameTree)


class PlainGame(Game):
    """The grader's traced game handed over as a plain game, not a `Traced` one: a `NodeBudget` counts its states
    only when the search plays on ``clock.watch(game)``. Every call goes on to the traced game, which records it."""

    def __init__(self, traced: Traced):
        self._traced = traced
        self.initial, self.players = traced.initial, traced.players

    def to_move(self, state: Any) -> Any:
        return self._traced.to_move(state)

    def actions(self, state: Any) -> list:
        return self._traced.actions(state)

    def result(self, state: Any, action: Any) -> Any:
        return self._traced.result(state, action)

    def is_terminal(self, state: Any) -> bool:
        return self._traced.is_terminal(state)

    def utility(self, state: Any, player: Any) -> Any:
        return self._traced.utility(state, player)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._traced, name)


class AskedBudget(NodeBudget):
    """The grader's `NodeBudget`, which also counts how often it is asked: asked more than `asks` times, it answers
    expired, so a search that only its clock would stop (one that ignores its iterations, on a tree it completes
    before the budget is spent) stops there instead of running for ever."""

    def __init__(self, nodes: int, asks: int):
        super().__init__(nodes)
        self.asks, self.asked = asks, 0

    def expired(self) -> bool:
        self.asked += 1
        return self.asked > self.asks or super().expired()


@dataclass
class Run:
    """What one function did on a case: its result and the traced game it ran on."""

    result: Any
    game: Traced

    @property
    def trace(self) -> Any:
        return self.game.trace

    def steps(self, *kinds: str) -> list[tuple[str, Hashable]]:
        """(kind, node) of the events of `kinds` (by default `STEPS`), in order."""
        return [(e.kind, e.node) for e in self.trace.events(*(kinds or STEPS))]


def run_student(fn: Callable[..., Any], case: Case, *, game: Any = None) -> Run:
    """Call the student's function on a traced copy of the case; an error becomes a message naming it."""
    traced = Traced(case.game if game is None else game)
    result = common.call(fn, traced, case.state, *case.args, where=f"on {case.name}")
    return Run(result, traced)


NO_ANSWER = object()


def answer(fn: Callable[..., Any], case: Case) -> Any:
    """The student's answer on the case's own, untraced game (`NO_ANSWER` when it raised).

    For groups that grade only an answer: over the grader's channel a course game then crosses
    by value and the search runs in the kernel without a call coming back. A wrong answer is
    looked at again with `run_student`, whose traced run decides and explains.
    """
    try:
        return common.call(fn, case.game, case.state, *case.args)
    except common.CheckFailed:
        return NO_ANSWER


def run_model(model: Callable[..., Any], case: Case) -> Run | None:
    """Run a grader's model on a traced copy of the case (None when the model cannot run there)."""
    traced = Traced(case.game)
    try:
        return Run(model(traced, case.state, *case.args), traced)
    except Exception:  # noqa: BLE001 - a mistake model that fails on a case reproduces nothing there
        return None


# -- mistakes, shown by their models ----------------------------------------------------------------

@dataclass(frozen=True)
class Mistake:
    """A known mistake: its key (bank entries and reports name it), its hint and its model.

    The model has the graded function's signature and does what a search with that
    mistake does, step for step.
    """

    key: str
    hint: str
    model: Callable[..., Any]


def reproduces(model: Callable[..., Any], case: Case, seen: Run,
               steps: Callable[[Run], list] = Run.steps) -> bool:
    """True when `model` on `case` returns the same result by the same ordered steps as `seen`."""
    run = run_model(model, case)
    return run is not None and common.same(seen.result, run.result) and steps(run) == steps(seen)


def shown(mistakes: Iterable[Mistake], observed: Sequence[tuple[Case, Run]],
          steps: Callable[[Run], list] = Run.steps) -> list[Mistake]:
    """The mistakes whose models reproduce every (case, run) observed, in their order."""
    return [m for m in mistakes if all(reproduces(m.model, c, r, steps) for c, r in observed)]


def observe(fn: Callable[..., Any], cases: Iterable[Case]) -> list[tuple[Case, Run]]:
    """The student's runs on further `cases`, to test a mistake model on more than one case (a case
    where the student's code raises is left out: it proves nothing either way)."""
    out = []
    for case in cases:
        try:
            out.append((case, run_student(fn, case)))
        except common.CheckFailed:
            continue
    return out


def join_hints(hints: Sequence[str]) -> str:
    """One hint, or several mistakes that all reproduce what the search did, one per line."""
    if len(hints) <= 1:
        return "".join(hints)
    return "each of these mistakes does exactly what your search did:\n" + "\n".join(f"  - {h}" for h in hints)


def known_line(named: Sequence[Mistake], cases: int) -> str:
    """The line naming the mistakes whose models reproduce all `cases` cases of the group seen."""
    seen = f"all {cases} cases" if cases > 1 else "this case"
    if len(named) == 1:
        return f"Known mistake (its model reproduces {seen}): {named[0].hint}"
    return f"Known mistakes (each model reproduces {seen}):\n" + "\n".join(
        f"  - {m.hint}" for m in named)


#: A decision whose steps agree but whose move differs: ``choice(case, mine, want, name)`` explains the root's choice.
Choice = Callable[[Case, Run, Run, Callable[[Hashable], str]], "str | None"]

#: How a lab writes down the correct run of a case as notes (`explainer.Note`); None: from the model's trace.
Notes = Callable[[Case], "list[explainer.Note] | None"]


def where(case: Case, mine: Run, correct: Callable[..., Any], *, steps: Callable[[Run], list] = Run.steps,
          notes: Notes | None = None, descent: Callable[[Case], explainer.Descent | None] | None = None,
          generic: bool = True, choice: Choice | None = None, players: bool = False) -> str | None:
    """Where the student's run first leaves the correct one, what the correct search held there, the rule and what
    theirs did (HINTS.md); None when nothing can be said. Without `notes` of its own (or `generic` False, for a
    search whose steps mean more than a depth-first walk), a case is annotated from the correct model's trace.
    With `players`, a leaf whose utility was asked for another player, before any step differs, comes first."""
    want = run_model(correct, case)
    if want is None:
        return None
    name = namer(case, mine, want)
    annotated = notes(case) if notes is not None else None
    if annotated is None or [n.step for n in annotated if n.step is not None] != steps(want):
        if not generic or any(len(step) != 2 or step[0] not in explainer.VERBS for step in steps(want)):
            return None  # steps other than a depth-first walk's (a lab's own) are explained by the lab
        annotated = explainer.annotate(case.game, case.state, want.trace.events(*STEPS), steps(want))
    text = None
    if players and steps is Run.steps:
        try:
            text = explainer.first_wrong_leaf(case.name, case.game, case.state, annotated, want.trace.events(*STEPS),
                                              mine.trace.events(*STEPS), name)
        except Exception:  # noqa: BLE001 - an explanation must never hide the failure itself
            text = None
    try:
        text = text or explainer.first_wrong_step(case.name, case.game, annotated, steps(mine), name)
    except Exception:  # noqa: BLE001 - an explanation must never hide the failure itself
        text = None
    if text is None and descent is not None and not common.same(mine.result, want.result):
        d = descent(case)
        if d is not None:
            try:
                text = explainer.first_wrong_value(case.name, case.game, case.state, mine.result, d, name)
            except Exception:  # noqa: BLE001
                text = None
    if text is None and choice is not None and not common.same(mine.result, want.result):
        try:
            text = choice(case, mine, want, name)
        except Exception:  # noqa: BLE001
            text = None
    return text


def explain(case: Case, mine: Run, correct: Callable[..., Any], mistakes: Iterable[Mistake], *,
            history: Sequence[tuple[Case, Run]] = (), steps: Callable[[Run], list] = Run.steps,
            show_step: Callable[[Any], str] = str, advice: str = "", notes: Notes | None = None,
            descent: Callable[[Case], explainer.Descent | None] | None = None, generic: bool = True,
            choice: Choice | None = None) -> str:
    """The hint for a run that differs from the correct model's on `case`: the first wrong step (`where`), then a
    known mistake only when its model reproduces this run and every run of `history` (the same group's other
    cases on this submission). When no step can be shown, `advice`."""
    observed = [(case, mine), *history]
    named = shown(mistakes, observed, steps)
    return compose(where(case, mine, correct, steps=steps, notes=notes, descent=descent, generic=generic,
                         choice=choice), named,
                   len(observed),
                   advice, case, mine, correct, steps, show_step)


#: Said when no mistake is named: a fact about the models (the code may still make a known mistake in a way no
#: model of this group reproduces). The class report counts it as unexplained (`grading.misconceptions`).
NO_MODEL = "No known mistake's model gives your results on every case of this test."


def compose(text: str | None, named: Sequence[Mistake], cases: int, advice: str, case: Case, mine: Run,
            correct: Callable[..., Any], steps: Callable[[Run], list], show_step: Callable[[Any], str]) -> str:
    """The first wrong step (or, without one, `advice`), then the known mistakes named."""
    if text is None:
        text = _fallback(case, mine, correct, steps, show_step)
        text += ("" if named else f" {NO_MODEL}") + (f" {advice}" if advice else "")
    return text + ("\n" + known_line(named, cases) if named else "")


def _fallback(case: Case, mine: Run, correct: Callable[..., Any], steps: Callable[[Run], list],
              show_step: Callable[[Any], str]) -> str:
    want = run_model(correct, case)
    if want is None:
        return f"{case.name}: your search differs from the correct one."
    exp, got = steps(want), steps(mine)
    i = common.first_difference(exp, got)
    if i is None:
        return (f"{case.name}: your search took the same steps as the correct one, in the same order, but "
                "returned another result.")
    e = show_step(exp[i]) if i < len(exp) else "nothing more"
    g = show_step(got[i]) if i < len(got) else "nothing more"
    return (f"{case.name}: your search first differs from the correct one at step {i + 1}: the correct one did {e}, "
            f"yours {g}.")


# -- messages ----------------------------------------------------------------------------------------

def path_namer(start: Hashable, traces: Iterable[Any]) -> Callable[[Hashable], str]:
    """Names nodes by the moves leading to them from `start` (``root``, ``4/0``), as the traces generated
    them; a node generated more than once keeps its first path, a node never generated is ``?``."""
    paths: dict[Hashable, tuple] = {start: ()}
    for trace in traces:
        for e in trace.events("generate"):
            paths.setdefault(e.node, paths.get(e.parent, ("?",)) + (e.action,))

    def name(node: Hashable) -> str:
        path = paths.get(node)
        if path is None:
            return "?"
        return "/".join(action_text(a) for a in path) if path else "root"

    return name


def example_path(game: Any, state: Any) -> str:
    """A path two moves deep from `state`, to show students how paths are written.

    >>> from course_lib.games import RaceTo
    >>> example_path(RaceTo(10, 3), RaceTo(10, 3).initial)
    '1/1'
    """
    acts = game.actions(state)
    if not acts:
        return "root"
    more = game.actions(game.result(state, acts[0]))
    return "/".join(action_text(a) for a in [acts[0], *more[:1]])


def tree_picture(game: Any) -> str:
    """A drawing of an explicit tree alone (empty for other games and for trees of more than 60 nodes)."""
    if not isinstance(game, GameTree) or len(game.nodes()) > 60:
        return ""
    from course_lib.ascii import ascii_tree

    return ascii_tree(game)


def namer(case: Case, *runs: Run) -> Callable[[Hashable], str]:
    """How a node is written in messages: its name in a tree, the moves leading to it in a game."""
    if case.is_tree:
        return str
    return path_namer(case.state, [run.trace for run in runs])


def is_hidden(case: Case) -> bool:
    """A case drawn from the secret seed: its feedback shows the first wrong step's neighbourhood only."""
    return case.id.startswith("secret")


def expected_text(case: Case, want: Any) -> str:
    """``expected <answer>`` on a public case; on a hidden one the answer is not shown (the hint gives the first
    wrong step and its neighbourhood)."""
    return "its correct answer is not shown (a hidden case)" if is_hidden(case) else f"expected {want!r}"


def picture(case: Case, run: Run | None = None, max_lines: int = 45) -> str:
    """The tree drawn with what `run` did (small trees only), or the position with how paths are written."""
    if not case.is_tree:
        return (f"(nodes are written as the moves from this position, for example "
                f"{example_path(case.game, case.state)})\n{case.game.display(case.state)}")
    tree = case.game
    if len(tree.nodes()) > max_lines:
        return ""
    from course_lib.ascii import ascii_tree

    root = None if case.state == tree.initial else case.state
    if is_hidden(case):
        run = None  # a hidden case is drawn bare: the values a search finds there are its answers
    try:
        drawn = ascii_tree(tree, run.trace if run is not None else None, max_lines=max_lines, root=root)
    except Exception:  # noqa: BLE001 - a drawing must never hide the real message
        return ascii_tree(tree, max_lines=max_lines, root=root)
    return drawn if run is None else f"{YOUR_RUN}\n{drawn}"


#: The first line of a drawing of the tree with what the student's search did on it: its steps are drawn as they
#: were, while the values, bounds and chosen move shown are worked out from them (`course_lib.search_annotations`),
#: not read from what the student's code returned (a fail-hard search's 13 is drawn as the 12 its leaves give).
YOUR_RUN = ("(drawn from YOUR run's steps: the nodes it made and the leaves it valued, numbered in its order; the "
            "values, bounds and chosen move are worked out from those leaves by the lab's rules, not taken from what "
            "your code returned)")


# -- seeded cases -----------------------------------------------------------------------------------

def rngs(lab: str, group: str, public: int, secret: int) -> list[tuple[str, random.Random, int]]:
    """(id prefix, generator, how many) for the public seeded cases, and the secret ones when a seed is set."""
    out = [("random", common.rng(lab, group), public)]
    if common.has_secret():
        out.append(("secret", common.rng(lab, group, secret=True), secret))
    return out


def seeded(lab: str, group: str, public: int, secret: int,
           make: Callable[[random.Random, str, str], Case]) -> list[Case]:
    """Cases drawn by ``make(rng, id, name)``: ids ``random-1, ...`` then ``secret-1, ...``."""
    out = []
    for prefix, rng, count in rngs(lab, group, public, secret):
        label = "random case" if prefix == "random" else "secret random case"
        out += [make(rng, f"{prefix}-{i + 1}", f"{label} #{i + 1}") for i in range(count)]
    return out


def _case_of(item: Any) -> Case | None:
    """The case an item of a built list is about: a `Case`, or a tuple whose first item is one."""
    if isinstance(item, Case):
        return item
    if isinstance(item, tuple) and item and isinstance(item[0], Case):
        return item[0]
    return None


def drawn_order(items: Any) -> Any:
    """In a self-check (`common.is_selfcheck`), a list of cases with the ones drawn for this check (`is_hidden`)
    moved first, each part in its own order; anything else, or outside a self-check, as it is (the same object)."""
    if not common.is_selfcheck() or not isinstance(items, list):
        return items
    drawn = [x for x in items if (c := _case_of(x)) is not None and is_hidden(c)]
    if not drawn:
        return items
    return drawn + [x for x in items if not ((c := _case_of(x)) is not None and is_hidden(c))]


class DrawnFirst:
    """A lab's case module as its groups see it (``data = kit.DrawnFirst(cases)``): every function's list of cases
    comes back through `drawn_order`, so in a self-check a group meets the cases drawn for this check before the
    final grading's fixed ones, and stops at a difference there first. Outside a self-check every list is the
    module's own, untouched; names that are not functions (and dicts of them, as ``CASES``) are looked up as they
    are, the functions in a dict wrapped alike."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._module, name)
        if isinstance(value, dict) and value and all(callable(v) for v in value.values()):
            return {k: self._wrap(v) for k, v in value.items()}
        return self._wrap(value) if callable(value) and not isinstance(value, type) else value

    @staticmethod
    def _wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def ordered(*args: Any, **kwargs: Any) -> Any:
            return drawn_order(fn(*args, **kwargs))

        ordered.__name__ = getattr(fn, "__name__", "ordered")
        ordered.__doc__ = fn.__doc__
        return ordered


def playout(game: Any, rng: random.Random, plies: int, start: Any = None) -> Any:
    """A non-terminal state `plies` random moves after `start` (retrying when the game ends early)."""
    first = game.initial if start is None else start
    for _ in range(200):
        s = first
        for _ in range(plies):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        if not game.is_terminal(s):
            return s
    raise RuntimeError("no non-terminal position found (a grader set-up problem)")


# -- a group's judge: the correct model first, the submission's profile only after a difference ------

@dataclass
class Judge:
    """One test group on one submission: what it expects now, and what it saw so far.

    A group compares with the correct model first (`expected` starts as the correct search's key,
    for example a lab's ``Flags()``). Only at a first difference does `settle` ask `profiler` for
    what to expect instead: the submission's own profile of known mistakes with those of this group
    put right, so a mistake graded by another group costs no points here; a correct submission never
    pays for the probes. `profiler(evidence)` adds the student's runs on its probes to `evidence`,
    which then proves hints too. `model(expected)` is the model to compare with, `mistakes(expected)`
    the group's mistake models in tiers (a later tier is named only when no earlier one is), `note`
    a line under an expectation that keeps other mistakes.
    """

    student: Callable[..., Any]
    cases: list[Case]
    expected: Any
    model: Callable[[Any], Callable[..., Any]]
    mistakes: Callable[[Any], Sequence[Sequence[Mistake]]]
    profiler: Callable[[list], Any]
    note_for: Callable[[Any], str] = lambda expected: ""
    proof_cases: int = 6
    notes: Notes | None = None
    descent: Callable[[Case], "explainer.Descent | None"] | None = None
    choice: Choice | None = None
    players: bool = False        # a leaf valued for another player is the first wrong step (`where`)
    found: dict = field(default_factory=dict)  # what a group's profiler found, kept for its own messages
    settled: bool = False
    note: str = ""
    passed: list = field(default_factory=list)
    evidence: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.correct = self.expected

    def right_anyway(self, case: Case, result: Any) -> bool:
        """`result` is the correct search's answer on `case`, though the expectation keeps other mistakes (a
        profile found on a few probes need not describe every case: a right answer is never a wrong one)."""
        if self.expected == self.correct or result is NO_ANSWER:
            return False
        run = run_model(self.model(self.correct), case)
        return run is not None and common.same(result, run.result)

    def settle(self) -> None:
        self.expected = self.profiler(self.evidence)
        self.note, self.settled, self.passed = self.note_for(self.expected), True, []

    def want(self, case: Case) -> Run:
        run = run_model(self.model(self.expected), case)
        if run is None:
            raise RuntimeError(f"the expected model fails on case {case.id} (a grader set-up problem)")
        return run

    def passes(self, case: Case, run: Run | None = None) -> None:
        """`case` passed (with `run` when it was traced; otherwise a proof runs it again)."""
        self.passed.append((case, run))

    def hint(self, case: Case, mine: Run, advice: str = "", show_step: Callable[[Any], str] = str,
             worth: Callable[[Case], bool] = lambda case: True) -> str:
        """Names a mistake only when its model reproduces this run, the cases passed before it, the group's
        next `proof_cases` cases and the probes' runs (only cases `worth` tracing are run again); otherwise
        where the search first differs, and `advice`. Before `settle` no hint is worked out: the message is
        thrown away and the group compares again."""
        if not self.settled:
            return ""
        i = self.cases.index(case)
        history = [(c, r) for c, r in self.passed if r is not None]
        history += observe(self.student, [c for c, r in self.passed if r is None and worth(c)])
        history += observe(self.student, [c for c in self.cases[i + 1:i + 1 + self.proof_cases] if worth(c)])
        observed = [(case, mine), *history, *self.evidence]
        named: list[Mistake] = []
        for tier in self.mistakes(self.expected):
            named = shown(tier, observed)
            if named:
                break
        model = self.model(self.expected)
        text = where(case, mine, model, notes=self.notes, descent=self.descent, choice=self.choice,
                     players=self.players)
        return compose(text, named, len(observed), advice, case, mine, model, Run.steps, show_step)


def judged(judge: Judge, compare: Callable[[], None]) -> int:
    """Run `compare` (it raises CheckFailed at the first difference); on a difference, settle and run it again.
    The number of cases passed."""
    try:
        compare()
    except common.CheckFailed:
        if judge.settled:
            raise
        judge.settle()
        compare()
    return len(judge.passed)
