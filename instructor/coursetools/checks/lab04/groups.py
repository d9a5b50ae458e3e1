"""Lab 04's test groups of move ordering, perfect ordering and iterative deepening (the table groups
are in `tables.py`): one small function per group.

- ``ordered_value``: `ordered_alphabeta_value` returns alpha-beta's value whatever the key.
- ``ordered_trace``: ... and searches the children in key order, ties in actions() order.
- ``perfect_ordering``: the reordered tree is a reordering, and alpha-beta on it evaluates exactly
  b^ceil(d/2) + b^floor(d/2) - 1 leaves.
- ``iterative_deepening``: the decision and the ordered trace of iterative deepening that searches the
  previous depth's best action first.
- ``deepening_clock``: the clock alone: with a node budget, the states generated, in order, are the first
  states the student's OWN search generates without a clock (it stops where the clock says, never past it),
  and the move returned is what their own search returns to the last depth that finished.

Each case runs the student's function and the correct model on traced copies of its game. A hint names a
mistake only when that mistake's model reproduces what the search did (`kit.explain`); otherwise it says
where the search first differs and that it matches none of the known mistakes.
"""

from __future__ import annotations

from typing import Any, Callable

from course_lib.explain import explain_order, first_wrong_step
from course_lib.games import GameTree
from course_lib.trace import Traced

from .. import common, kit
from ..kit import Case, Run
from . import cases as data
from . import reference as ref
from . import tables
from .notes import deepening_where, ordered_notes, wrong_evaluation
from .tables import short

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

#: A mistake is named when its model reproduces the failing case, the cases passed before it and this many
#: of the group's next cases.
PROOF_CASES = 4


def _show_step(step: Any) -> str:
    kind, node = step
    return f"{'generate' if kind == 'generate' else 'value'} {short(node)}"


def generated(run: Run) -> list:
    """The states a search generated, in order (what a node-budget clock counts)."""
    return run.steps("generate")


class Group:
    """One test group on one submission: the correct model, the mistake models, what it passed so far."""

    def __init__(self, student: Callable[..., Any], cases: list[Case], correct: Callable[..., Any],
                 mistakes: list[kit.Mistake], steps: Callable[[Run], list] = Run.steps,
                 where: Callable[[Case, Run], str | None] | None = None):
        self.student, self.cases, self.correct, self.mistakes, self.steps = student, cases, correct, mistakes, steps
        self.where = where
        self.passed: list[tuple[Case, Run]] = []

    def hint(self, case: Case, mine: Run, advice: str) -> str:
        """The first wrong step (`where`), then a known mistake only when its model reproduces this case, the cases
        passed before it and the group's next few; without a first wrong step, `advice`."""
        i = self.cases.index(case)
        history = self.passed + kit.observe(self.student, self.cases[i + 1:i + 1 + PROOF_CASES])
        named = kit.shown(self.mistakes, [(case, mine), *history], self.steps)
        text = None
        if self.where is not None:
            try:
                text = self.where(case, mine)
            except Exception:  # noqa: BLE001 - an explanation must never hide the failure itself
                text = None
        return kit.compose(text, named, 1 + len(history), advice, case, mine, self.correct, self.steps, _show_step)

    def run(self, what: str, case: Case, advice: str, result_kind: str = "value",
            sequences: tuple = ("leaves", "generated")) -> None:
        """Result (exact type), then the leaves valued and the children generated, in order."""
        mine, want = kit.run_student(self.student, case), kit.run_model(self.correct, case)
        pic = kit.picture(case, mine) if case.is_tree else ""
        if result_kind == "value":
            common.expect_number(mine.result, f"{what} on {case.name}")
        if not common.same(mine.result, want.result):
            common.fail(f"{what} on {case.name}: {kit.expected_text(case, want.result)}, yours returned "
                        f"{mine.result!r:.80}.",
                        self.hint(case, mine, advice), pic)
        for seq in sequences:
            exp = [short(n) for n in (want.trace.leaves() if seq == "leaves" else want.trace.generated())]
            got = [short(n) for n in (mine.trace.leaves() if seq == "leaves" else mine.trace.generated())]
            if exp != got:
                label = ("The leaves your search valued (in order)" if seq == "leaves"
                         else "The children your search generated with result() (in order)")
                raise common.CheckFailed(common.sequence_message(label, exp, got, f"on {case.name}", pic,
                                                                 self.hint(case, mine, advice)))
        self.passed.append((case, mine))


