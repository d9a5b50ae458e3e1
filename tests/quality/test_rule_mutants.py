"""The rule mutants of `bank/rules/` (`coursetools.quality.rulemutants`), checked without grading.

Every rule of every lab's rule table has its mutant, each file names a rule of its lab (or is the author's correct
lab, ``ok_base``), holds answers only for solution cells of the lab (the rule's own function), and has its row in
``entries.csv``; every rule's function has test cells of its own. Grading them is ``make mutants`` (nbgrader, about
a minute a lab).
"""

from __future__ import annotations

import csv
from pathlib import Path

import nbformat
import pytest

from coursetools.labs import LABS
from coursetools.quality.bank import parse_entry
from coursetools.quality.rulemutants import BASE, cells_of_groups, folder, own_cells, rule_table
from coursetools.quality.submission import solution_ids

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lab", LABS)
def test_every_rule_has_a_mutant_for_its_own_function_only(lab):
    here = folder(ROOT, lab)
    rules = rule_table(lab)
    files = {p.stem: p for p in here.glob("*.py")}
    assert BASE in files, f"{here}: the author's correct lab ({BASE}.py) is missing"
    assert sorted(set(rules) - set(files)) == [], "rules without a mutant"
    assert sorted(set(files) - set(rules) - {BASE}) == [], "mutants that name no rule"
    release = nbformat.read(ROOT / "release" / lab / f"{lab}.ipynb", as_version=4)
    cells = set(solution_ids(release))
    for path in files.values():
        answers = parse_entry(path)
        assert answers and set(answers) <= cells, f"{path.name}: sections {sorted(answers)}, cells {sorted(cells)}"
    with open(here / "entries.csv", newline="") as f:
        rows = {row["entry"]: row for row in csv.DictReader(f)}
    assert set(rows) == set(files), "entries.csv and the files differ"
    groups = cells_of_groups(ROOT / "source" / lab / f"{lab}.ipynb")
    for rule in rules.values():
        assert own_cells(rules, groups, rule.function), f"{rule.id}: {rule.function} has no test cell of its own"


@pytest.mark.slow
@pytest.mark.bank
def test_lab02_rule_mutants_each_lose_points_in_their_own_tests_only_with_their_judged_messages():
    """`make mutants`' rule pass, run for real on one lab (nbgrader, the sandbox): lab 02's author's lab gets full
    marks, and each of its mutants (one per rule of its table) loses points in its own function's tests only, with
    the message judged."""
    from coursetools.quality.rulemutants import check_rule_mutants, rule_mutants_table

    results, missing = check_rule_mutants(ROOT, "02_minimax")
    report = rule_mutants_table("02_minimax", results, missing)
    print(report)
    assert not missing and len(results) == len(rule_table("02_minimax")) + 1, report
    assert all(r.problem is None for r in results), report
