"""Each lab's rule table (`checks/labNN/rules.py`) against its release notebook and its hidden cases.

- every quoted sentence is in the release notebook (white space aside);
- every graded function of the notebook has rules, and every rule lists at least one case;
- every listed case fails on its own for the smallest program that breaks that rule and nothing else
  (written here, per row, in `rule_breakers`), and passes on its own for the correct functions.
"""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path

import pytest

from coursetools.checks.common import CheckFailed
from coursetools.checks.rules import alone, plain
from coursetools.labs import LABS

import rule_breakers

ROOT = Path(__file__).resolve().parents[2]


def _room(lab: str) -> str:
    return f"lab{lab[:2]}"


def _tables() -> dict:
    out = {}
    for lab in LABS:
        try:
            out[lab] = importlib.import_module(f"coursetools.checks.{_room(lab)}.rules")
        except ModuleNotFoundError:
            continue
    return out


TABLES = _tables()
ROWS = [(lab, rule) for lab, table in TABLES.items() for rule in table.RULES]


def _notebook(lab: str) -> dict:
    return json.loads((ROOT / "release" / lab / f"{lab}.ipynb").read_text())


def _text(lab: str) -> str:
    return plain(" ".join("".join(c["source"]) for c in _notebook(lab)["cells"]))


def _graded_functions(lab: str) -> set[str]:
    """The grade ids of the notebook's code solution cells that a test group takes: the graded functions (and
    classes); a cell no group grades (lab 03's minimax pasted from lab 02) is left out."""
    checks = importlib.import_module(f"coursetools.checks.{_room(lab)}")
    taken = {p for name in dir(checks) if name.startswith("check_")
             for p in inspect.signature(getattr(checks, name)).parameters}
    return {c["metadata"]["nbgrader"]["grade_id"] for c in _notebook(lab)["cells"]
            if c["cell_type"] == "code" and c.get("metadata", {}).get("nbgrader", {}).get("solution")} & taken


def test_every_lab_has_a_rule_table():
    assert sorted(TABLES) == sorted(LABS)


@pytest.mark.parametrize("lab", sorted(TABLES))
def test_the_table_covers_every_graded_function_with_unique_ids(lab):
    rules = TABLES[lab].RULES
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids)), f"{lab}: a rule id is used twice"
    missing = _graded_functions(lab) - {r.function for r in rules}
    assert not missing, f"{lab}: no rule for the graded function(s) {sorted(missing)}"
    checks = importlib.import_module(f"coursetools.checks.{_room(lab)}")
    for r in rules:
        assert hasattr(checks, f"check_{r.group}"), f"{lab} {r.id}: no test group {r.group}"
        assert r.cases, f"{lab} {r.id}: the rule has no case"


@pytest.mark.parametrize("lab", sorted(TABLES))
def test_every_sentence_is_in_the_release_notebook(lab):
    text = _text(lab)
    gone = [r.id for r in TABLES[lab].RULES if plain(r.sentence) not in text]
    assert not gone, f"{lab}: these rules quote a sentence that is not in release/{lab}: {gone}"


@pytest.mark.parametrize("lab", sorted(TABLES))
def test_every_rule_has_its_breaker(lab):
    breakers = rule_breakers.BREAKERS[lab]
    assert sorted(breakers) == sorted(r.id for r in TABLES[lab].RULES)


def _run(lab: str, group: str, functions: dict, case: str) -> tuple[str, dict]:
    """('' or the failure's message, the ids met) of `group` run on the case `case` alone."""
    checks = importlib.import_module(f"coursetools.checks.{_room(lab)}")
    check = getattr(checks, f"check_{group}")
    names = inspect.signature(check).parameters
    args = {n: functions[n] for n in names if n in functions}
    beside = set(getattr(TABLES[lab], "COMPANIONS", {}).get(group, ()))
    with alone({case} | beside, getattr(TABLES[lab], "CONSTANTS", ()),
               getattr(TABLES[lab], "ALONE", None)) as met:
        try:
            check(**args)
        except CheckFailed as failure:
            return str(failure) or "failed", met
    return "", met


@pytest.mark.parametrize("lab,rule", ROWS, ids=[f"{lab[:2]}-{rule.id}" for lab, rule in ROWS])
def test_each_listed_case_fails_alone_when_the_rule_is_broken(lab, rule):
    correct = rule_breakers.correct(lab)
    broken = {**correct, **rule_breakers.BREAKERS[lab][rule.id]()}
    for case in rule.cases:
        passed, met = _run(lab, rule.group, correct, case)
        assert case in met, f"{lab} {rule.id}: group {rule.group} has no case {case!r}"
        assert passed == "", f"{lab} {rule.id}: the correct functions fail {case!r} alone: {passed}"
        failed, _ = _run(lab, rule.group, broken, case)
        assert failed, f"{lab} {rule.id}: case {case!r} passes a program that breaks the rule"
        if rule.group in getattr(TABLES[lab], "COMPANIONS", {}):
            assert met[case] in failed, f"{lab} {rule.id}: the failure is not on {case!r} but beside it: {failed}"