def _name(case: Case, mine: Run) -> Callable[[Any], str]:
    """Nodes as messages write them: tree labels, or the moves from the case's position."""
    return str if case.is_tree else kit.namer(case, mine)


def ordering_where(case: Case, mine: Run) -> str | None:
    """The first step where the student's ordered search leaves the correct one, with the keys that decide the order."""
    _, notes = ordered_notes(case.game, case.state, case.args[0])
    return first_wrong_step(case.name, case.game, notes, mine.steps(), _name(case, mine))


def deepening_at(case: Case, mine: Run) -> str | None:
    """The first wrong step of iterative deepening: the depth, the root's order there, the step inside it."""
    max_depth, evaluate = case.args[:2]
    name = _name(case, mine)
    return (wrong_evaluation(case.name, case.game, case.state, max_depth, evaluate, mine.trace.events(*kit.STEPS), name)
            or deepening_where(case.name, case.game, case.state, max_depth, evaluate, mine.steps(), name))


# -- ordered_alphabeta_value ------------------------------------------------------------------------

STABLE_ADVICE = ("Search the children in the order sorted(actions, key=lambda a: key(state, a)): smaller keys "
                 "first, and ties keep their actions() order (sorted is stable).")
VALUE_ADVICE = ("The order of the children must not change the value: search the same children alpha-beta "
                "would search, only in another order, and prune only when v >= beta (MAX) or v <= alpha (MIN).")


def check_ordered_value(ordered_alphabeta_value: Callable) -> int:
    """Values only (asked on the case's own game): any order of the children gives alpha-beta's value."""
    todo = data.ordering("ordered_value")
    group = Group(ordered_alphabeta_value, todo, ref.ordered_alphabeta_value, ref.ORDER_MISTAKES, where=ordering_where)
    for case in todo:
        expected = ref.ordered_alphabeta_value(case.game, case.state, *case.args)
        got = kit.answer(ordered_alphabeta_value, case)
        if got is kit.NO_ANSWER or not common.same(got, expected):
            group.run("ordered_alphabeta_value", case, VALUE_ADVICE, sequences=())
    return len(todo)


def check_ordered_trace(ordered_alphabeta_value: Callable) -> int:
    """Leaves and generated children in key order (stable)."""
    todo = data.ordering("ordered_trace")
    group = Group(ordered_alphabeta_value, todo, ref.ordered_alphabeta_value, ref.ORDER_MISTAKES, where=ordering_where)
    for case in todo:
        group.run("ordered_alphabeta_value", case, STABLE_ADVICE)
    return len(todo)


# -- perfect_ordering -------------------------------------------------------------------------------

def canonical(tree: GameTree, node: str) -> tuple:
    """The tree below `node` with children in a fixed order: equal for reorderings of one tree."""
    if tree.is_terminal(node):
        return ("leaf", tree.value(node))
    return (tree.kind(node), tuple(sorted((canonical(tree, c) for c in tree.children(node)), key=repr)))


def leaf_values(tree: GameTree) -> dict:
    """Every node's minimax value as the leaves are written (MAX takes the largest, MIN the smallest)."""
    out: dict = {}

    def value(n: str) -> Any:
        if n not in out:
            vals = [value(c) for c in tree.children(n)] if not tree.is_terminal(n) else []
            out[n] = tree.value(n) if not vals else max(vals) if tree.kind(n) == "MAX" else min(vals)
        return out[n]

    value(tree.initial)
    return out


def _first_not_best(case: Case, got: GameTree) -> str | None:
    """The first node of the student's tree whose first child is not a best one (`explain.explain_order`)."""
    return explain_order(case.name, case.game, got, leaf_values(case.game))


def _perfect_hint(cases: list[tuple[Case, Any]]) -> str:
    """A mistake whose model builds exactly the student's trees on these cases, or none."""
    named = [m for m in ref.PERFECT_MISTAKES
             if all(ref.ordered_spec(m.model(c.game)) == ref.ordered_spec(got) for c, got in cases)]
    if named:
        return kit.join_hints([m.hint for m in named])
    return ("this matches none of the known mistakes. Order the children of each node by their minimax value: "
            "largest first at MAX, smallest first at MIN (the value of the whole subtree, not of its first leaf)")


