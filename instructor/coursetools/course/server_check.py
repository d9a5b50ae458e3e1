"""``coursetools check-server``: refuse a shared server where a student could reach what is not theirs.

Three things are checked, each problem with its fix in plain words (docs/server.md):

- the exchange's layout (`coursetools.course.exchange_layout`);
- the instructor's course folder and its private files (the gradebook, ``submitted/``, ``autograded/``,
  ``feedback/``, ``exports/``, ``source/``): no other account may read them, whatever the host's defaults for
  homes and new files;
- the hidden checks: a student account's Python must not import ``coursetools.checks``. As root this is tried
  for real, as the student (``runuser``); otherwise the module that Python would find must not be readable
  by other accounts.
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
import subprocess
from pathlib import Path

from coursetools.course.exchange_layout import STUDENT_EXCHANGE, Layout, exchange_problems, group_members

PRIVATE = ("gradebook.db", "submitted", "autograded", "feedback", "exports", "source", "downloaded", "archive")
STUDENT_PATH = "/usr/local/bin:/usr/bin:/bin"
HIDDEN = "coursetools.checks"


def _shared(info: os.stat_result, owner: str) -> bool:
    """Whether accounts other than `owner` get any access through this mode (others, or a group not only theirs)."""
    if info.st_mode & 0o007:
        return True
    return bool(info.st_mode & 0o070) and bool(group_members(info.st_gid) - {owner})


def course_problems(course: Path, instructor: str) -> list[str]:
    """The course folder and its private files, readable by the instructor only."""
    problems = []
    if _shared(course.stat(), instructor):
        problems.append(f"the course folder {course} has mode {stat.S_IMODE(course.stat().st_mode):o}: other "
                        f"accounts can read solutions, hidden checks, submissions and the gradebook; run "
                        f"`chmod 700 {course}`")
    for name in PRIVATE:
        top = course / name
        if not top.exists() or top.is_symlink():
            continue
        shared = [p for p in [top, *(top.rglob("*") if top.is_dir() else [])]
                  if not p.is_symlink() and _shared(p.lstat(), instructor)]
        if shared:
            problems.append(f"{top}: {len(shared)} item(s) readable by other accounts (first: {shared[0]}); run "
                            f"`chmod -R go-rwx {top}`")
    return problems


def make_private(course: Path) -> list[str]:
    """Take group's and others' access from the private files you own (``chmod -R go-rwx``); returns what changed."""
    changed = []
    for name in PRIVATE:
        top = course / name
        if not top.exists() or top.is_symlink():
            continue
        for path in [top, *(top.rglob("*") if top.is_dir() else [])]:
            info = path.lstat()
            if not stat.S_ISLNK(info.st_mode) and info.st_uid == os.geteuid() and info.st_mode & 0o077:
                path.chmod(stat.S_IMODE(info.st_mode) & 0o700)
                changed.append(str(path))
    return changed


def _readable_by_others(path: Path) -> bool:
    """Whether an account that is neither owner nor in the group can read `path` (every folder above passable)."""
    path = path.resolve()
    for folder in path.parents:
        if not folder.stat().st_mode & stat.S_IXOTH:
            return False
    return bool(path.stat().st_mode & stat.S_IROTH)


def _as_student(student: str, python: str, code: str) -> subprocess.CompletedProcess:
    """`python -c code` run as the account `student` (root only), with a login's clean environment, in its home."""
    home = pwd.getpwnam(student).pw_dir
    runuser = shutil.which("runuser") or "/usr/sbin/runuser"
    cmd = [runuser, "-u", student, "--", "env", "-i", f"PATH={STUDENT_PATH}", f"HOME={home}", f"USER={student}",
           "sh", "-c", 'exec "$0" -c "$1"', python, code]
    return subprocess.run(cmd, cwd=home if os.path.isdir(home) else "/", capture_output=True, text=True, timeout=120)


def checks_importable(student: str | None, python: str) -> str | None:
    """How a student account's `python` imports the hidden checks, or None when it cannot."""
    probe = (f"import importlib.util as u; s = u.find_spec({HIDDEN!r}); "
             f"print(s.origin if s else ''); import {HIDDEN}")
    if os.geteuid() == 0 and student:
        proc = _as_student(student, python, probe)
        return f"{student}'s {python} imports {HIDDEN} from {proc.stdout.strip()}" if proc.returncode == 0 else None
    found = shutil.which(python, path=STUDENT_PATH) if "/" not in python else python
    if not found:
        return None
    proc = subprocess.run([found, "-s", "-c", probe.rsplit(";", 1)[0]], env={"PATH": STUDENT_PATH, "HOME": "/"},
                          cwd="/", capture_output=True, text=True, timeout=120)
    origin = proc.stdout.strip()
    if proc.returncode == 0 and origin and _readable_by_others(Path(origin)):
        return f"{found} finds {HIDDEN} at {origin}, readable by every account"
    return None


def private_submit_missing(student: str | None, python: str) -> str | None:
    """Why `student`'s nbgrader would submit with nbgrader's open modes (no `STUDENT_EXCHANGE`), tried as root."""
    if os.geteuid() != 0 or not student:
        return None
    proc = _as_student(student, python, f"import {STUDENT_EXCHANGE}")
    if proc.returncode == 0:
        return None
    return (f"{student}'s {python} cannot import {STUDENT_EXCHANGE} ({proc.stderr.strip().splitlines()[-1:]}): its "
            "`nbgrader submit` would leave submissions readable by classmates; install the students' server package "
            "there: pip install instructor/labextensions/course-save-queue (it brings nbgrader)")


def check_server(course: Path, layout: Layout, student: str | None = None, python: str = "python3") -> list[str]:
    """Every problem of the server for this course, each with its fix (empty: the server is safe)."""
    problems = exchange_problems(layout) + course_problems(course, layout.instructor)
    imported = checks_importable(student, python)
    if imported:
        problems.append(f"hidden checks reachable by students: {imported}. Install only the student package "
                        f"(course_lib) where students run Python, and the instructor package (coursetools) in your own "
                        f"environment inside the course folder: `pip uninstall coursetools` there")
    missing = private_submit_missing(student, python)
    if missing:
        problems.append(missing)
    return problems

