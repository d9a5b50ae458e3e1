"""Instructor tooling: build student versions, grade classes, check the course.

Students never need this package; it lives beside `course_lib`, which they install.
"""

import os
import sys
from pathlib import Path

__version__ = "0.1.0"


def course_root() -> Path:
    """The course folder: the nearest parent of the working directory holding nbgrader_config.py."""
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if (folder / "nbgrader_config.py").is_file():
            return folder
    fallback = Path(__file__).resolve().parents[2]
    if (fallback / "nbgrader_config.py").is_file():
        return fallback
    raise FileNotFoundError("no nbgrader_config.py here or in any parent folder: run inside the course")


def tool_env(**extra: str) -> dict[str, str]:
    """The environment for nbgrader subprocesses: this Python's bin folder first on PATH.

    nbgrader runs ``alembic`` (and kernels) by name, so they must be found next to
    the Python that runs the course even when the virtual environment is not activated.
    """
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.update(extra)
    return env


def write_private(path: Path, text: str) -> Path:
    """Write `text` to `path` readable by its owner only (mode 0600), never through a link; returns `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        os.fchmod(f.fileno(), 0o600)
        f.write(text)
    return path
