"""Run a coursetools command as the instructor does, in a course folder, inside the test's own process."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path


def run_coursetools(course: Path, *argv: str) -> subprocess.CompletedProcess:
    """``coursetools ARGV`` as the instructor runs it in the course folder, in this process (no start-up cost)."""
    from coursetools.cli import main

    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    mask = os.umask(0o022)  # the commands that write private files set 077: give this process its own back after
    os.umask(mask)
    os.chdir(course)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
    finally:
        os.chdir(here)
        os.umask(mask)
    return subprocess.CompletedProcess(["coursetools", *argv], code, out.getvalue(), err.getvalue())
