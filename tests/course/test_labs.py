"""Every lab in source/: its release is in sync and leaks nothing, both versions run,
and its bug bank scores exactly as expected through the real nbgrader."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from coursetools.course.notebooks import pictures_without_alt
from coursetools.quality.bank import check_bank, table
from coursetools.quality.toycourse import make_lab_course
from coursetools.labs import LABS

ROOT = Path(__file__).resolve().parents[2]
BANKED = [lab for lab in LABS if (ROOT / "bank" / lab / "expected.csv").is_file()]
BLOCK = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.DOTALL)

pytestmark = pytest.mark.skipif(not LABS, reason="no labs in source/ yet")


def notebook(folder: str, lab: str) -> nbformat.NotebookNode:
    return nbformat.read(ROOT / folder / lab / f"{lab}.ipynb", as_version=4)


def execute(nb: nbformat.NotebookNode, cwd: Path) -> nbformat.NotebookNode:
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


def comparable(nb: nbformat.NotebookNode) -> list[tuple]:
    return [(c.cell_type, c.source, c.get("metadata", {}).get("nbgrader")) for c in nb.cells]


@pytest.mark.parametrize("lab", LABS)
def test_release_equals_a_fresh_generation(lab):
    with tempfile.TemporaryDirectory() as tmp:
        course = make_lab_course(Path(tmp) / "course", lab, root=ROOT)
        fresh = nbformat.read(course / "release" / lab / f"{lab}.ipynb", as_version=4)
    assert comparable(fresh) == comparable(notebook("release", lab)), (
        f"release/{lab} is out of date: run `make release` and commit the result")


@pytest.mark.parametrize("lab", LABS)
def test_release_holds_no_solution_or_hidden_test_line(lab):
    source = notebook("source", lab)
    outside, secret = set(), set()
    for cell in source.cells:
        inside = "\n".join(m.group(2) for m in BLOCK.finditer(cell.source))
        secret.update(ln.strip() for ln in inside.splitlines() if ln.strip())
        outside.update(ln.strip() for ln in BLOCK.sub("", cell.source).splitlines())
    private = secret - outside  # lines also written in the open are not secrets
    released = {ln.strip() for c in notebook("release", lab).cells for ln in c.source.splitlines()}
    leaked = sorted(private & released)
    assert not leaked, f"release/{lab} shows solution or hidden-test lines: {leaked[:5]}"


@pytest.mark.parametrize("lab", LABS)
def test_release_runs_with_only_not_implemented_errors(lab, tmp_path):
    nb = execute(notebook("release", lab), tmp_path)
    errors = [(i, o.ename) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for o in c.outputs if o.output_type == "error"]
    assert errors, "the release notebook should fail where the stubs are"
    unexpected = [(i, e) for i, e in errors if e != "NotImplementedError"]
    assert not unexpected, f"release/{lab}: errors other than the stubs' NotImplementedError: {unexpected}"


@pytest.mark.parametrize("lab", LABS)
def test_source_runs_clean_without_stderr(lab, tmp_path):
    nb = execute(notebook("source", lab), tmp_path)
    problems = []
    for i, cell in enumerate(nb.cells):
        for o in cell.get("outputs", []):
            if o.output_type == "error":
                problems.append(f"cell {i}: {o.ename}: {o.evalue}")
            if o.output_type == "stream" and o.name == "stderr":
                problems.append(f"cell {i} wrote to stderr: {o.text[:200]}")
        grading = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type == "code" and grading.get("grade") and not grading.get("solution"):
            # one line on success, then what the hidden tests say, their verdict last (the source runs them
            # in this kernel; tests/grading/test_feedback_convention.py checks the visible part of every release)
            lines = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream").splitlines()
            if not (lines[:1] == [f"{grading['grade_id']}: visible tests passed"] and len(lines) >= 2
                    and lines[-1].startswith("hidden tests of ")):
                problems.append(f"cell {i} ({grading['grade_id']}) printed {lines}")
    problems += [f"{where}: a picture without a text alternative" for where in pictures_without_alt(nb)]
    assert not problems, "\n".join(problems)


@pytest.mark.slow
@pytest.mark.bank
@pytest.mark.parametrize("lab", BANKED)
def test_bug_bank_scores_as_expected(lab):
    outcomes = check_bank(ROOT, lab)
    report = table(lab, outcomes)
    print(report)
    assert not any(o.problems for o in outcomes.values()), report
