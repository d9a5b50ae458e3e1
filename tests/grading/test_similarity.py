"""The similarity report on a class written for it: six solutions of lab 02's graded functions, each written
independently in its own style (``similarity/independent/``: no author saw another's), and four planted copies
(``similarity/planted/``: one renamed, one with its functions and methods reordered, one with comments added, one
with a function rewritten). Every planted pair ranks above every pair of independent authors, the report is the
same on every run (a fresh Python process each time, so string hashes differ), the released starter code does not
count, and student text reaches the page only escaped.
"""

from __future__ import annotations

import csv
import io
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from coursetools import course_root, tool_env
from coursetools.course.labfiles import solution_answers
from coursetools.grading.sanitize import problems
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.toycourse import write_course_config

HERE = Path(__file__).parent / "similarity"
LAB = "02_minimax"
OTHER = "01_game_trees"
PLANTED = {"renamed_author1": "author1", "reordered_author3": "author3", "commented_author2": "author2",
           "one_rewritten_author6": "author6"}
HOSTILE = "author5"  # also writes markup into a comment: the page must show it as text


def _submit(course: Path, lab: str, student: str, answers: dict[str, str]) -> None:
    build_submission(course / "release" / lab / f"{lab}.ipynb", answers,
                     course / "submitted" / student / lab / f"{lab}.ipynb")


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    root, folder = course_root(), tmp_path_factory.mktemp("similarity") / "course"
    for lab in (LAB, OTHER):
        shutil.copytree(root / "source" / lab, folder / "source" / lab)
        shutil.copytree(root / "release" / lab, folder / "release" / lab)
    write_course_config(folder, root, "")
    for path in sorted(HERE.glob("*/*.py")):
        answers = parse_answers(path.read_text())
        if path.stem == HOSTILE:
            answers["minimax_value"] += "\n# </pre><script>alert(1)</script><img src=x onerror=alert(2)>\n"
        _submit(folder, LAB, path.stem, answers)
    reference = solution_answers(root / "source" / OTHER / f"{OTHER}.ipynb")
    own = dict(reference, count_nodes="def count_nodes(game, state):\n    total = 1\n    if not game.is_terminal(state):\n"
               "        for move in game.actions(state):\n            total += count_nodes(game, game.result(state, move))\n"
               "    return total\n")
    for student, answers in (("author1", reference), ("renamed_author1", reference), ("author2", own)):
        _submit(folder, OTHER, student, answers)
    return folder


def _run(course: Path) -> tuple[str, str, subprocess.CompletedProcess]:
    """``coursetools similarity LAB`` in a fresh Python process (its string hashes differ from the last one's)."""
    proc = subprocess.run([sys.executable, "-m", "coursetools", "similarity", LAB], cwd=course, env=tool_env(),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = course / "exports"
    return (out / f"{LAB}-similarity.csv").read_text(), (out / f"{LAB}-similarity.html").read_text(), proc


@pytest.fixture(scope="module")
def runs(course) -> list[tuple[str, str, subprocess.CompletedProcess]]:
    return [_run(course), _run(course)]


def test_similarity_ranks_every_planted_pair_above_every_independent_pair_the_same_on_every_run(course, runs):
    (first_csv, first_html, proc), (second_csv, second_html, _) = runs
    rows = list(csv.DictReader(io.StringIO(first_csv)))
    assert list(rows[0])[:3] == ["student_a", "student_b", "score"]
    assert len(rows) == 10 * 9 // 2
    planted = {frozenset(p) for p in PLANTED.items()}
    ranks = {frozenset((r["student_a"], r["student_b"])): i for i, r in enumerate(rows)}
    assert sorted(ranks[p] for p in planted) == [0, 1, 2, 3], first_csv
    independent = [r for r in rows if frozenset((r["student_a"], r["student_b"])) not in planted]
    lowest_planted = min(float(rows[ranks[p]]["score"]) for p in planted)
    highest_independent = max(float(r["score"]) for r in independent)
    assert lowest_planted > highest_independent + 0.2, (lowest_planted, highest_independent)
    scores = [float(r["score"]) for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert (second_csv, second_html) == (first_csv, first_html)
    print(first_csv)  # the ranking, for the closing note
    assert "similarity, not proof" in proc.stdout
    for name in ("csv", "html"):
        mode = stat.S_IMODE((course / "exports" / f"{LAB}-similarity.{name}").stat().st_mode)
        assert mode == 0o600, oct(mode)


def test_similarity_page_is_inert_says_not_proof_and_marks_matches_side_by_side(runs):
    _, page, _ = runs[0]
    assert "Similarity, not proof." in page
    body = page.split("<body>", 1)[1]
    assert problems(body) == [], problems(body)
    assert "<script>" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    first = body.split("<div class=\"pair\">", 2)[1]
    assert first.count("<pre>") == 2 and "<mark>" in first


def test_similarity_leaves_the_starter_code_out_and_adds_the_other_labs(course, runs):
    from coursetools.grading.similarity import Work, compare_class, starter_code

    starter = starter_code(course, LAB)
    untouched = Work("a", starter), Work("b", starter)
    (pair,) = compare_class({w.student: w for w in untouched}, starter)
    assert pair.score == 0 and pair.tokens == 0  # two students who wrote nothing are not alike
    rows = {(r["student_a"], r["student_b"]): r for r in csv.DictReader(io.StringIO(runs[0][0]))}
    assert rows[("author1", "renamed_author1")]["other_labs"] == f"{OTHER}=1.000"
    assert rows[("author1", "author2")]["other_labs"].startswith(f"{OTHER}=")
    assert rows[("author3", "author4")]["other_labs"] == ""
    pair = rows[("author1", "renamed_author1")]
    assert float(pair["labs_mean"]) == pytest.approx((float(pair["score"]) + 1.0) / 2, abs=1e-3)
