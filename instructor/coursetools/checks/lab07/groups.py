"""Lab 07's test groups (UCB1, rollout, search, decision, clock): one small function per group.

Every run gets a fresh grader-owned `LentRandom(seed)`: the student's search draws its numbers in the
grader, so a run is compared with the correct model on three things, in order: the states it generated
with ``result()`` (each expansion and each rollout move, as (parent, action), in order), the state it
left the generator in (the same draws), and what it returned (the root's children with their visits and
totals, an action, a terminal state). A difference is explained by a mistake only when that mistake's
model reproduces all three on the failing case, the cases passed before it and the next few.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any, Callable

from course_lib.clock import NodeBudget

from coursetools.checks.common import LentRandom

from .. import common, kit
from ..kit import Case, Mistake
from . import cases as data
from .explain import clock_counted, clock_story, first_wrong, read_root, root_text, search_failed, then, unrepeatable
from . import reference as ref
from .runs import Seen, model_run, repeats, replays, run, same_run, stopped_by_rollout, with_lab_helpers

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

PROOF_CASES = 4
NEW_RANDOM_HINT = ("your search drew no number from the rng it was given: make every random choice with that "
                   "rng (rng.choice(...)), never with a new random.Random() or the random module's own functions, "
                   "so that one seed repeats the whole run")
SEARCH_ADVICE = ("Follow the four steps of an iteration exactly: select while the node has no untried action, "
                 "expand the FIRST untried action, roll out with rng.choice(game.actions(s)), back up to the root.")


class Group:
    """One test group on one submission: the correct model, the mistake models, what it saw so far."""

    def __init__(self, fn: Callable[..., Any], todo: list[Case], kind: str, correct: Callable[..., Any],
                 mistakes: list[Mistake], function: str, own: Callable[..., Any] | None = None):
        self.fn, self.todo, self.kind, self.correct, self.mistakes = fn, todo, kind, correct, mistakes
        self.function, self.own = function, own
        self.passed: list[tuple[Case, Seen]] = []
        self.ucb: Any = None  # the student's own ucb1 and rollout (search groups), graded in their own groups
        self.rollout: Any = None

    def own_helpers(self, case: Case, mine: Seen, want: Seen) -> tuple[bool, str]:
        """(the run is the correct search with the student's own ucb1 and rollout, graded in their own groups; a line
        saying where those differ from the lab's and the run matches neither)."""
        if self.kind == "search" and replays(case, mine, self.ucb, self.rollout):
            return True, ""
        try:
            alt = None if self.own is None else run(self.own, case, self.kind, student=False)
        except common.CheckFailed:
            alt = None
        if alt is None or same_run(alt, want) or same_run(alt, mine):
            return alt is not None and not same_run(alt, want), ""
        return False, ("\n(Your ucb1 or rollout does not do what the lab's does on this case: test_ucb1 and "
                       "test_rollout grade them. This test accepts the correct search with the lab's ucb1 and rollout, "
                       "or with your own; yours matches neither.)")

    def hint(self, case: Case, mine: Seen, want: Seen, advice: str) -> str:
        if want.rng_state != mine.rng_state and mine.rng_state == LentRandom(self._seed(case)).getstate():
            return NEW_RANDOM_HINT
        if self.kind != "rollout" and case.args[2] is None:
            given = run(self.fn, Case(case.id, case.name, case.game, case.state, (*case.args[:2], ref.SQRT2)),
                        self.kind, student=True)
            if same_run(given, want):
                return (f"called with c = math.sqrt(2) your {self.function} does exactly what the correct one does "
                        "here, but called without c it does not: the default of c must be math.sqrt(2), as the "
                        "lab's signature says")
        i = self.todo.index(case)
        more = []
        for c in self.todo[i + 1:i + 1 + PROOF_CASES]:
            try:
                more.append((c, run(self.fn, c, self.kind, student=True)))
            except common.CheckFailed:
                continue
        observed = [(case, mine), *self.passed, *more]
        named = [m for m in self.mistakes
                 if all((r := model_run(m.model, c, self.kind)) is not None and same_run(r, s) for c, s in observed)]
        if named:
            return kit.join_hints([m.hint for m in named])
        return f"this matches none of the known mistakes. {advice}"

    def _seed(self, case: Case) -> Any:
        return case.args[-1] if self.kind == "rollout" else case.args[1]

    def compare(self, case: Case, show_answer: Callable[[Any], str], advice: str) -> None:
        try:
            mine = run(self.fn, case, self.kind, student=True)
        except common.CheckFailed as exc:
            stopped = self.kind == "search" and stopped_by_rollout(self.fn, case)
            raise (common.CheckFailed(f"{exc}\n{stopped}") if stopped else exc) from None
        want = run(self.correct, case, self.kind, student=False)
        name = kit.namer(case, kit.Run(None, want.game), kit.Run(None, mine.game))
        pic = kit.picture(case)
        own, aside = (False, "") if same_run(mine, want) else self.own_helpers(case, mine, want)
        if own:
            self.passed.append((case, mine))
            return
        try:
            self._differs(case, mine, want, name, show_answer, advice, pic)
        except common.CheckFailed as exc:
            raise (common.CheckFailed(f"{exc}{aside}") if aside else exc) from None

    def _differs(self, case: Case, mine: Seen, want: Seen, name: Callable[[Any], str],
                 show_answer: Callable[[Any], str], advice: str, pic: str) -> None:
        """Raise at the first difference between the student's run and the correct one; note the run passed."""
        where = f"on {case.name}"

        def step(s: tuple) -> str:
            return f"{name(s[0])} -> {kit.action_text(s[1])}"

        if mine.steps != want.steps:
            text = first_wrong(self.fn, self.kind, case, mine.steps, name)
            raise common.CheckFailed(common.sequence_message(
                f"The states {self.function} generated with result() (node -> action: expansions and rollout "
                "moves, in order)", [step(s) for s in want.steps], [step(s) for s in mine.steps], where, "",
                "") + then(text, self.hint(case, mine, want, advice), advice, pic))
        if mine.rng_state != want.rng_state:
            common.fail(f"{self.function} {where} generated the right states but left the random generator in "
                        "another state: it drew more, fewer or other random numbers than the correct search "
                        "(one rng.choice(game.actions(s)) per rollout move, nothing else).",
                        self.hint(case, mine, want, advice), pic)
        if not common.same(mine.answer, want.answer):
            expected = ("the correct search's differs (a hidden case: its answer is not shown)" if kit.is_hidden(case)
                        else f"expected {show_answer(want.answer)}")
            text = first_wrong(self.fn, self.kind, case, mine.steps, name)
            raise common.CheckFailed(f"{self.function} {where}: {expected}, yours {show_answer(mine.answer)}."
                                     + then(text, self.hint(case, mine, want, advice), advice, pic))
        self.passed.append((case, mine))


def _as_decision(mistakes: list[Mistake]) -> list[Mistake]:
    """The same mistakes of the search, seen through mcts_decision."""
    return [Mistake(m.key, m.hint, partial(ref.mcts_decision, **m.model.keywords)) for m in mistakes]


# -- the groups ----------------------------------------------------------------------------------------------

def check_ucb1(ucb1: Callable[..., Any]) -> int:
    """ucb1 on public and seeded rows: the exact value, infinity for an unvisited child."""
    rows = data.ucb_rows()
    for i, row in enumerate(rows):
        got = common.call(ucb1, *row, where=f"with (total, visits, parent_visits, c) = {row}")
        want = ref.ucb1(*row)
        common.expect_number(got, f"ucb1{row}")
        if not common.same(got, want):
            seen = [(r, common.call(ucb1, *r)) for r in rows[: i + 1 + PROOF_CASES]]
            named = [m for m in ref.UCB1_MISTAKES if all(common.same(v, m.model(*r)) for r, v in seen)]
            hint = kit.join_hints([m.hint for m in named]) if named else (
                "this matches none of the known mistakes. UCB1 = total/visits + c*sqrt(ln(parent_visits)/visits), "
                "and math.inf when visits == 0.")
            if i < data.PUBLIC_UCB_ROWS:
                common.fail(f"ucb1(total={row[0]}, visits={row[1]}, parent_visits={row[2]}, c={row[3]:.4g}): "
                            f"expected {want!r}, yours {got!r}.", hint)
            # a seeded row: its neighbourhood only (its exploitation term), never the value itself
            common.fail(f"ucb1(total={row[0]}, visits={row[1]}, parent_visits={row[2]}, c={row[3]:.4g}): yours "
                        f"returned {got!r}, which is not UCB1 of these numbers (its exploitation term "
                        f"total/visits is {row[0] / row[1]:.4g}).", hint)
    return len(rows)


def check_rollout(rollout: Callable[..., Any]) -> int:
    """rollout: the same random moves (one rng.choice per move) to the same terminal state."""
    g = Group(rollout, data.rollouts(), "rollout", ref.rollout, [], "rollout")
    for case in g.todo:
        g.compare(case, repr, "Until the state is terminal: s = game.result(s, rng.choice(game.actions(s))); "
                              "then return s.")
    return len(g.todo)


def _search(mcts_search: Callable[..., Any], todo: list[Case], ucb1: Any, rollout: Any) -> int:
    g = Group(with_lab_helpers(mcts_search), todo, "search", ref.mcts_search, ref.SEARCH_MISTAKES, "mcts_search",
              ref.with_helpers(ucb1 and partial(common.call, ucb1), rollout and partial(common.call, rollout)))
    g.ucb, g.rollout = ucb1, rollout
    for case in todo:
        g.compare(case, root_text, SEARCH_ADVICE)
    return len(todo)


def check_search_trees(mcts_search: Callable[..., Any], ucb1: Any = None, rollout: Any = None) -> int:
    """mcts_search on small trees: every expansion, rollout move and draw in order, the root's statistics (the
    correct search with the lab's ucb1 and rollout, or with the student's own: those are graded in their groups)."""
    return _search(mcts_search, data.trees(), ucb1, rollout)


def check_search_games(mcts_search: Callable[..., Any], ucb1: Any = None, rollout: Any = None) -> int:
    """mcts_search on Tic-Tac-Toe positions: the same steps, draws and root statistics (as on trees)."""
    return _search(mcts_search, data.games(), ucb1, rollout)


def _decide(mcts_search: Callable[..., Any], mcts_decision: Callable[..., Any], case: Case) -> tuple | str | None:
    """(the root's children your search grows, your decision, the decision expected from those children); None when
    your decision took other steps and your search, run again, does too (it does not repeat itself); the message
    when your search fails on the case (graded by the search groups, not here). A case
    that leaves c out grows the tree with c = math.sqrt(2), the documented default, given explicitly: the default
    of mcts_decision is graded here, that of mcts_search by the search groups."""
    iterations, seed, c = case.args
    try:
        grown = run(mcts_search, Case(case.id, case.name, case.game, case.state,
                                      (iterations, seed, ref.SQRT2 if c is None else c)), "search", student=True)
    except common.CheckFailed as exc:  # your search fails here: the search groups grade that, not the decision
        return str(exc)
    mine = run(mcts_decision, case, "decision", student=True)
    if mine.steps != grown.steps or mine.rng_state != grown.rng_state:
        given = Case(case.id, case.name, case.game, case.state, (iterations, seed, ref.SQRT2 if c is None else c))
        if not (repeats(mcts_search, grown, given, "search") and repeats(mcts_decision, mine, case, "decision", 1)):
            return None
        if c is None:
            common.fail(f"mcts_decision on {case.name} did not take the steps your mcts_search "
                        "takes with c = math.sqrt(2): the default of c in mcts_decision is math.sqrt(2), and "
                        "mcts_decision passes its c on to mcts_search.")
        common.fail(f"mcts_decision on {case.name} did not take the steps your mcts_search takes with the same "
                    "arguments: call root = mcts_search(game, state, iterations, rng, c, clock) once and read "
                    "the answer off the root.")
    kids = grown.answer[1]
    return kids, mine.answer, _most_visited(kids, case)


def _most_visited(kids: Any, case: Case) -> Any:
    """The decision from a root's children (action, visits, total): the first most visited, else the first action."""
    return kids[[k[1] for k in kids].index(max(k[1] for k in kids))][0] if kids else case.game.actions(case.state)[0]


def check_decision(mcts_search: Callable[..., Any], mcts_decision: Callable[..., Any]) -> int:
    """mcts_decision: the most visited child of the tree YOUR search grows (first in actions order on ties),
    after the same steps. A mistake of the search is graded by the search groups only."""
    mcts_search, mcts_decision = with_lab_helpers(mcts_search), with_lab_helpers(mcts_decision)
    todo = data.decisions()
    seen: list[tuple] = []
    skipped: list[Case] = []  # your search does not repeat itself there: no run of yours to compare with
    failed: list[str] = []  # your search fails there: graded by the search groups
    for i, case in enumerate(todo):
        decided = _decide(mcts_search, mcts_decision, case)
        if isinstance(decided, str):
            failed.append(decided)
            continue
        if decided is None:
            skipped.append(case)
            continue
        kids, got, want = decided
        if not common.same(got, want):
            proof = [(kids, got), *seen]
            for c in todo[i + 1:]:  # every later case: a decision is cheap, and ties are rare
                try:
                    later = _decide(mcts_search, mcts_decision, c)
                except common.CheckFailed:
                    continue
                if isinstance(later, tuple):
                    proof.append(later[:2])
            hints = [m.hint for m, rule in zip(ref.DECISION_MISTAKES, ("value", "last"))
                     if all(ref.picked(k, rule) is not None and common.same(g, ref.picked(k, rule)) for k, g in proof if k)]
            common.fail(f"mcts_decision on {case.name}: your search's root has children (action, visits, total) "
                        f"[{', '.join(f'({kit.action_text(a)}, {v}, {t})' for a, v, t in kids)}], so the decision is "
                        f"{kit.action_text(want)}; yours returned {got!r}.",
                        kit.join_hints(hints) if hints else "this matches none of the known mistakes. Return the "
                        "action of the most visited child, the first in actions() order on ties.")
        seen.append((kids, got))
    if failed and not seen:
        common.fail(search_failed("mcts_decision", failed))
    if skipped and not seen:
        common.fail(unrepeatable("mcts_decision", skipped))
    return len(todo)


def _unclocked(mcts_decision: Callable[..., Any], case: Case) -> tuple[int, Seen]:
    """(n, run): the lab's decision on YOUR mcts_search (`lent_decision`) without a clock, with the fewest iterations n
    that generate at least the budget (or the case's iterations): the clocked run must do exactly that run. A run
    of n + 1 iterations repeats the run of n and adds one, so n is found by doubling, then halving."""
    iterations, seed, c, budget = case.args[:4]

    def probe(n: int) -> Seen:
        return run(mcts_decision, Case(case.id, case.name, case.game, case.state, (n, seed, c)), "decision",
                   student=True)

    if budget == 0:  # an expired clock lets no iteration start: nothing generated, the first action
        none = probe(0)
        if none.steps:  # your search runs an iteration even when asked for none: no run of yours shows this one
            actions = case.game.actions(case.state)
            none = Seen(actions[0] if actions else None, [], none.rng_state, none.game)
        return 0, none
    lo, hi = 0, min(1, iterations)
    while hi < iterations and len(probe(hi).steps) < budget:  # doubling, then halving: few short probes
        lo, hi = hi + 1, min(2 * hi, iterations)
    while lo < hi:
        mid = (lo + hi) // 2
        if len(probe(mid).steps) >= budget:
            hi = mid
        else:
            lo = mid + 1
    return hi, probe(hi)


def lent_decision(mcts_search: Callable[..., Any]) -> Callable[..., Any]:
    """The lab's decision on YOUR mcts_search (the grader's code, lent to the clock group): one search with the clock
    passed on, then the root's first most visited child (the first action without any). test_decision grades your
    own mcts_decision."""
    def mcts_decision(game: Any, state: Any, iterations: Any, rng: Any, c: float = ref.SQRT2, clock: Any = None) -> Any:
        _, kids = read_root(mcts_search(game, state, iterations, rng, c, clock), "")
        return _most_visited(kids, Case("", "", game, state, ()))
    return mcts_decision


def check_clock(mcts_search: Callable[..., Any]) -> int:
    """Your mcts_search with a NodeBudget clock, through the lab's decision (lent by the grader), compared with the
    same decision on YOUR mcts_search without a clock: the same steps as with the fewest iterations that spend the
    budget (the clock asked before each iteration, never inside one), and the same answer. So only the clock is
    graded here: a mistake of the search without a clock costs points in the search groups only, one of your
    mcts_decision in test_decision only."""
    mcts_decision = lent_decision(with_lab_helpers(mcts_search))
    g = Group(mcts_decision, data.clocks(), "clock", ref.mcts_decision, ref.CLOCK_MISTAKES, "mcts_decision")
    advice = ("Play on game = clock.watch(game); before each iteration, stop if clock.expired(); an iteration that "
              "started always finishes.")
    binding = 0  # cases whose budget your own run without a clock spends: only there does the clock stop anything
    skipped: list[Case] = []  # your decision without a clock does not repeat itself there: nothing to compare with
    failed: list[str] = []  # your own run without a clock fails there: graded by the search and decision groups
    for case in g.todo:
        try:
            n, plain = _unclocked(mcts_decision, case)
        except common.CheckFailed as exc:
            failed.append(str(exc))
            continue
        mine = run(mcts_decision, case, "clock", student=True)
        unclocked = Case(case.id, case.name, case.game, case.state, (n, *case.args[1:3]))
        where = f"on {case.name} (a NodeBudget({case.args[3]}), at most {case.args[0]} iterations)"
        if mine.steps != plain.steps or not common.same_answer(mine.answer, plain.answer):
            if not (repeats(mcts_decision, plain, unclocked, "decision") and repeats(mcts_decision, mine, case,
                                                                                     "clock", 1)):
                skipped.append(case)
                continue
            hint = advice
            correct = run(ref.mcts_decision, unclocked, "decision", student=False)
            if correct.steps == plain.steps:  # your search is the correct one here: the clock models can explain
                hint = g.hint(case, mine, run(ref.mcts_decision, case, "clock", student=False), advice)
            if mine.steps != plain.steps:
                before = len(run(mcts_decision, Case(case.id, case.name, case.game, case.state, (n - 1, *case.args[1:3])),
                                 "decision", student=True).steps) if n > 0 else 0
                common.fail(f"your mcts_search, run by the lab's mcts_decision {where}, generated {len(mine.steps)} states"
                            f"{clock_counted(mine.clock, len(mine.steps))}. "
                            + clock_story(mine.steps, plain.steps, before, n, case.args[3]), hint)
            common.fail(f"your mcts_search, run by the lab's mcts_decision {where}: without a clock, with "
                        f"iterations={n}, that decision returns {plain.answer!r}; with the clock it returned "
                        f"{mine.answer!r}.", hint)
        g.passed.append((case, mine))
        binding += case.args[3] > 0 and len(plain.steps) >= case.args[3]
    if failed and not g.passed:
        common.fail(search_failed("Your mcts_search with a clock (run by the lab's mcts_decision)", failed), advice)
    if skipped and not g.passed:
        common.fail(unrepeatable("Your mcts_search with a clock (run by the lab's mcts_decision)", skipped), advice)
    # A decision whose own run never spends a budget never meets its clock: nothing above graded a clock, so the
    # group is not passed (a decision that searches nothing must not pass it).
    if g.todo and not binding:
        common.fail("mcts_search: without a clock, even with the most iterations these cases allow, your "
                    "mcts_search (run by the lab's mcts_decision) generates fewer states than each clock's budget "
                    f"({', '.join(str(c.args[3]) for c in g.todo if c.args[3])}), so the clock never has to stop it "
                    "and no case here shows what your clock does.", advice)
    return len(g.todo)


def _golden(kind: str) -> Callable[..., Any]:
    """The correct model with a case's arguments as the case holds them (a seed, not a generator)."""
    def model(game: Any, state: Any, *args: Any) -> Any:
        if kind == "rollout":
            return ref.rollout(game, state, random.Random(args[0]))
        clock = NodeBudget(args[3]) if kind == "clock" else None
        game = kit.PlainGame(game) if kind == "clock" and args[4:] == (True,) else game
        c = ref.SQRT2 if args[2] is None else args[2]
        if kind == "search":
            return read_root(ref.mcts_search(game, state, args[0], random.Random(args[1]), c), "")
        return ref.mcts_decision(game, state, args[0], random.Random(args[1]), c, clock)
    return model


#: Each group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {
    "rollout": (data.rollouts, _golden("rollout")),
    "search_trees": (data.trees, _golden("search")),
    "search_games": (data.games, _golden("search")),
    "decision": (data.decisions, _golden("decision")),
    "clock": (data.clocks, _golden("clock")),
}