def check_perfect_ordering(perfect_ordering: Callable) -> int:
    seen: list[tuple[Case, Any]] = []
    for case in data.perfect_ordering():
        tree = case.game
        b = len(tree.children(tree.initial))
        d = max(tree.depth(leaf) for leaf in tree.leaves())
        got = common.call(perfect_ordering, tree, where=f"on {case.name}")
        # course_lib is imported afresh for the checks: compare the class by name, not identity.
        if (type(got).__name__, type(got).__module__) != (GameTree.__name__, GameTree.__module__):
            common.fail(f"perfect_ordering on {case.name} should return a GameTree (build it with "
                        f"GameTree.from_nested or GameTree.from_mapping), not {type(got).__name__}: {got!r:.80}")
        if got.kind(got.initial) != tree.kind(tree.initial) or canonical(got, got.initial) != canonical(tree, tree.initial):
            common.fail(f"perfect_ordering on {case.name}: your tree is not the same tree with its children reordered "
                        f"(the root should stay {tree.kind(tree.initial)}, and every node keep the same "
                        "children, leaf values included).",
                        "reorder the children of each node; do not change values, kinds or shapes",
                        kit.tree_picture(tree) and "yours:\n" + kit.tree_picture(got) + "\nthe given tree:\n"
                        + kit.tree_picture(tree))
        if case.id in data.UNEVEN:  # not uniform: no leaf count to meet, but each first child must be a best one
            where = _first_not_best(case, got)
            if where:
                common.fail(f"perfect_ordering on {case.name}: your tree does not put a best child first everywhere."
                            f"\n{where}", _perfect_hint([*seen, (case, got)]), _yours(got))
            seen.append((case, got))
            continue
        game = Traced(got, keep_events=False)
        ref.depth_limited_alphabeta(game, got.initial)
        leaves = game.trace.count("utility")
        want = ref.minimal_leaves(b, d)
        if leaves != want:
            where = _first_not_best(case, got)
            common.fail(
                f"perfect_ordering on {case.name}: alpha-beta evaluated {leaves} leaves of your reordered tree; "
                f"with the best child first everywhere it evaluates {b}^{(d + 1) // 2} + {b}^{d // 2} - 1 = {want}."
                + (f"\n{where}" if where else ""),
                _perfect_hint([*seen, (case, got)]), _yours(got))
        seen.append((case, got))
    return len(seen)


def _yours(tree: Any) -> str:
    """The student's reordered tree, drawn under a line that says whose it is."""
    drawn = kit.tree_picture(tree)
    return drawn and "(YOUR reordered tree, as perfect_ordering returned it)\n" + drawn


# -- iterative deepening ----------------------------------------------------------------------------

def as_called(student: Callable[..., Any]) -> Callable[..., Any]:
    """The student's iterative deepening as the models are called (`reference.budgeted`; its last clock is kept as
    ``.clock``)."""
    run = ref.budgeted(student)
    run.__name__ = "iterative_deepening_decision"
    return run


ID_ADVICE = ("Each depth d = 1, 2, ..., max_depth searches every root action's result to depth d - 1, the "
             "previous depth's best action first and then the others in actions() order.")


def check_iterative_deepening(iterative_deepening_decision: Callable) -> int:
    """The decision, the leaves valued and the children generated, in order, over all depths."""
    todo = data.deepening()
    group = Group(as_called(iterative_deepening_decision), todo, ref.id_model(), ref.ID_MISTAKES, where=deepening_at)
    for case in todo:
        group.run("iterative_deepening_decision", case, ID_ADVICE, result_kind="action")
    return len(todo)


CLOCK_ADVICE = ("Ask clock.expired() before every call of game.result, at the root and below it; when it says "
                "yes, stop and throw the depth being searched away. Return the best move of the last depth that "
                "finished (a depth whose last state was generated as the budget ran out did finish), or the first "
                "action in actions() order if none finished.")


