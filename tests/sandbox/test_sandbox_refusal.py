"""Where the sandbox cannot run (bubblewrap, or the container engine asked for), `coursetools grade` refuses and
says how to install it; --no-sandbox is named unsafe."""

from __future__ import annotations

import os
import subprocess
import sys

from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission


def test_grade_refuses_without_bwrap_and_says_how_to_install_it(tmp_path):
    course = make_toy_course(tmp_path / "course")
    toy_submission(course, "amy", PERFECT)
    env = {k: v for k, v in os.environ.items() if k != "PATH"}
    env["PATH"] = os.path.dirname(sys.executable)  # the venv's tools, no /usr/bin: no bwrap
    proc = subprocess.run([sys.executable, "-m", "coursetools", "grade", LAB, "--jobs", "1"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "bwrap is not installed" in proc.stderr and "apt-get install bubblewrap" in proc.stderr
    assert "--no-sandbox" in proc.stderr and "UNSAFE" in proc.stderr
    assert not (course / "autograded").exists(), "nothing may be graded without the sandbox"
    remove_course(course)


def test_grade_refuses_a_container_engine_that_is_missing(tmp_path):
    course = make_toy_course(tmp_path / "course")
    toy_submission(course, "amy", PERFECT)
    env = {k: v for k, v in os.environ.items() if k != "PATH"}
    env["PATH"] = os.path.dirname(sys.executable)  # no podman
    proc = subprocess.run([sys.executable, "-m", "coursetools", "grade", LAB, "--jobs", "1", "--sandbox", "podman"],
                          cwd=course, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "podman is not installed" in proc.stderr and "apt-get install -y podman" in proc.stderr
    assert "--sandbox bwrap" in proc.stderr
    assert not (course / "autograded").exists(), "nothing may be graded without the sandbox"
    remove_course(course)


def test_no_sandbox_option_is_named_unsafe_in_the_help():
    proc = subprocess.run([sys.executable, "-m", "coursetools", "grade", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "--no-sandbox" in text and "UNSAFE" in text
