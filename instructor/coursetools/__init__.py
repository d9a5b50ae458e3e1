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