class OwnSearch:
    """The student's own iterative deepening on one position, run without a clock to each depth 1..max_depth:
    what their search does once the clock is taken away, so that the clock group grades the clock alone (a
    mistake of depths, order or decision costs points in 'iterative_deepening' only)."""

    def __init__(self, student: Callable[..., Any], case: Case):
        max_depth, evaluate, _ = case.args
        self.runs: list[tuple[Case, Run]] = []
        for depth in range(1, max_depth + 1):
            plain = Case(case.id.split("@")[0], case.name, case.game, case.state, (depth, evaluate))
            try:
                run = kit.run_student(student, plain)
            except common.CheckFailed:  # a search that cannot run without a clock: give it one that never expires
                run = kit.run_student(student, Case(plain.id, plain.name, plain.game, plain.state,
                                                    (depth, evaluate, UNLIMITED)))
            self.runs.append((plain, run))
        self.counts = [len(generated(run)) for _, run in self.runs]
        self.full = [short(n) for n in self.runs[-1][1].trace.generated()]

    def finished(self, nodes: int) -> int:
        """The last depth that finishes within `nodes` generated states (0: none)."""
        return max((d for d, n in enumerate(self.counts, 1) if n <= nodes), default=0)

    def answer(self, case: Case, nodes: int) -> Any:
        """What a clocked run must return: the move of the last finished depth, or the first action."""
        last = self.finished(nodes)
        if last:
            return self.runs[last - 1][1].result
        actions = case.game.actions(case.state)
        return actions[0] if actions else None

    def depth_of(self, i: int) -> int:
        """The depth of your own search in which its state number `i` (from 1) is generated."""
        return next((d for d, n in enumerate(self.counts, 1) if n >= i), len(self.counts))

    def depths_text(self, nodes: int, want: Any) -> str:
        """Which depths of the student's own search finish within `nodes` states, and the answer that gives, in words."""
        last, top = self.finished(nodes), len(self.counts)
        if last == 0:
            return (f"not even depth 1 finishes (your search generates {self.counts[0]} states for it), so the "
                    f"answer is the first action in actions() order, {want!r}")
        return (f"depth {last} finishes after {self.counts[last - 1]} states"
                + (f" and depth {last + 1} needs {self.counts[last]}" if last < top else ", the last depth asked for")
                + f". Your search to max_depth={last} without a clock returns {want!r}")


#: A NodeBudget that never expires, for a search that needs a clock to run at all.
UNLIMITED = 10 ** 12


def _profile(searches: list[OwnSearch]) -> dict | None:
    """The way of deepening (`reference.ID_PROFILES`) whose model does what the student's own search does without
    a clock on every position seen, or None: only then can a model of a clock mistake be compared with theirs."""
    observed = [pair for own in searches for pair in own.runs]
    for flags in ref.ID_PROFILES:
        if all(kit.reproduces(ref.id_model(**flags), c, r) for c, r in observed):
            return flags
    return None


def _clock_facts(own: OwnSearch, got: list, nodes: int) -> str:
    """What the clocked run did, measured against the student's own search without a clock."""
    total = len(own.full)
    if got == own.full and total > nodes:
        return (f"yours generated all {total} states of your own search without a clock, where the clock allows "
                f"{nodes}: it went on after the clock had expired")
    if got[:len(own.full)] == own.full[:len(got)]:
        if len(got) > nodes:
            return (f"yours generated {len(got)} states where the clock allows {nodes}: it went on after the clock "
                    "had expired")
        return (f"yours stopped after {len(got)} states, before the clock had expired (it allows {nodes}, and your "
                f"own search without a clock generates {total})")
    return ("yours generated other states than your own search does without a clock: the clock may stop the "
            "search, never change what it searches")


def _asked_facts(own: OwnSearch, got: list, nodes: int, asked: list[int] | None) -> str:
    """When the clocked run asked its clock, against where the budget ran out: the first state generated past the
    budget, the depth it belongs to, and whether the clock was asked just before it."""
    if asked is None or len(got) <= nodes:
        return ""
    when = sorted(set(asked))
    shown = ", ".join(str(n) for n in when[:12]) + (", ..." if len(when) > 12 else "")
    depth = own.depth_of(nodes + 1)
    last = max((n for n in asked if n <= nodes), default=None)
    ran_out = (f"the budget ran out with state {nodes} ({got[nodes - 1]})" if nodes else
               "the budget of 0 states had run out before the first state")
    if nodes in asked:
        told = f"the clock, asked when {nodes} states had been generated, said it had expired, and yours went on"
    elif last is not None:
        told = (f"yours had last asked the clock when {last} states had been generated, before the budget ran out, "
                f"and did not ask it again before state {nodes + 1}")
    else:
        told = "yours had not asked the clock before it"
    return (f"\nWhen the clock was asked: {ran_out}; state {nodes + 1} ({got[nodes]}), in depth {depth} of your own "
            f"search, came after it, and {told}. "
            + (f"In all, yours asked the clock when {shown} states had been generated." if when else
               "Yours never asked the clock."))


