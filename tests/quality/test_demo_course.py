"""``make demo`` grades its class in a course folder of its own and leaves the course's term alone."""

from __future__ import annotations

import csv
import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from coursetools import tool_env
from coursetools.quality.demo import TERM_STATE, make_demo_course, read_expected

ROOT = Path(__file__).resolve().parents[2]


def fingerprint(root: Path) -> dict[str, str]:
    """A checksum of each of the course's term files and folders ("absent" when missing)."""
    out = {}
    for name in TERM_STATE:
        path = root / name
        if not path.exists():
            out[name] = "absent"
            continue
        digest = hashlib.sha256()
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for f in files:
            digest.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes())
        out[name] = digest.hexdigest()
    return out


def test_demo_course_refuses_to_overlap_the_course(tmp_path):
    for bad in (ROOT, ROOT / "submitted", ROOT / "exports" / "demo", ROOT.parent):
        with pytest.raises(ValueError, match="overlap"):
            make_demo_course(ROOT, bad, ["01_game_trees"])


@pytest.mark.long
def test_make_demo_leaves_the_course_alone(tmp_path):
    """`python -m coursetools demo` (what `make demo` runs), on lab 01 only, into a scratch demo course."""
    before = fingerprint(ROOT)
    out = tmp_path / "demo-course"
    proc = subprocess.run([sys.executable, "-m", "coursetools", "demo", "--labs", "01_game_trees", "--jobs", "2",
                           "--out", str(out)], cwd=ROOT, env=tool_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert fingerprint(ROOT) == before
    assert f"the demo's results lie in its own course, {out}" in proc.stdout
    assert "demo: all scores as expected" in proc.stdout
    assert (out / "gradebook.db").is_file()
    assert (out / "feedback" / "perfect" / "01_game_trees" / "01_game_trees.html").is_file()
    with open(out / "exports" / "grades.csv", newline="") as f:
        exported = {(r["student_id"], r["assignment"]): float(r["raw_score"]) for r in csv.DictReader(f)}
    expected = {k: v for k, v in read_expected(ROOT / "demo" / "expected.csv").items() if k[1] == "01_game_trees"}
    assert {k: v for k, v in exported.items() if k in expected} == expected
    # Only what a course needs was copied: no other folder of the course came along.
    assert sorted(p.name for p in out.iterdir()) <= sorted(
        ["nbgrader_config.py", "source", "release", "submitted", "autograded", "feedback", "exports", "build",
         "gradebook.db"])


def _answer_cells(path: Path) -> dict[str, str]:
    import nbformat

    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as exc:  # the class's cut-short upload is not a notebook, on purpose
        return {"unreadable": type(exc).__name__}
    # what grading keeps of a submission: its answer cells (nbgrader puts the lab's own text and tests back)
    return {c.metadata.nbgrader.grade_id: c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("solution")}


def test_the_demo_class_is_built_from_the_labs_as_they_are(tmp_path):
    """The answer cells of demo/submissions are those `build_demo_class` writes from today's release, solutions and
    banks: a lab that gains a graded cell (or changes a solution) must have its demo class rebuilt, or `make demo`
    grades stale answers.
    Rebuild with ``python -c "from coursetools.quality.demo import build_demo_class; build_demo_class(ROOT)"``, then
    review and run ``python -m coursetools demo --update-expected``."""
    from coursetools.quality.demo import build_demo_class

    built = build_demo_class(ROOT, tmp_path)
    stale = []
    for path in built:
        kept = ROOT / "demo" / path.relative_to(tmp_path)
        if not kept.is_file() or _answer_cells(kept) != _answer_cells(path):
            stale.append(str(kept.relative_to(ROOT)))
    assert not stale, f"stale demo submissions (rebuild them as the docstring says): {stale}"
