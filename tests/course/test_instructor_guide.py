"""docs/instructor-guide.md, walked: every shell block, verbatim and in order, as a non-root user.

The scratch course has lab 01 and two students: alice fetches and submits through nbgrader's exchange,
bob's notebook comes in an LMS zip. The test plays the students, the server's administrator (the guide's
`coursetools setup-exchange`, run as root: the exchange's layout and the configuration every account reads) and,
in formgrader's place, the teacher who grades alice's written answer by hand (through nbgrader's gradebook, as
formgrader does); everything else is the page's commands, `check-server` included, as the instructor's own
account (with a group of its own, as Debian makes them).
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest

from coursetools.course.labfiles import solution_answers, written_answers
from coursetools.quality.submission import build_submission
from exchange_accounts import in_shadow, python_shadow

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "instructor-guide.md"
LAB = "01_game_trees"
USER = "guide-teach"  # the instructor, an account the test creates
STUDENT = "guide-alice"  # a student account the test creates for the exchange (which knows students by account)
WRITTEN = "written_branching"


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)


class Walker:
    """Runs shell text as the non-root USER in the scratch folder, with the course's venv first on PATH."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        entry = pwd.getpwnam(USER)
        self.uid, self.gid = entry.pw_uid, entry.pw_gid
        self.course, self.home = scratch / "course", scratch / "home"
        # This Python may live where USER cannot reach (a pyenv under /root): then the user's processes run in
        # a mount namespace of their own where /root is a passable folder holding only that Python's tree.
        self.shadow = python_shadow(scratch)

    def env(self, user: str, home: Path) -> dict[str, str]:
        # The instructor runs the course's own environment; a student cannot enter the course folder (the guide makes
        # it private) and runs nbgrader installed elsewhere, here the same environment by its own path.
        venv = self.course / ".venv" if user == USER else ROOT / ".venv"
        keep = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TERM", "TZ")}
        return {**keep, "PATH": f"{venv / 'bin'}:/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "USER": user,
                "LOGNAME": user, "JUPYTER_CONFIG_DIR": str(self.scratch / "jupyter-config"), "VIRTUAL_ENV": str(venv)}

    def run(self, script: str, cwd: Path, user: str = USER, home: Path | None = None,
            timeout: float = 900) -> subprocess.CompletedProcess:
        entry = pwd.getpwnam(user)
        drop = ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--",
                "bash", "-eo", "pipefail", "-c", script]
        command = in_shadow(self.shadow, drop)
        return subprocess.run(command, cwd=cwd, env=self.env(user, home or self.home), capture_output=True,
                              text=True, timeout=timeout)


def make_scratch_course(scratch: Path) -> None:
    """A course folder with lab 01 and what `make setup` looks at, the venv lent from this checkout."""
    course = scratch / "course"
    (course / "instructor").mkdir(parents=True)
    for name in ("Makefile", "pyproject.toml", "nbgrader_config.py"):
        shutil.copy2(ROOT / name, course / name)
    shutil.copy2(ROOT / "instructor" / "pyproject.toml", course / "instructor" / "pyproject.toml")
    (course / ".venv").symlink_to(ROOT / ".venv")
    for folder in ("source", "release"):
        shutil.copytree(ROOT / folder / LAB, course / folder / LAB)
    (scratch / "jupyter-config").mkdir()
    for home in ("home", "alice", "home/Downloads"):
        (scratch / home).mkdir(parents=True, exist_ok=True)


def answers() -> dict[str, str]:
    source = ROOT / "source" / LAB / f"{LAB}.ipynb"
    return {**solution_answers(source), **written_answers(source)}


def chown(scratch: Path, uid: int, gid: int) -> None:
    for path in [scratch, *scratch.rglob("*")]:
        if not path.is_symlink():
            os.chown(path, uid, gid)
    os.chmod(scratch, 0o755)