def _named(case: Case, mine: Run, passed: list, todo: list[Case], student: Callable[..., Any],
           searches: list[OwnSearch]) -> str:
    """A clock mistake, named only when its model (made on the student's own way of deepening) reproduces this run,
    the clocked runs passed before it and the group's next few cases."""
    flags = _profile(searches)
    if flags is None:
        return ""
    i = todo.index(case)
    observed = [(case, mine), *passed, *kit.observe(student, todo[i + 1:i + 1 + PROOF_CASES])]
    named = kit.shown(ref.clock_mistakes(**flags), observed, generated)
    return kit.join_hints([m.hint for m in named])


def check_deepening_clock(iterative_deepening_decision: Callable) -> int:
    """With a NodeBudget clock (it counts the calls of result on the grader's own traced game): the states generated
    in order (so where the search stopped), then the move of the last finished depth. Both are compared with the
    student's OWN search run without a clock to each depth, so the clock alone is graded here."""
    todo = data.clock()
    student = as_called(iterative_deepening_decision)
    own: dict[str, OwnSearch] = {}
    passed: list[tuple[Case, Run]] = []
    for case in todo:
        position = case.id.split("@")[0]
        if position not in own:
            own[position] = OwnSearch(student, case)
        search, nodes = own[position], case.args[2]
        mine = kit.run_student(student, case)
        # What this run asked its clock, kept now: `_named` below runs the student on further cases (new clocks).
        asked = getattr(getattr(student, "clock", None), "asked", None)
        asked = None if asked is None else list(asked)
        got, exp = [short(n) for n in mine.trace.generated()], search.full[:nodes]
        pic = kit.picture(case, mine) if case.is_tree else ""
        if got != exp:
            named = _named(case, mine, passed, todo, student, list(own.values()))
            hint = (_clock_facts(search, got, nodes) + "; " + (named or CLOCK_ADVICE)
                    + _asked_facts(search, got, nodes, asked))
            raise common.CheckFailed(common.sequence_message(
                f"The states your search generated with result() (in order; the clock allows {nodes}, and "
                "the expected ones are the first states your own search generates without a clock)",
                exp, got, f"on {case.name}", pic, hint))
        want = search.answer(case, nodes)
        if not common.same_answer(mine.result, want):
            named = _named(case, mine, passed, todo, student, list(own.values()))
            common.fail(f"iterative_deepening_decision on {case.name}: your search stopped at the right place, after "
                        f"{len(got)} states. Without a clock your own search generates {search.counts} states for "
                        f"max_depth = 1, 2, ...: {search.depths_text(nodes, want)}; with this clock yours returned "
                        f"{mine.result!r:.80}.",
                        named or CLOCK_ADVICE, pic)
        passed.append((case, mine))
    # A search that generates no more states than the budget on every case never meets its clock: nothing above
    # graded a clock, so the group is not passed (a search that does nothing must not pass it).
    binding = [case for case in todo if len(own[case.id.split("@")[0]].full) > case.args[2]]
    if todo and not binding:
        most = max(len(s.full) for s in own.values())
        common.fail(f"iterative_deepening_decision: without a clock your own search generates at most {most} states "
                    f"on these positions, never more than the clock allows (budgets "
                    f"{', '.join(str(c.args[2]) for c in todo)}), so the clock never has to stop it and no case here "
                    "shows what your clock does.", "Search depth 1, 2, ..., max_depth in turn, each with game.result on "
                    "the game you are given, asking clock.expired() before every call.")
    return len(todo)


#: Each group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {
    "ordered_trace": (lambda: [c for c in data.ordering("ordered_trace") if not c.id.startswith(("random", "secret"))],
                      ref.ordered_alphabeta_value),
    "iterative_deepening": (lambda: [c for c in data.deepening() if not c.id.startswith(("random", "secret"))],
                            ref.id_model()),
    "deepening_clock": (data.clock_public, ref.id_model()),
    "tt_kept": (data.kept_tables, lambda g, s, t, d, e: tables.kept_model(g, s, t, d, g.evaluator(e))),
}
