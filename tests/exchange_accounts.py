"""A shared server in miniature for the exchange's tests: real Unix accounts, their Pythons, and commands run as them.

`Server` makes an instructor and students (``useradd -m``, homes 0755 as older Debian/Ubuntu ``adduser`` left
them). The instructor runs the checkout's own ``.venv`` (nbgrader, coursetools, course_lib); the students a virtual
environment of Debian's ``/usr/bin/python3`` that sees nbgrader and copies of ``course_lib`` and of the students'
server package (``course_student_server``) only, as a class server installs for students. `Server.run` runs a shell
command as one account with a clean environment (in a mount namespace that lets it reach a Python kept under /root,
`python_shadow`). `exchange_scenario.py` plays the attacks.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAB = "01_game_trees"
COURSE_ID = "adversarial-search"
SYSTEM_PYTHON = "/usr/bin/python3"


def site_packages(venv: Path) -> Path:
    return venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"


def make_env(venv: Path, paths: list[Path]) -> Path:
    """A virtual environment of Debian's Python that sees exactly `paths` (besides the standard library)."""
    subprocess.run([SYSTEM_PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site_packages(venv) / "course-test.pth").write_text("".join(f"{p}\n" for p in paths))
    for folder in (venv, *venv.rglob("*")):
        if not folder.is_symlink():
            folder.chmod(0o755 if folder.is_dir() else 0o644)
    return venv / "bin" / "python"


def python_shadow(scratch: Path) -> tuple[Path, Path] | None:
    """When this Python lives under /root (a pyenv), which other accounts cannot pass: the folder to show them
    (``/root/.pyenv``) and a stand-in for /root holding only it, mounted in a mount namespace of their own."""
    base = Path(sys.base_prefix).resolve()
    if base.parts[1:2] != ("root",) or len(base.parts) <= 2:
        return None
    top = Path("/root") / base.parts[2]
    stand_in = scratch / "root-stand-in"
    (stand_in / top.name).mkdir(parents=True)
    stand_in.chmod(0o711)
    return top, stand_in


def in_shadow(shadow: tuple[Path, Path] | None, cmd: list[str]) -> list[str]:
    """`cmd` run in a mount namespace where /root is `python_shadow`'s stand-in (unchanged without one)."""
    if not shadow:
        return cmd
    top, stand_in = shadow
    prefix = f"mount --bind {top} {stand_in / top.name} && mount --rbind {stand_in} /root && exec \"$@\""
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", prefix, "sh", *cmd]


class Server:
    """Accounts `teacher` and `students`, a scratch folder every account passes through, two Pythons."""

    def __init__(self, teacher: str, students: list[str], code: Path = ROOT) -> None:
        self.teacher, self.students, self.code = teacher, students, code
        self.scratch = Path(tempfile.mkdtemp(prefix="srv-", dir="/tmp"))
        self.scratch.chmod(0o755)
        self.exchange = self.scratch / "exchange"
        self.shadow = python_shadow(self.scratch)

    # -- accounts ------------------------------------------------------------------------------------------
    def add_accounts(self) -> None:
        for name in (self.teacher, *self.students):
            subprocess.run(["userdel", "-r", name], capture_output=True)  # left by a killed run, if any
            subprocess.run(["useradd", "-m", "-s", "/bin/bash", name], check=True, capture_output=True)
            Path(pwd.getpwnam(name).pw_dir).chmod(0o755)

    def remove_accounts(self) -> None:
        for name in (self.teacher, *self.students):
            subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)
            subprocess.run(["userdel", "-r", name], capture_output=True)
        shutil.rmtree(self.scratch, ignore_errors=True)

    def home(self, user: str) -> Path:
        return Path(pwd.getpwnam(user).pw_dir)

    # -- environments --------------------------------------------------------------------------------------
    def make_envs(self) -> None:
        """The instructor runs `code`'s own .venv (the grading sandbox mounts its Python); students a Debian Python."""
        packages = Path(sysconfig.get_paths()["purelib"])
        self.teacher_python = self.code / ".venv" / "bin" / "python"
        student_site = self.scratch / "student-site"
        shutil.copytree(self.code / "course_lib", student_site / "course_lib",
                        ignore=shutil.ignore_patterns("__pycache__"))
        exchange = self.code / "instructor" / "labextensions" / "course-save-queue" / "course_student_server"
        if exchange.is_dir():  # (an older checkout, played "before", has none)
            shutil.copytree(exchange, student_site / exchange.name, ignore=shutil.ignore_patterns("__pycache__"))
        self.student_python = make_env(self.scratch / "student-env", [packages, student_site])
        for folder in (student_site, *student_site.rglob("*")):
            folder.chmod(0o755 if folder.is_dir() else 0o644)

    def config_dirs(self) -> list[Path]:
        """Where each environment's nbgrader reads the server's configuration (its sys.prefix/etc/jupyter)."""
        return [self.scratch / "teacher-config", self.scratch / "student-env" / "etc" / "jupyter"]

    def make_course(self) -> Path:
        """The instructor's course folder in their home, as they would copy it: lab 01, the configuration."""
        course = self.home(self.teacher) / "course"
        for folder in ("source", "release"):
            shutil.copytree(self.code / folder / LAB, course / folder / LAB)
        shutil.copy2(self.code / "nbgrader_config.py", course / "nbgrader_config.py")
        self.chown(course, self.teacher)
        course.chmod(0o755)
        return course

    def chown(self, path: Path, user: str) -> None:
        entry = pwd.getpwnam(user)
        for p in (path, *(path.rglob("*") if path.is_dir() else [])):
            os.chown(p, entry.pw_uid, entry.pw_gid, follow_symlinks=False)

    # -- running as an account -------------------------------------------------------------------------------
    def run(self, user: str, script: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
        """`script` run by bash as `user`, in `cwd` (default: their home), with their Python first on PATH."""
        python = self.teacher_python if user == self.teacher else self.student_python
        home = self.home(user)
        env = {"PATH": f"{python.parent}:/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "USER": user,
               "LOGNAME": user, "LANG": "C.UTF-8"}
        if python == self.teacher_python:
            env["JUPYTER_CONFIG_DIR"] = str(self.scratch / "teacher-config")
        cmd = [shutil.which("runuser") or "/usr/sbin/runuser", "-u", user, "--", "bash", "-eo", "pipefail", "-c", script]
        return subprocess.run(in_shadow(self.shadow, cmd), cwd=cwd or home, env=env, capture_output=True, text=True,
                              timeout=timeout)
