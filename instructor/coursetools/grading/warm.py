"""Warm nbgrader starts: a process that has imported nbgrader and the hidden checks once, and forks one ``nbgrader
autograde`` from itself per request (a fork server), so a self-check does not pay Python's start-up and those
imports each time (about 1.5 s of processor time on every check; issue 32).

`Starter.spawn` is `subprocess.Popen`'s stand-in for `grading.autograde.Grader`: the same command line, folder,
environment and log file, a process of its own session that dies with its parent, and a handle with ``pid``,
``poll()``, ``wait()`` and ``returncode``. The fork server itself (``python -m coursetools.grading.warm``) is a
child of the thread that made the `Starter` and dies with it (``PR_SET_PDEATHSIG``); it reads one JSON request
per line on its standard input and answers on its standard output (``{"pid": N}`` when it forked, ``{"exit": N,
"code": C}`` when that child ended), and it ends when its input closes. Each graded child is forked from a
process that never ran a submission's grading, so nothing of one check reaches the next: what a fork shares is
the modules as they were imported, read from this process's environment at that time. A `Starter` therefore
restarts its server when the environment it would hand the child differs from the one the server was started
with (`Starter.spawn`), beyond the variables each grading sets for itself (`PER_RUN`).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

from coursetools.grading.autograde import EVENTS_ENV
from coursetools.sandbox.launcher import MODE_ENV, ROOT_ENV

#: What each grading sets for itself (its events file, runtime folder, sandbox mode and folder): a change in any
#: other variable starts a new server, so that nothing imported is read from an environment the child lacks.
PER_RUN = (EVENTS_ENV, "JUPYTER_RUNTIME_DIR", MODE_ENV, ROOT_ENV)
#: Imported by the server before it forks anything: nbgrader's autograde path and the course's grading side.
PRELOAD = ("nbgrader.apps.nbgraderapp", "nbgrader.apps.autogradeapp", "nbgrader.converters.autograde",
           "nbgrader.preprocessors", "nbclient", "jupyter_client.manager", "sqlalchemy", "alembic",
           "coursetools.grading.preprocessors", "coursetools.grading.autograde", "coursetools.sandbox.launcher",
           "coursetools.hidden")


class WarmProcess:
    """A child of the fork server, as `subprocess.Popen` shows a child (``pid``, ``poll``, ``wait``, ``returncode``)."""

    def __init__(self, starter: Starter, pid: int) -> None:
        self.starter, self.pid, self.returncode = starter, pid, None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.starter.pump()
            self.returncode = self.starter.exits.pop(self.pid, None)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(["nbgrader"], timeout)
            self.starter.pump(0.1)
        return self.returncode


class WarmUnavailable(RuntimeError):
    """The fork server did not start or stopped answering."""


class Starter:
    """One fork server (see the module docstring), for one thread at a time."""

    def __init__(self, labs: tuple[str, ...] = ()) -> None:
        self.labs = labs
        self.proc: subprocess.Popen | None = None
        self.env_key: tuple | None = None
        self.exits: dict[int, int] = {}
        self.buffer = b""

    def spawn(self, argv: list[str], *, cwd: Path, env: dict[str, str], log: Path) -> WarmProcess:
        """Fork ``argv`` (``python -m nbgrader ...``: the module and its arguments are taken, the Python is the
        server's) in `cwd` with `env`, its output to `log`; restarts the server first if needed."""
        if argv[1:3] != ["-m", "nbgrader"]:
            raise ValueError(f"a warm start runs nbgrader only, not {argv!r}")
        self.prepare(env)
        request = {"argv": ["nbgrader", *argv[3:]], "cwd": str(cwd), "env": env, "log": str(log)}
        try:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as exc:
            self.close()
            raise WarmUnavailable(f"the warm nbgrader server stopped ({exc})") from None
        end = time.monotonic() + 30
        while True:
            for reply in self.pump(0.1, want_pid=True):
                return WarmProcess(self, reply)
            if self.proc.poll() is not None or time.monotonic() > end:
                self.close()
                raise WarmUnavailable("the warm nbgrader server did not fork the grading")

    def prepare(self, env: dict[str, str]) -> None:
        """Have a server running for `env` (started, or started again if `env` differs beyond `PER_RUN`)."""
        key = tuple(sorted((k, v) for k, v in env.items() if k not in PER_RUN))
        if self.proc is None or self.proc.poll() is not None or key != self.env_key:
            self.start(env, key)

    def start(self, env: dict[str, str], key: tuple) -> None:
        from coursetools.sandbox.safecopy import die_with_parent, prepare_die_with_parent

        self.close()
        prepare_die_with_parent()
        me = os.getpid()
        base = {k: v for k, v in env.items() if k not in PER_RUN}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "coursetools.grading.warm", *self.labs], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=base, start_new_session=True,
            preexec_fn=lambda: die_with_parent(me, signal.SIGKILL))
        self.env_key, self.exits, self.buffer = key, {}, b""

    def pump(self, timeout: float = 0.0, want_pid: bool = False) -> list[int]:
        """Read what the server said (exits go to `exits`); the pids of new children when `want_pid`."""
        pids: list[int] = []
        if self.proc is None or self.proc.stdout is None:
            return pids
        fd = self.proc.stdout.fileno()
        while select.select([fd], [], [], timeout)[0]:
            data = os.read(fd, 65536)
            if not data:
                break
            self.buffer += data
            timeout = 0.0
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            reply = json.loads(line)
            if "exit" in reply:
                self.exits[int(reply["exit"])] = int(reply["code"])
            elif "pid" in reply:
                pids.append(int(reply["pid"]))
        if pids and not want_pid:
            raise WarmUnavailable("the warm nbgrader server forked a grading nobody asked for")
        return pids

    def close(self) -> None:
        """Stop the server (its children, if any still run, get SIGTERM as it dies: `end_descendants_on`)."""
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                if stream:
                    stream.close()
            self.proc = None


_local = threading.local()


def starter() -> Starter:
    """This thread's `Starter` (a worker thread keeps one for all its checks)."""
    if getattr(_local, "starter", None) is None:
        from coursetools.labs import LABS

        _local.starter = Starter(tuple(LABS))
    return _local.starter


# --- the server -------------------------------------------------------------------------------------------------

def _preload(labs: list[str]) -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    from coursetools.hidden import load_checks

    for lab in labs:
        load_checks(lab)


def _child(request: dict, server: int) -> None:
    """In the forked child: become the grading `request` asks for, run it, and exit with its code."""
    code = 1
    try:
        from coursetools.sandbox.safecopy import die_with_parent

        os.setsid()
        die_with_parent(server, signal.SIGTERM)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = list(request["argv"])
        from nbgrader.apps.nbgraderapp import main

        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - exiting whatever happened
                pass
        os._exit(code)


def serve(labs: list[str]) -> None:
    """The fork server's loop (see the module docstring)."""
    _preload(labs)
    out = sys.stdout.buffer

    def say(reply: dict) -> None:
        out.write(json.dumps(reply).encode() + b"\n")
        out.flush()

    buffer, me, open_input = b"", os.getpid(), True
    while open_input:
        if select.select([0], [], [], 0.05)[0]:
            data = os.read(0, 65536)
            if not data:
                open_input = False
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if threading.active_count() != 1:  # a fork of a process with threads could inherit a held lock
                    raise RuntimeError("the warm nbgrader server started a thread; it forks only single-threaded")
                pid = os.fork()
                if pid == 0:
                    _child(json.loads(line), me)
                say({"pid": pid})
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            say({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    serve(sys.argv[1:])