def administrator_sets_up(walker: Walker) -> None:
    """The guide's `coursetools setup-exchange`, as root: the exchange, and the configuration every account reads."""
    text = GUIDE.read_text()
    assert "sudo .venv/bin/coursetools setup-exchange --exchange /srv/nbgrader/exchange --instructor" in text
    config = walker.scratch / "jupyter-config" / "nbgrader_config.py"
    proc = subprocess.run([sys.executable, "-m", "coursetools", "setup-exchange", "--exchange",
                           str(walker.scratch / "exchange"), "--instructor", USER, "--students-config", str(config)],
                          cwd=walker.course, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def students_submit(walker: Walker) -> None:
    """alice fetches the lab from the exchange, answers it and submits; bob's upload arrives in the LMS zip."""
    alice = walker.scratch / "alice"
    proc = walker.run(f"nbgrader fetch_assignment {LAB} --course adversarial-search", alice, STUDENT, alice)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    fetched = alice / LAB / f"{LAB}.ipynb"
    build_submission(fetched, answers(), fetched)
    entry = pwd.getpwnam(STUDENT)
    os.chown(fetched, entry.pw_uid, entry.pw_gid)
    proc = walker.run(f"nbgrader submit {LAB} --course adversarial-search", alice, STUDENT, alice)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    bob = build_submission(walker.course / "release" / LAB / f"{LAB}.ipynb", answers(), walker.scratch / "bob.ipynb")
    archive = walker.home / "Downloads" / f"{LAB}.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(bob, f"bob_attempt_20261203T120000_{LAB}.ipynb")
    os.chown(archive, walker.uid, walker.gid)


def teacher_grades_alice(walker: Walker) -> None:
    """What formgrader does when the teacher scores alice's written answer: a manual score in the gradebook."""
    script = (f"python -c \"from nbgrader.api import Gradebook\n"
              f"with Gradebook('sqlite:///gradebook.db', 'adversarial-search') as gb:\n"
              f"    g = gb.find_grade('{WRITTEN}', '{LAB}', '{LAB}', '{STUDENT}')\n"
              f"    g.manual_score = 2.0\n"
              f"    gb.db.commit()\"")
    proc = walker.run(script, walker.course)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.long
@pytest.mark.skipif(os.geteuid() != 0, reason="switching to a non-root user needs root")
def test_the_guide_walks_as_a_non_root_user(tmp_path):
    blocks = shell_blocks(GUIDE.read_text())
    assert len(blocks) >= 8, "the guide's shell blocks were not found"
    scratch = Path(tempfile.mkdtemp(prefix="guide-walk-", dir="/tmp"))
    for account in (USER, STUDENT):
        subprocess.run(["userdel", account], capture_output=True)  # left by a run that was killed, if any
        subprocess.run(["groupdel", account], capture_output=True)
        subprocess.run(["useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin",
                        account], check=True)
    try:
        make_scratch_course(scratch)
        walker = Walker(scratch)
        chown(scratch, walker.uid, walker.gid)
        administrator_sets_up(walker)
        entry = pwd.getpwnam(STUDENT)
        os.chown(scratch / "alice", entry.pw_uid, entry.pw_gid)
        assert walker.run("test $(id -u) != 0", walker.course).returncode == 0
        times, outputs = [], []
        for block in blocks:
            if "nbgrader collect" in block:
                students_submit(walker)
            if block.startswith(f"coursetools feedback {LAB}\n"):
                teacher_grades_alice(walker)
            t0 = time.monotonic()
            proc = walker.run(block, walker.course)
            times.append((block.strip().splitlines()[0], time.monotonic() - t0))
            outputs.append(proc.stdout + proc.stderr)
            assert proc.returncode == 0, f"the guide's block failed:\n{block}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
        walk = "\n".join(f"{seconds:7.1f} s  {first}" for first, seconds in times)
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        (ROOT / "test-artifacts" / "instructor-guide-walk.txt").write_text(walk + "\n")
        print("\n" + walk)

        text = "\n".join(outputs)
        assert f"checks of {LAB} frozen" in text
        assert "server safe for adversarial-search" in text  # check-server passed, after the guide's chmod 700
        assert f"{LAB}: 1 student(s) collected into submitted/" in text
        assert "next: 2 written answers of 2 students to grade in formgrader" in text
        archive = scratch / "course" / "archive" / "2026-autumn"
        course = scratch / "course"
        for name in ("gradebook.db", "submitted", "downloaded", "autograded", "feedback", "exports", "frozen-checks.json"):
            assert (archive / name).exists(), name
            assert not (course / name).exists(), name
        assert (archive / "gradebook.db").stat().st_uid == walker.uid
        for name in ("gradebook.db", "submitted", "autograded", "feedback", "exports"):  # the instructor's alone
            assert not [p for p in [archive / name, *(archive / name).rglob("*")] if p.stat().st_mode & 0o077], name
        assert sorted(p.name for p in (archive / "submitted").iterdir()) == ["bob", STUDENT]
        feedback = {s: (archive / "feedback" / s / LAB / f"{LAB}.html").read_text() for s in ("bob", STUDENT)}
        assert "waiting for your teacher" not in feedback[STUDENT]
        assert "waiting for your teacher&#39;s grade" in feedback["bob"] or \
            "waiting for your teacher's grade" in feedback["bob"]
        assert "2.0 points pending" in feedback["bob"] and "failed, 0.0 / 2.0" not in feedback["bob"]
        cells = (archive / "exports" / f"{LAB}-cells.csv").read_text().splitlines()
        header = cells[0].split(",")
        column = next(i for i, h in enumerate(header) if WRITTEN in h)
        rows = {r.split(",")[0]: r.split(",") for r in cells[1:]}
        assert rows[STUDENT][column] == "2" and rows["bob"][column] == ""
        assert rows[STUDENT][-2:] == ["12", "12"] and rows["bob"][-2:] == ["10", "12"]
        assert STUDENT in (archive / "exports" / f"{LAB}-grades.csv").read_text()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        for account in (USER, STUDENT):
            subprocess.run(["userdel", account], check=False)
            subprocess.run(["groupdel", account], capture_output=True)
