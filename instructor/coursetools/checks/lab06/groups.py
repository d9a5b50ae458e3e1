"""Lab 06's test groups (expectimax, max^n, shallow pruning): one small function per group.

Each case runs the student's search and the correct model on traced copies of its game and
compares, in order: the result (exact type), no leaf valued twice, the leaves valued in
order, the children generated in order. A failing result or order is explained by
`kit.explain`: a mistake is named only when its model reproduces what the search did.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from course_lib.games import GameTree

from .. import common, explainer, kit
from ..kit import Case, Run
from . import cases as data
from . import reference as ref

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built


def steps(run: Run) -> list[tuple[str, Hashable]]:
    """Children generated and leaves valued, in order. In a tree, utility() calls in a row on one leaf
    for other players count once (one call per player values one leaf); a second call for the same
    player, or a second utilities() call, is a second visit. In a game a state may recur."""
    out: list[tuple[str, Hashable]] = []
    asked: set = set()
    for e in run.trace.events("generate", "utility", "evaluate"):
        if e.kind == "generate":
            out.append((e.kind, e.node))
            continue
        if (isinstance(run.game.game, GameTree) and out and out[-1] == ("leaf", e.node)
                and e.player is not None and e.player not in asked):
            asked.add(e.player)
            continue
        out.append(("leaf", e.node))
        asked = {e.player}
    return out


def leaves(run: Run) -> list[Hashable]:
    return [n for kind, n in steps(run) if kind == "leaf"]


def _short(case: Case, node: Any) -> str:
    return str(node) if case.is_tree else f"({node})"


def _show_step(case: Case) -> Callable[[tuple], str]:
    return lambda step: f"{'generate' if step[0] == 'generate' else 'value'} {_short(case, step[1])}"


def _notes(name: str) -> kit.Notes | None:
    """Shallow pruning is written down with its bounds; the other searches from the model's own trace."""
    if not name.endswith("maxn_shallow"):
        return None
    return lambda case: explainer.shallow_notes(case.game, case.state, *case.args)[1]


class Group:
    """One test group on one submission: its correct model, its mistake models and what it saw so far."""

    def __init__(self, name: str, student: Callable[..., Any], cases: list[Case], correct: Callable[..., Any],
                 mistakes: list[kit.Mistake], advice: str):
        self.name, self.student, self.cases = name, student, cases
        self.correct, self.mistakes, self.advice = correct, mistakes, advice
        self.seen: list[tuple[Case, Run]] = []

    def hint(self, case: Case, mine: Run, advice: str) -> str:
        """Explained on this case; a mistake is named only when its model also reproduces every other case of the
        group (those passed before it and all after it: a few cases can agree with a model by chance)."""
        i = self.cases.index(case)
        more = kit.observe(self.student, self.cases[i + 1:])
        return kit.explain(case, mine, self.correct, self.mistakes, history=self.seen + more, steps=steps,
                           show_step=_show_step(case), advice=advice, notes=_notes(self.name), descent=self.descent)

    def descent(self, case: Case) -> explainer.Descent | None:
        """How to find the deepest node whose value is wrong (not for shallow pruning, whose values are partial)."""
        def student(node: Any) -> Any:
            return common.call(self.student, case.game, node, *case.args, where=f"on {case.name}")

        if self.name.startswith("expectimax"):
            return explainer.expectimax_descent(case.game, student)
        if self.name.startswith("maxn_value"):
            return explainer.maxn_descent(case.game, student, lambda n: ref.maxn_value(case.game, n))
        return None

    def compare(self, case: Case, check_result: Callable[..., None]) -> None:
        """Result (exact type), leaves in order, no leaf twice, children generated in order."""
        mine, want = kit.run_student(self.student, case), kit.run_model(self.correct, case)
        pic = kit.picture(case)
        check_result(self, case, mine, want.result, pic)
        got_leaves, exp_leaves = leaves(mine), leaves(want)
        twice = [n for n in dict.fromkeys(got_leaves) if got_leaves.count(n) > 1] if case.is_tree else []
        if twice:
            common.fail(f"On {case.name} your search valued the leaf {_short(case, twice[0])} more than once.",
                        "a leaf valued twice: store the value a recursive call returns instead of calling it "
                        "again", pic)
        if exp_leaves != got_leaves:
            raise common.CheckFailed(common.sequence_message(
                "The leaves your search valued (in order)", [_short(case, n) for n in exp_leaves],
                [_short(case, n) for n in got_leaves], f"on {case.name}", pic,
                self.hint(case, mine, self.advice or "Visit the children in actions() order (at a chance node, "
                                                     "in outcomes() order) and value each leaf once.")))
        exp_gen, got_gen = want.trace.generated(), mine.trace.generated()
        if exp_gen != got_gen:
            raise common.CheckFailed(common.sequence_message(
                "The children your search generated with result() (in order)", [_short(case, n) for n in exp_gen],
                [_short(case, n) for n in got_gen], f"on {case.name}", pic,
                "generate each child once, with game.result(state, action), in actions() order"))
        self.seen.append((case, mine))


