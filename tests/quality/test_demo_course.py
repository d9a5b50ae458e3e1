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
