"""The two Python environments of a course server, each a venv of Debian's Python (one every account can run).

- the **students'** environment: JupyterLab, JupyterHub's single-user server, nbgrader (its assignment list and
  validate button; its formgrader turned off), ``course_lib`` and the students' server package
  (``instructor/labextensions/course-save-queue``: nbgrader's exchange with private modes and the course's
  save-queue extension). Nothing of ``coursetools`` is in it: no check, no reference search, no solution. Every
  account can read it.
- the **instructor's** environment: the same plus ``coursetools`` (installed, not linked to a checkout), owned by
  the teacher and readable by no one else.

Both are built once under ``build/server-envs/`` and built again only when what goes into them changes.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

JUPYTERHUB = "jupyterhub>=5,<6"
COMMON = [JUPYTERHUB, "jupyterlab>=4,<5", "nbgrader>=0.9,<0.10", "ipykernel"]
# What a student's JupyterLab must not offer: the instructor's pages of nbgrader.
STUDENT_OFF_LAB = ["@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:course-list"]
STUDENT_OFF_SERVER = ["nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.course_list"]


class EnvError(RuntimeError):
    """An environment could not be built; the message says what failed."""


def server_python() -> str:
    """The Python the environments are made from: ``COURSE_SERVER_PYTHON``, else Debian's ``/usr/bin/python3``
    (a Python under /root, as pyenv puts it, cannot be run by the students' accounts)."""
    return os.environ.get("COURSE_SERVER_PYTHON") or "/usr/bin/python3"


def _run(cmd: list[str], what: str, **kw) -> None:
    # umask 022 whatever the caller's: the students' environment is read and run by every account (the instructor's
    # is closed to its owner afterwards, by its mode)
    proc = subprocess.run(cmd, capture_output=True, text=True, umask=0o022, **kw)
    if proc.returncode:
        raise EnvError(f"{what} failed ({' '.join(cmd[:4])} ...):\n{(proc.stdout + proc.stderr)[-3000:]}")


def _copy_project(src: Path, dest: Path, keep: list[str]) -> Path:
    """A clean copy of the parts of a project that pip builds from (nothing of build/ or .venv/)."""
    dest.mkdir(parents=True)
    for name in keep:
        if (src / name).is_dir():
            shutil.copytree(src / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(src / name, dest / name)
    return dest


def _made_by_builds(relative: Path) -> bool:
    """A file pip or Python leaves in a project it builds (``__pycache__``, ``build/``, ``*.egg-info``): not part of
    what an environment is built from, so it never makes one built again."""
    return any(part in ("__pycache__", "build") or part.endswith(".egg-info") for part in relative.parts)


def _fingerprint(root: Path, parts: list[str], extra: list[str]) -> str:
    digest = hashlib.sha256(json.dumps([server_python(), extra]).encode())
    for part in parts:
        path = root / part
        files = sorted(p for p in path.rglob("*") if p.is_file() and not _made_by_builds(p.relative_to(path))) \
            if path.is_dir() else [path]
        for f in files:
            digest.update(str(f.relative_to(root)).encode() + f.read_bytes())
    return digest.hexdigest()


def _build(env: Path, root: Path, project_parts: list[str], requirements: list[str], instructor: bool) -> None:
    stamp = env / ".course-env"
    key = _fingerprint(root, project_parts, requirements)
    if stamp.is_file() and stamp.read_text() == key:
        return
    shutil.rmtree(env, ignore_errors=True)
    env.parent.mkdir(parents=True, exist_ok=True)
    os.chmod(env.parent, 0o755)
    _run([server_python(), "-m", "venv", str(env)], f"making the environment {env}")
    pip = [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    with tempfile.TemporaryDirectory() as tmp:
        lib = _copy_project(root, Path(tmp) / "course_lib", ["pyproject.toml", "course_lib"])
        student_server = root / "instructor" / "labextensions" / "course-save-queue"
        targets = [str(lib), str(student_server), *requirements]
        if instructor:
            targets.append(str(_copy_project(root / "instructor", Path(tmp) / "instructor",
                                             ["pyproject.toml", "coursetools", "labextensions"])))
        _run(pip + targets, f"installing into {env}")
    if not instructor:
        turn_off_instructor_pages(env)
    stamp.write_text(key)


def turn_off_instructor_pages(env: Path) -> None:
    """Formgrader, course list and create-assignment off in a students' environment (lab and server)."""
    labconfig = env / "etc" / "jupyter" / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(json.dumps({"disabledExtensions": dict.fromkeys(STUDENT_OFF_LAB,
                                                                                                   True)}, indent=1))
    conf = env / "etc" / "jupyter" / "jupyter_server_config.d"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "zz-course-students.json").write_text(json.dumps(
        {"ServerApp": {"jpserver_extensions": dict.fromkeys(STUDENT_OFF_SERVER, False)}}, indent=1))


def student_env(root: Path, envs: Path) -> Path:
    """The students' environment (built when missing or out of date), readable by every account."""
    env = envs / "student"
    _build(env, root, ["pyproject.toml", "course_lib", "instructor/labextensions/course-save-queue"], COMMON, False)
    return env


def instructor_env(root: Path, envs: Path, teacher: str) -> Path:
    """The instructor's environment (built when missing or out of date), owned by `teacher`, private (0700)."""
    env = envs / "instructor"
    _build(env, root, ["pyproject.toml", "course_lib", "instructor/pyproject.toml", "instructor/coursetools",
                       "instructor/labextensions"], COMMON, True)
    entry = pwd.getpwnam(teacher)
    _run(["chown", "-R", f"{entry.pw_uid}:{entry.pw_gid}", str(env)], f"giving {env} to {teacher}")
    os.chmod(env, 0o700)
    return env


def write_config(env: Path, name: str, text: str) -> None:
    """A config file every program of `env` reads (its ``etc/jupyter``)."""
    folder = env / "etc" / "jupyter"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)
