"""The service's processes as the self-check demo and the load test run them: start a `coursetools` command with
its log, wait until it answers, stop it, and point this process's environment at the services for a while."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> subprocess.Popen:
    """``python -m coursetools CMD`` in its own session, its output in `log`."""
    return subprocess.Popen([sys.executable, "-m", "coursetools", *cmd], cwd=cwd, env=env,
                            stdout=open(log, "w"), stderr=subprocess.STDOUT, start_new_session=True)


def wait_until(ready: Callable[[], bool], proc: subprocess.Popen, log: Path, what: str, seconds: float = 120) -> None:
    """Return once `ready()`; raise with the end of `log` if `proc` ends first or `seconds` pass."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ready():
            return
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    raise RuntimeError(f"the {what} did not start; its log ({log}):\n{log.read_text(errors='replace')[-3000:]}")


def stop(proc: subprocess.Popen | None) -> None:
    """SIGTERM, then SIGKILL after a minute."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def answering(url: str, path: str = "/") -> bool:
    """True when the HTTP service at `url` answers `path` (its front page unless told) with 200."""
    try:
        with urllib.request.urlopen(url + path, timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def environ_set(values: dict[str, str]) -> Iterator[None]:
    """Set `values` in this process's environment for the block, then put back what was there (or nothing)."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
