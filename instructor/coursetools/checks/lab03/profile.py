"""How one mistake costs points once in lab 03: the submission's profile, found only when needed.

A submission's *profile* is the combination of classic mistakes (`reference.Flags`) whose model does
exactly what it does (the same ordered steps, the same result) on a few probes (`cases.probes`).
A group compares a submission with the correct model first; only at a first difference does it
find the profile (`kit.Judge.settle`) and compare again with the model that keeps the mistakes
*other* groups grade, so a correct submission runs no probe. A mistake the models do not know
leaves the profile unknown, and the group then compares with the correct model itself.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from functools import partial
from typing import Any, Callable

from .. import common, explainer, kit
from ..kit import Case, Run
from . import cases as data
from . import reference as ref
from .reference import CORRECT, Flags


def run_model(group: str, case: Case, flags: Flags) -> Run:
    """The model of `group` written with `flags`, run on a traced copy of the case."""
    run = kit.run_model(ref.model(group, flags), case)
    if run is None:
        raise RuntimeError(f"the model {flags.changed()} fails on case {case.id} (a grader set-up problem)")
    return run


def _observe(fn: Callable[..., Any], cases: list[Case], evidence: list | None) -> list[Run] | None:
    """The student's runs on the probes (None when one raises), also added to `evidence`."""
    runs = kit.observe(fn, cases)
    if evidence is not None:
        evidence += runs
    return [run for _, run in runs] if len(runs) == len(cases) else None


def _matches(group: str, seen: list[Run], cases: list[Case], flags: Flags) -> bool:
    mistake = kit.Mistake("profile", "", ref.model(group, flags))
    return all(kit.reproduces(mistake.model, case, run) for case, run in zip(cases, seen))


def _structure(seen: list[Run], probe: Case) -> Flags:
    """Order, eager generation and double search, read from the walk on the first probe."""
    gens = seen[0].trace.generated()
    kids = probe.game.children(probe.state)
    order = "reversed" if gens and gens[0] == kids[-1] else "actions"
    eager = len(gens) >= 2 and gens[0] in kids and gens[1] in kids
    return Flags(order=order, eager=eager, recompute=len(gens) != len(set(gens)))


def value_profile(alphabeta_value: Callable[..., Any], evidence: list | None = None) -> Flags | None:
    """The mistakes that reproduce what `alphabeta_value` does on the probes, or None (the runs on the
    probes are added to `evidence`)."""
    probes = data.probes()
    seen = _observe(alphabeta_value, probes, evidence)
    if seen is None:
        return None
    for structure in (_structure(seen, probes[0]), CORRECT):
        for returns in ("value", "move"):
            for flags in ref.candidates(replace(structure, returns=returns)):
                if _matches("value", seen, probes, flags):
                    return flags
    return None


def decision_profile(alphabeta_decision: Callable[..., Any], vprofile: Flags | None,
                     evidence: list | None = None) -> Flags | None:
    """The mistakes that reproduce what `alphabeta_decision` does, its search being the value's or correct."""
    probes = data.decision_probes()
    seen = _observe(alphabeta_decision, probes, evidence)
    if seen is None:
        return None
    bases = [b for b in (vprofile, CORRECT) if b is not None] + [Flags(perspective=p) for p in ("initial", "first")]
    for base in bases:
        for returns, root_alpha, tie, early, order in itertools.product(
                ("move", "value"), (True, False), ("first", "last"), (False, True), ("actions", "reversed")):
            flags = replace(base.fixed("returns"), decision_returns=returns, root_alpha=root_alpha, tie=tie,
                            early_return=early, root_order=order)
            if _matches("decision", seen, probes, flags):
                return flags
    return None


def expected_flags(profile: Flags | None, group: str, vprofile: Flags | None = None) -> Flags:
    """The profile with the mistakes graded by `group` put right (the reference for an unknown profile)."""
    if profile is None:
        return CORRECT
    flags = ref.put_right(group, profile)
    if group == "decision" and vprofile is not None:
        # a perspective shared with alphabeta_value is graded there; the decision's own here
        flags = replace(flags, perspective=vprofile.perspective)
    return flags


#: How each mistake is named in the note under an adjusted expectation.
WORDS = {
    ("strict", True): "strict pruning", ("bounds", "stale"): "updated bounds not passed down",
    ("bounds", "none"): "no pruning",
    ("bounds", "fresh"): "a fresh window for each child", ("bounds", "reset"): "bounds reset at each level",
    ("fail_hard", True): "fail-hard", ("v_window", True): "v started at alpha or beta",
    ("window", "ignore"): "the caller's window ignored",
    ("perspective", "initial"): "values for the first mover", ("perspective", "first"): "values for the first player",
    ("order", "reversed"): "children right to left", ("eager", True): "all children generated first",
    ("recompute", True): "children searched twice", ("returns", "move"): "alphabeta_value returns a move",
    ("root_alpha", False): "no alpha passed at the root", ("tie", "last"): "the last best move",
    ("early_return", True): "return inside the loop", ("decision_returns", "value"): "the decision returns a value",
    ("root_order", "reversed"): "root moves right to left",
}


def adjusted_note(expected: Flags) -> str:
    """A line saying which other mistakes the expected results keep (graded in other tests)."""
    other = expected.changed()
    if not other:
        return ""
    listed = ", ".join(WORDS.get((k, v), f"{k}={v}") for k, v in other.items())
    return (f"\n(The expected results above keep the other mistakes found in your search: {listed}. Other "
            "tests grade those, so each mistake costs points once.)")


def make_judge(group: str, student: Callable[..., Any], cases: list[Case],
          profiler: Callable[[list], Flags | None], value_side: Callable[[], Flags | None] = lambda: None) -> kit.Judge:
    """The judge of `group`: the correct model first; after a difference, the submission's profile
    (`profiler(evidence)`) with this group's mistakes put right."""

    def expected(evidence: list) -> Flags:
        profile = profiler(evidence)
        return expected_flags(profile, group, value_side() if profile else None)

    judge = kit.Judge(student, cases, CORRECT, partial(ref.model, group), partial(ref.group_mistakes, group),
                      expected, adjusted_note)
    # a decision may ask its children's values for the opponent and negate them: only a value's leaves have one player
    judge.notes, judge.players = notes, group not in ref.DECISION_GROUPS
    judge.proof_cases = len(cases)  # a mistake is named only when its model reproduces the whole group
    if group == "value":
        judge.descent = lambda case: explainer.minimax_descent(
            case.game, lambda node: common.call(student, case.game, node, where=f"on {case.name}"))
    return judge


def notes(case: Case) -> list | None:
    """The course's alpha-beta on `case`, with its window and value so far at every step."""
    try:
        return explainer.alphabeta_notes(case.game, case.state, *case.args)[1]
    except Exception:  # noqa: BLE001 - without notes, the model's own trace is annotated
        return None
