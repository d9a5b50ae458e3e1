"""Rule mutants: for each rule a lab's notebook states, a program that breaks that rule and nothing else.

``bank/rules/<lab>/<rule id>.py`` is an answers file (see `coursetools.quality.submission`) holding only the
function the rule binds, written from the rule's sentence and the release notebook by someone who never read the
checks or their cases; the lab's solution fills every other cell. ``ok_base.py`` is that author's own correct
lab, the ground their mutants were cut from, and must get full marks. ``entries.csv`` holds the author's words
for each mutant, as in the blind bank.

Each mutant is graded through nbgrader like a student's submission. It must lose points in its own function's
tests (the test cells whose hidden checks run the group of one of that function's rules, from the rule table),
and in no other test cell: a rule no case catches, or a mistake charged to another function, is reported. Its
message is judged as the blind bank's are, in ``<rule id>.judged.txt`` (`coursetools.quality.blind`).
``make mutants`` prints these results beside the code mutants'.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat

from coursetools.course.labfiles import solution_answers
from coursetools.grading.checker import parse_hidden, split_hidden
from coursetools.quality.bank import grade_entries, parse_entry
from coursetools.quality.blind import GOOD, Judged, judged_path, judgment_problem, message, read_judged, write_judged

if TYPE_CHECKING:
    from coursetools.checks.rules import Rule

BASE = "ok_base"


def folder(root: Path, lab: str) -> Path:
    """Where a lab's rule mutants live."""
    return root / "bank" / "rules" / lab


def rule_table(lab: str) -> dict[str, Rule]:
    """``{rule id: Rule}`` of a lab's rule table."""
    module = importlib.import_module(f"coursetools.checks.lab{lab[:2]}.rules")
    return {r.id: r for r in module.RULES}


def cells_of_groups(source: Path) -> dict[str, set[str]]:
    """``{group: test cells that run it}`` of a source notebook."""
    out: dict[str, set[str]] = {}
    for cell in nbformat.read(source, as_version=4).cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
            for call in parse_hidden(split_hidden(cell.source)[1] or ""):
                out.setdefault(call.group, set()).add(meta["grade_id"])
    return out


def own_cells(rules: dict[str, Rule], groups: dict[str, set[str]], function: str) -> set[str]:
    """The test cells that grade `function`: those running the group of one of its rules."""
    return {cell for r in rules.values() if r.function == function for cell in groups.get(r.group, ())}


@dataclass
class RuleResult:
    entry: str
    function: str
    total: tuple[float, float]
    lost_own: list[str]    # own test cells that lost points
    lost_other: list[str]  # other test cells that lost points
    message: str
    judged: Judged | None
    unobservable: str = ""  # why no grading run can see this way of breaking the rule (its table says)

    @property
    def problem(self) -> str | None:
        """What is wrong with this mutant's grading, or None."""
        if self.entry == BASE:
            got, maximum = self.total
            return None if got >= maximum else (f"the author's correct lab lost points ({got:g}/{maximum:g}): its "
                                                "mutants are not one rule away from a correct lab")
        if not self.lost_own and self.unobservable and not self.lost_other:
            return None
        if not self.lost_own:
            return "SURVIVES: loses no points in its own function's tests" + (
                f" (but in {', '.join(self.lost_other)})" if self.lost_other else "")
        if self.lost_other:
            return f"also charged in another function's tests: {', '.join(self.lost_other)}"
        return judgment_problem(self.judged, self.message)


def check_rule_mutants(root: Path, lab: str, write: bool = False) -> tuple[list[RuleResult], list[str]]:
    """Grade a lab's rule mutants through nbgrader: each result, and the rules that have no mutant.

    With `write`, every new or changed message is stored beside its mutant as unjudged."""
    here = folder(root, lab)
    rules = rule_table(lab)
    source = root / "source" / lab / f"{lab}.ipynb"
    files = sorted(here.glob("*.py"))
    strays = [p.stem for p in files if p.stem != BASE and p.stem not in rules]
    if strays:
        raise ValueError(f"{here}: {', '.join(strays)} name no rule of {lab}'s table")
    solution = solution_answers(source)
    outcomes = grade_entries(root, lab, {p.stem: {**solution, **parse_entry(p)} for p in files})
    groups = cells_of_groups(source)
    results = []
    for entry, outcome in outcomes.items():
        function = rules[entry].function if entry in rules else ""
        own = own_cells(rules, groups, function)
        lost = [cell for cell, (score, maximum) in outcome.scores.items() if score < maximum]
        text = message(outcome)
        judged = read_judged(judged_path(here, entry))
        if write and entry != BASE and lost and (judged is None or not judged.holds(text)):
            judged = Judged("unjudged", "", text, judged.stable if judged is not None else True)
            write_judged(judged_path(here, entry), judged)
        results.append(RuleResult(entry, function, outcome.total, [c for c in lost if c in own],
                                  [c for c in lost if c not in own], text, judged,
                                  rules[entry].unobservable if entry in rules else ""))
    missing = sorted(set(rules) - {p.stem for p in files})
    return results, missing


def rule_mutants_table(lab: str, results: list[RuleResult], missing: list[str]) -> str:
    """One summary line for the lab, then one line per mutant with what is wrong with it."""
    mutants = [r for r in results if r.entry != BASE]
    caught = sum(bool(r.lost_own) for r in mutants)
    good = sum(bool(r.judged and r.judged.verdict in GOOD and r.judged.holds(r.message)) for r in mutants)
    lines = [f"{lab} rule mutants: {len(mutants)} of {len(mutants) + len(missing)} rules have one, {caught} lose "
             f"points in their own function's tests, {sum(bool(r.lost_other) for r in mutants)} elsewhere too; "
             f"{good} messages judged named or pinpointed"]
    for r in results:
        verdict = r.judged.verdict if r.judged else "-"
        lines.append(f"  {'OK ' if r.problem is None else 'BAD'} {r.entry:34s} {r.total[0]:5g}/{r.total[1]:<5g} "
                     f"{verdict:10s} {' '.join(r.lost_own)}")
        if r.problem:
            lines.append(f"        ! {r.problem}")
        elif not r.lost_own and r.unobservable:
            lines.append(f"        survives, as its rule's row says no grading run can see it: {r.unobservable}")
    if missing:
        lines.append(f"  rules without a mutant: {', '.join(missing)}")
    return "\n".join(lines)
