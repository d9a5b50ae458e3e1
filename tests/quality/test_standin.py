"""The stand-in student measure (`coursetools.quality.standin`): what a stand-in reads, and how a fix is scored."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from coursetools.quality.blind import BATCHES, batch_folder, judged_path, read_judged
from coursetools.quality.standin import (changed_sections, check_fixes, measured_entries, points_lost, prepare, rates,
                                         student_view, without_comments)
from coursetools.quality.submission import parse_answers

ROOT = Path(__file__).resolve().parents[2]


def test_without_comments_keeps_code_sections_and_docstrings():
    source = ('# Entry x: the mistake is told here\n# Mistake: sorted the wrong way\n\n# %% f\n'
              'def f(xs):\n    """Sorted, smallest first."""\n    # largest first, by mistake\n'
              '    return sorted(xs, reverse=True)  # oops\n\n# %% g\ng = 1\n')
    out = without_comments(source)
    assert "mistake" not in out.lower() and "oops" not in out and "largest" not in out
    assert out.startswith("# %% f\n") and "\n# %% g\n" in out
    assert '"""Sorted, smallest first."""' in out
    namespace: dict = {}
    exec(compile(out, "fix", "exec"), namespace)
    assert namespace["f"]([2, 1, 3]) == [3, 2, 1] and namespace["g"] == 1


def test_points_lost_adds_up_every_cell_heading():
    text = "== test_a (0/3) ==\nAssertionError: no\n\n== test_b (1.5/2) ==\nCheckFailed: no\n"
    assert points_lost(text) == 3.5
    assert points_lost("") == 0


def test_a_stand_in_reads_the_entry_without_its_header_and_the_message_as_graded(tmp_path):
    batch = BATCHES[-1]
    labs = sorted(p.name for p in (ROOT / "bank" / batch).iterdir() if p.is_dir())
    n = prepare(ROOT, tmp_path, labs, batch)
    assert n == sum(len(measured_entries(ROOT, lab, batch)) for lab in labs) > 0
    for lab in labs:
        folder = batch_folder(ROOT, lab, batch)
        for entry in measured_entries(ROOT, lab, batch):
            code = (tmp_path / lab / f"{entry}.py").read_text()
            ast.parse(code)  # still a program
            assert "Mistake:" not in code and "First wrong step" not in code and "#" not in code.replace("# %% ", "")
            judged = read_judged(judged_path(folder, entry))
            assert judged.verdict not in ("correct", "missed", "full") and not entry.startswith("ok_")
            assert (tmp_path / lab / f"{entry}.message.txt").read_text().strip() == judged.message.strip()
            assert student_view(ROOT, lab, batch, entry)[0] == code


def test_every_stored_fix_has_its_result_and_the_rates_count_them():
    for batch in BATCHES:
        labs = sorted(p.name for p in (ROOT / "bank" / batch).iterdir() if p.is_dir())
        counts = rates(ROOT, batch, labs)
        for lab in labs:
            fixes = batch_folder(ROOT, lab, batch) / "fixes"
            stored = sorted(p.stem for p in fixes.glob("*.py")) if fixes.is_dir() else []
            assert all((fixes / f"{e}.txt").is_file() for e in stored), f"{batch}/{lab}: a fix was never graded"
            assert counts[lab]["waiting"] == len(measured_entries(ROOT, lab, batch)) - len(stored)


@pytest.mark.slow
@pytest.mark.bank
def test_lab01s_stored_fixes_grade_as_recorded():
    """The stored results are what grading the stored fixes gives (one lab, through nbgrader: the others are
    reproduced by ``python -m coursetools standin --grade``)."""
    batch, lab = BATCHES[-1], "01_game_trees"
    results = check_fixes(ROOT, lab, batch)
    assert results, f"{batch}/{lab} has no stored fix"
    for r in results:
        stored = (batch_folder(ROOT, lab, batch) / "fixes" / f"{r.entry}.txt").read_text()
        assert stored.split("\n\n", 1)[0] == r.text().split("\n\n", 1)[0], r.entry


def test_a_fix_is_stored_as_the_sections_it_changed_with_the_stand_ins_first_lines():
    view = "# %% f\ndef f():\n    return 1\n\n# %% g\ndef g():\n    return 2\n"
    fix = "# fix: g returned 2\n# clear: yes\n# %% f\ndef f():\n    return 1\n\n# %% g\ndef g():\n    return 3\n"
    stored = changed_sections(view, fix)
    assert stored.startswith("# fix: g returned 2\n# clear: yes\n")
    assert parse_answers(stored) == {"g": "def g():\n    return 3\n"}
    assert "# %% " not in changed_sections(view, "# fix: nothing\n" + view)