def number_result(group: Group, case: Case, mine: Run, expected: Any, pic: str) -> None:
    got = mine.result
    common.expect_number(got, f"{group.name.split(':')[0]} on {case.name}")
    if not common.same(got, expected):
        advice = ("At a chance node take sum(p * value) over game.outcomes(state); MAX and MIN nodes as in "
                  "minimax, from the root player's point of view.")
        if type(got) is int and type(expected) is float:
            advice = ("Your function returned a whole number (int) where the expectation is a float: look for "
                      "integer division (//) or int() at chance nodes. " + advice)
        common.fail(f"expectimax_value on {case.name}: {kit.expected_text(case, expected)}, yours returned {got!r}.",
                    group.hint(case, mine, advice), pic)


def vector_result(group: Group, case: Case, mine: Run, expected: Any, pic: str) -> None:
    got, name = mine.result, group.name.split(":")[0]
    if type(got) is not tuple:
        common.fail(f"{name} on {case.name} should return a tuple (like game.utilities(leaf)), "
                    f"but it returned {type(got).__name__}: {got!r:.80}")
    if not common.same(got, expected):
        advice = ("At each node the player to move picks the first child whose entry for her is largest; a "
                  "leaf's vector is game.utilities(state).")
        if len(got) == len(expected) and sorted(got) == sorted(expected):
            advice = ("Your vector has the right numbers in another order: entry i must be the utility of "
                      "game.players[i]; return the leaf's game.utilities(state) unchanged.")
        common.fail(f"{name} on {case.name}: {kit.expected_text(case, expected)}, yours returned {got!r}.",
                    group.hint(case, mine, advice), pic)


def _run_group(group: str, student: Callable[..., Any], correct: Callable[..., Any], mistakes: list[kit.Mistake],
               check_result: Callable[..., None], function: str, advice: str = "") -> int:
    todo = data.cases(group)
    g = Group(f"{function}:{group}", student, todo, correct, mistakes, advice)
    for case in todo:
        g.compare(case, check_result)
    return len(todo)


def check_expectimax_trees(expectimax_value: Callable[..., Any]) -> int:
    """expectimax_value on trees with chance nodes: value, leaves in order, children generated."""
    return _run_group("expectimax_trees", expectimax_value, ref.expectimax_value, ref.EXPECTIMAX_MISTAKES,
                      number_result, "expectimax_value")


def check_expectimax_dice(expectimax_value: Callable[..., Any]) -> int:
    """expectimax_value on positions of PigRace (same player again after a roll, weighted dice)."""
    return _run_group("expectimax_dice", expectimax_value, ref.expectimax_value, ref.EXPECTIMAX_MISTAKES,
                      number_result, "expectimax_value")


def check_maxn_trees(maxn_value: Callable[..., Any]) -> int:
    """maxn_value on three-player trees without ties, from the root and from inner nodes."""
    return _run_group("maxn_trees", maxn_value, ref.maxn_value, ref.MAXN_MISTAKES, vector_result, "maxn_value")


def check_maxn_turns(maxn_value: Callable[..., Any]) -> int:
    """maxn_value with ties (first best child) and turn orders other than P1, P2, P3."""
    return _run_group("maxn_turns", maxn_value, ref.maxn_value, ref.MAXN_MISTAKES, vector_result, "maxn_value")


def check_maxn_shallow(maxn_shallow_value: Callable[..., Any]) -> int:
    """maxn_shallow_value: the max^n vector, and exactly the leaves shallow pruning values."""
    return _run_group("maxn_shallow", maxn_shallow_value, ref.maxn_shallow_value, ref.SHALLOW_MISTAKES,
                      vector_result, "maxn_shallow_value",
                      "After each child of a node of player j whose parent is sure of `bound` for its own player, "
                      "stop when best[j] >= max_sum - bound; pass each child the parent's best entry so far.")


#: Each group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {
    "expectimax_trees": (data.expectimax_trees, ref.expectimax_value),
    "expectimax_dice": (data.dice, ref.expectimax_value),
    "maxn_trees": (data.maxn_trees, ref.maxn_value),
    "maxn_turns": (data.turn_trees, ref.maxn_value),
    "maxn_shallow": (data.shallow_trees, ref.maxn_shallow_value),
}
