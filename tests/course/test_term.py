"""A term's commands: checks frozen at hand-out, the exchange named before release, the reset, `make lab` as root."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from coursetools import tool_env
from coursetools.course.term import FROZEN, FROZEN_LOG, changed_checks, checks_files

ROOT = Path(__file__).resolve().parents[2]
LAB = "01_game_trees"


@pytest.fixture
def course(tmp_path):
    folder = tmp_path / "course"
    folder.mkdir()
    shutil.copy2(ROOT / "nbgrader_config.py", folder / "nbgrader_config.py")
    for sub in ("source", "release"):
        shutil.copytree(ROOT / sub / LAB, folder / sub / LAB)
    return folder


def coursetools(course: Path, *argv: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "coursetools", *argv], cwd=course, capture_output=True, text=True,
                          env=tool_env(**env), timeout=600)


def test_checks_fingerprint_covers_checks_and_test_cells(course):
    files = checks_files(course, LAB)
    assert any(name.startswith("checks/lab01/") for name in files)
    assert "checks/kit.py" in files
    assert any(name.startswith(f"source/{LAB}/{LAB}.ipynb#test_") for name in files)


def test_hand_out_refuses_without_an_exchange(course, tmp_path):
    config = tmp_path / "no-config"
    config.mkdir()
    proc = coursetools(course, "hand-out", LAB, JUPYTER_CONFIG_DIR=str(config))
    assert proc.returncode == 2 and "c.Exchange.root" in proc.stderr, proc.stderr
    assert not (course / FROZEN).exists(), "a refused hand-out freezes nothing"


def test_grading_with_changed_checks_is_refused_then_logged(course, tmp_path):
    proc = coursetools(course, "hand-out", LAB, "--lms")
    assert proc.returncode == 0, proc.stderr
    assert f"checks of {LAB} frozen" in proc.stdout
    record = json.loads((course / FROZEN).read_text())[LAB]
    assert changed_checks(course, LAB) == []
    # A test cell's points change during the term.
    path = course / "source" / LAB / f"{LAB}.ipynb"
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_count_nodes")
    cell.metadata.nbgrader["points"] = 3
    nbformat.write(nb, path)
    assert changed_checks(course, LAB) == [f"source/{LAB}/{LAB}.ipynb#test_count_nodes"]
    proc = coursetools(course, "grade", LAB, "--jobs", "1")
    assert proc.returncode == 2 and "test_count_nodes" in proc.stderr and "--regrade-with-new-checks" in proc.stderr
    assert not (course / "gradebook.db").exists(), "nothing was graded"
    proc = coursetools(course, "grade", LAB, "--jobs", "1", "--regrade-with-new-checks")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    log = (course / FROZEN_LOG).read_text()
    assert LAB in log and "test_count_nodes" in log
    assert json.loads((course / FROZEN).read_text())[LAB]["files"] != record["files"]
    assert changed_checks(course, LAB) == []
    assert f"coursetools feedback {LAB}" in proc.stdout, "grade ends with the next steps"


def test_archive_term_moves_the_term_and_refuses_a_used_name(course):
    for folder in ("submitted/ada/01_game_trees", "autograded/ada", "feedback/ada", "exports"):
        (course / folder).mkdir(parents=True)
    (course / "submitted/ada/01_game_trees/01_game_trees.ipynb").write_text("{}")
    (course / "gradebook.db").write_bytes(b"sqlite")
    proc = coursetools(course, "archive-term", "2026-spring")
    assert proc.returncode == 0, proc.stderr
    archive = course / "archive" / "2026-spring"
    assert (archive / "submitted/ada/01_game_trees/01_game_trees.ipynb").read_text() == "{}"
    assert (archive / "gradebook.db").read_bytes() == b"sqlite"
    for name in ("gradebook.db", "submitted", "autograded", "feedback", "exports"):
        assert not (course / name).exists()
    (course / "submitted").mkdir()
    proc = coursetools(course, "archive-term", "2026-spring")
    assert proc.returncode == 2 and "exists already" in proc.stderr
    assert (course / "submitted").is_dir(), "a refused archive moves nothing"
    proc = coursetools(course, "archive-term", "2026-spring", COURSE_DB_URL="postgresql://u@db/course")
    assert proc.returncode == 2 and "database" in proc.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="the root case needs root")
def test_make_lab_starts_as_root(tmp_path):
    env = tool_env(JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), JUPYTER_CONFIG_DIR=str(tmp_path / "config"))
    proc = subprocess.Popen(["make", "lab", "LAB_ARGS=--no-browser --port=0 --ServerApp.open_browser=False"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    seen = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if "http://127.0.0.1:" in line or "http://localhost:" in line:
                break
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
    text = "".join(seen)
    assert "Use --allow-root to bypass" not in text, text[-2000:]
    assert "http://" in text, text[-2000:]
