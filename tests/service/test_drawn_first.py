"""A self-check meets the cases drawn for it first; the final grading meets its cases as they are built.

The first tests run every lab's case builders as its groups see them (`kit.DrawnFirst`), with a secret seed: without
`COURSE_SELFCHECK` each list is the builder's own object, in its own order; with it, the drawn (``secret-*``) cases
come first and nothing is added or lost. The last ones grade bank entries: through `check_notebook` (the self-check)
the explanation is about a drawn case and holds none of the fixed hidden cases' names, and through the final
grading, with the same secret seed and no flag, an entry still fails where ``expected.csv`` says, with its hint, on
a fixed case as before.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from coursetools.checks import common, kit
from coursetools.course.labfiles import solution_answers
from coursetools.quality.bank import grade_entries, parse_entry, read_expected
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.toycourse import make_lab_course
from coursetools.service import selfcheck

ROOT = Path(__file__).resolve().parents[2]
SECRET = "instructors-secret-seed-4711"

#: One builder of each lab, as its groups call it: (lab package, how the groups' `data` is called).
BUILDERS: list[tuple[str, Callable[[Any], list]]] = [
    ("lab01", lambda data: data.games("count_nodes")),
    ("lab02", lambda data: data.CASES["value_trace"]()),
    ("lab03", lambda data: data.cases("deep")),
    ("lab04", lambda data: data.ordering("ordered_value")),
    ("lab05", lambda data: data.decision_cases()),
    ("lab06", lambda data: data.cases("maxn_turns")),
    ("lab07", lambda data: data.rollouts()),
    ("lab08", lambda data: data.positions()),
]


def _ids(items: list) -> list[str]:
    return [kit._case_of(x).id for x in items]


@pytest.mark.parametrize("lab, build", BUILDERS, ids=[b[0] for b in BUILDERS])
def test_final_grading_meets_cases_as_built(monkeypatch, lab, build):
    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    monkeypatch.delenv(common.SELFCHECK_ENV, raising=False)
    groups = importlib.import_module(f"coursetools.checks.{lab}.groups")
    module = importlib.import_module(f"coursetools.checks.{lab}.cases")
    assert isinstance(groups.data, kit.DrawnFirst)
    seen, built = build(groups.data), build(module)
    assert _ids(seen) == _ids(built) and any(i.startswith("secret") for i in _ids(seen))
    assert not kit.is_hidden(kit._case_of(seen[0]))  # the fixed cases first, as the final grading always ran them
    sample = list(built)
    assert kit.drawn_order(sample) is sample  # not even a copy


@pytest.mark.parametrize("lab, build", BUILDERS, ids=[b[0] for b in BUILDERS])
def test_selfcheck_meets_drawn_cases_first(monkeypatch, lab, build):
    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    monkeypatch.setenv(common.SELFCHECK_ENV, "1")
    groups = importlib.import_module(f"coursetools.checks.{lab}.groups")
    module = importlib.import_module(f"coursetools.checks.{lab}.cases")
    seen, built = _ids(build(groups.data)), _ids(build(module))
    drawn = [i for i in built if i.startswith("secret")]
    assert drawn and seen == drawn + [i for i in built if not i.startswith("secret")]


# --- through the real pipeline --------------------------------------------------------------------------------------

#: Blind bank entries whose visible tests pass in a cell whose hidden tests fail: (lab, entry, that test cell).
ENTRIES = [
    ("02_minimax", "value_negamax_root_utility", "test_value_second_player"),
    ("03_alphabeta", "ab_cut_tests_swapped", "test_deep"),
    ("06_beyond_two_players", "exp_integer_average", "test_expectimax_trees"),
]


def fixed_names(lab: str) -> list[str]:
    """Names of the lab's fixed hidden cases (every group's, seed or not) that its release notebook does not show."""
    package = {"02_minimax": "lab02", "03_alphabeta": "lab03", "06_beyond_two_players": "lab06"}[lab]
    groups = importlib.import_module(f"coursetools.checks.{package}.groups")
    module = importlib.import_module(f"coursetools.checks.{package}.cases")
    saved = os.environ.pop("COURSE_SECRET_SEED", None)
    try:
        names: set[str] = set()
        for make, _ in groups.GOLDEN.values():
            names |= {kit._case_of(x).name for x in make() if kit._case_of(x) is not None}
        if hasattr(module, "cases") and hasattr(module, "GROUPS"):
            names |= {c.name for g in module.GROUPS for c in module.cases(g)}
    finally:
        if saved is not None:
            os.environ["COURSE_SECRET_SEED"] = saved
    visible = (ROOT / "release" / lab / f"{lab}.ipynb").read_text()
    return sorted(n for n in names if len(n) >= 10 and n not in visible and not n.startswith("secret"))


@pytest.mark.slow
@pytest.mark.bank  # bank entries through the real grader, about a minute each: with the banks (make banks)
@pytest.mark.parametrize("lab, entry, cell", ENTRIES, ids=[e[1] for e in ENTRIES])
def test_selfcheck_explains_a_drawn_case(tmp_path, monkeypatch, lab, entry, cell):
    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    monkeypatch.delenv(common.SELFCHECK_ENV, raising=False)  # the worker's own process: the flag is the scratch's
    course = make_lab_course(tmp_path / "course", lab, root=ROOT)
    answers = solution_answers(ROOT / "source" / lab / f"{lab}.ipynb")
    answers.update(parse_answers((ROOT / "bank" / "blind" / lab / f"{entry}.py").read_text()))
    notebook = build_submission(course / "release" / lab / f"{lab}.ipynb", answers, tmp_path / "nb.ipynb")
    answer = selfcheck.check_notebook(course, lab, "ada", notebook.read_bytes(), f"check-{entry[:40]}")
    assert answer["refused"] is None, answer
    cells = {c["cell"]: c for c in answer["cells"]}
    failed = cells[cell]
    assert failed["verdict"] == "failed" and failed["visible"] is None, failed
    text = failed["explanation"] or ""
    assert re.match(r"^[A-Za-z_][\w ()]* on (?:a |the )?secret\b", text), text  # about a case drawn for this check
    assert not text.startswith(selfcheck.NOT_SHOWN)
    assert failed["hidden"]["unit"] == "checks" and failed["hidden"]["passed"] < failed["hidden"]["of"]
    whole = json.dumps(answer)  # a fixed case's name, not the tail of a drawn one's ("secret random case #2")
    leaked = [n for n in fixed_names(lab) if re.search(r"(?<!secret )" + re.escape(n), whole)]
    assert not leaked, leaked
    for c in cells.values():
        if c["verdict"] == "passed":
            assert c["hidden"]["unit"] == "cases" and c["hidden"]["passed"] == c["hidden"]["of"] >= 2, c


def test_a_fixed_case_after_the_drawn_ones_is_withheld_in_plain_words():
    message = ("minimax_value on the 16-leaf tree: expected 7, yours returned 8.\nHint: at P2.0 the correct search "
               "held 7\nKnown mistake (its model reproduces all 3 cases): players not alternating")
    shown = selfcheck._explanation(message)
    assert shown.startswith("Every case drawn for this check before it passed, but a case of the final grading "
                            "differs: a self-check withholds its explanation.")
    assert "16-leaf" not in shown and "expected 7" not in shown and "P2.0" not in shown
    assert "players not alternating" in shown


def test_final_grading_with_a_seed_is_unchanged(monkeypatch):
    """The final grading (no flag) with a secret seed: the bank entry still fails where expected.csv says, with its
    hint, on a fixed case (the first in the built order), and the solution passes."""
    lab, entry = "03_alphabeta", "bounds_reset_each_level"
    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    monkeypatch.delenv(common.SELFCHECK_ENV, raising=False)
    solution = solution_answers(ROOT / "source" / lab / f"{lab}.ipynb")
    answers = {"solution": solution, entry: {**solution, **parse_entry(ROOT / "bank" / lab / f"{entry}.py")}}
    outcomes = grade_entries(ROOT, lab, answers, jobs=1)
    expected = read_expected(ROOT / "bank" / lab / "expected.csv")[entry]
    scores = outcomes[entry].scores
    assert {g for g, (s, m) in scores.items() if s < m} == set(expected.failing)
    text = "\n".join(outcomes[entry].outputs[g] for g in expected.failing)
    assert expected.hint in text and "secret" not in text
    assert all(s == m for s, m in outcomes["solution"].scores.values())
