"""The players of a class tournament: each student's agent in a sandboxed kernel of its own.

An `AgentKernel` starts a kernel through the grading sandbox (`coursetools.sandbox.launcher`), runs the
student's submitted notebook there (the code cells before the graded function's test cell, test cells
left out, with ``NBGRADER_EXECUTION`` set so long demonstrations skip themselves, each cell under a
time limit) and then opens the grader's channel (`coursetools.channel.wire`) as a hidden test does: the kernel
serves the student's function, the coordinator calls it. What the kernel receives is states, players,
course games by value and seeds derived from the tournament's seed; never the seed itself, a check or
a reference.

Every call is made under the grader's processor-time limit (`coursetools.hidden.time_limit`, which
counts this process and the kernel). A fault (an exception, a dead kernel, a broken channel, a call
past its limit) raises `AgentFault`; after a dead or stuck kernel the agent is started again for its
next game, at most `MAX_RESTARTS` times.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import nbformat

from coursetools.channel import wire
from coursetools.grading.checker import CheckerPeer, StudentError, peer_pid, kernel_code
from coursetools.hidden import WALL_FACTOR, CheckTimeout, time_limit
from coursetools.sandbox.launcher import give_to_kernel

MAX_RESTARTS = 2
CONNECT_SECONDS = 30.0
KERNEL_ARGS = ["--InteractiveShell.xmode=Minimal", "--HistoryManager.enabled=False",
               "--HistoryManager.hist_file=:memory:"]
RANDOM_NAME = "tournament_random_generator"  # the kernel's own random.Random, for agents that take an rng


class AgentFault(Exception):
    """An agent lost a game by its own doing: `kind` is crash, hang or illegal; `detail` says what happened."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


def cells_to_run(nb: Any, functions: list[str]) -> list[str]:
    """The code the kernel runs: every non-empty code cell before the first test cell that follows the
    last of `functions`' solution cells, test cells (graded, not solutions) left out.

    The functions are then what the grader graded in their test cells. Raises ValueError when a
    function has no solution cell in the notebook.
    """
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells]
    missing = [f for f in functions if f not in ids]
    if missing:
        raise ValueError(f"the notebook has no solution cell {', '.join(missing)}")
    last = max(ids.index(f) for f in functions)
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        meta = cell.metadata.get("nbgrader", {})
        is_test = meta.get("grade") and not meta.get("solution")
        if is_test:
            if i > last:
                break
            continue
        out.append(cell.source)
    return out


@dataclass
class CallStats:
    calls: int = 0
    seconds: float = 0.0


class AgentKernel:
    """One student's agent: a sandboxed kernel running their notebook, serving `functions` over the channel."""

    def __init__(self, student: str, folder: Path, notebook: str, functions: list[str], *, work: Path,
                 move_seconds: float, cell_timeout: float = 20.0, sandbox: bool = True) -> None:
        self.student, self.folder, self.notebook = student, Path(folder), notebook
        self.functions, self.work = list(functions), Path(work)
        self.move_seconds, self.cell_timeout, self.sandbox = move_seconds, cell_timeout, sandbox
        self.problem: str | None = None  # why it cannot play at all (its notebook did not load)
        self.restarts = 0
        self.stats = CallStats()
        self.km = self.kc = self.peer = self.sock = None
        self.proxies: dict[str, Any] = {}
        self.kernel_pid: int | None = None
        self.load_seconds = 0.0
        self.code: list[str] = []
        self.pending: list[str] = []
        self.ipc: Path | None = None

    # -- life cycle --

    @property
    def alive(self) -> bool:
        return self.peer is not None

    def start(self) -> bool:
        """Start the kernel, run the notebook, open the channel; False (and `problem` set) when it cannot play."""
        return self.launch() and self.send_cells() and self.finish()

    def _phase(self, step: Any) -> bool:
        t0 = time.monotonic()
        try:
            step()
            return True
        except AgentFault as fault:
            self.problem = fault.detail
            self.close()
            return False
        finally:
            self.load_seconds += time.monotonic() - t0

    def launch(self) -> bool:
        """Read the notebook and start the kernel's process (it gets ready while others start)."""
        return self._phase(self._launch)

    def send_cells(self) -> bool:
        """Wait for the kernel, then queue the notebook's cells (they run while other kernels load)."""
        return self._phase(self._send_cells)

    def finish(self) -> bool:
        """Wait for each cell (interrupting one past its time limit), then open the channel."""
        return self._phase(self._finish)

    def _launch(self) -> None:
        from jupyter_core.utils import run_sync

        from coursetools.sandbox.launcher import MODE_ENV, ROOT_ENV
        from coursetools.sandbox.manager import SandboxKernelManager

        path = self.folder / f"{self.notebook}.ipynb"
        try:
            nb = nbformat.read(path, as_version=4)
            nbformat.validate(nb)
            self.code = cells_to_run(nb, self.functions)
        except Exception as exc:  # not JSON, not a notebook, a cell missing
            raise AgentFault("crash", f"its notebook could not be read ({type(exc).__name__}: "
                                      f"{str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ''})") from None
        self.ipc = Path(tempfile.mkdtemp(prefix="tk-", dir="/tmp"))
        env = {k: v for k, v in os.environ.items()}
        env.update({MODE_ENV: "bwrap" if self.sandbox else "none", ROOT_ENV: str(self.work / "sandboxes"),
                    "NBGRADER_EXECUTION": "autograde", "JUPYTER_RUNTIME_DIR": str(self.ipc),
                    # the same order of str sets and dicts in every run: a student's code that iterates over
                    # a set of strings moves the same way on any machine
                    "PYTHONHASHSEED": "0"})
        self.km = SandboxKernelManager(kernel_name="python3", transport="ipc", ip=str(self.ipc / "kernel"))
        self.km.connection_file = str(self.ipc / "kernel.json")
        run_sync(self.km.start_kernel)(cwd=str(self.folder), env=env, extra_arguments=KERNEL_ARGS,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.kc = self.km.client()
        self.kc.start_channels()

    def _send_cells(self) -> None:
        from jupyter_core.utils import run_sync

        try:
            run_sync(self.kc.wait_for_ready)(timeout=120)
        except RuntimeError as exc:
            raise AgentFault("crash", f"its kernel did not start ({exc})") from None
        self.pending = [self.kc.execute(src, silent=False, store_history=False, allow_stdin=False,
                                        stop_on_error=False) for src in self.code]
        # A user expression, so no input transformer of the notebook's can change it.
        setup = f"globals().__setitem__({RANDOM_NAME!r}, __import__('random').Random)"
        self.pending.append(self.kc.execute("", silent=True, store_history=False, allow_stdin=False,
                                            stop_on_error=False, user_expressions={"setup": setup}))

    def _finish(self) -> None:
        for i, msg_id in enumerate(self.pending):
            status = self._wait(msg_id, self.cell_timeout)
            if status == "dead":
                raise AgentFault("crash", f"its kernel died while running the notebook (code cell {i + 1} "
                                          "of those before the test)")
            if status == "stuck":
                raise AgentFault("hang", "its notebook did not stop when interrupted while loading")
        self.pending = []
        self._connect()

    def _wait(self, msg_id: str, timeout: float) -> str:
        """Wait for a cell: ok, error, interrupted (past `timeout`, then interrupted), dead or stuck."""
        from jupyter_core.utils import run_sync

        reply = self._reply(msg_id, timeout)
        if reply is not None:
            return "ok" if reply["content"].get("status") == "ok" else "error"
        if not run_sync(self.km.is_alive)():
            return "dead"
        run_sync(self.km.interrupt_kernel)()
        reply = self._reply(msg_id, 10)
        if reply is not None:
            return "interrupted"
        return "dead" if not run_sync(self.km.is_alive)() else "stuck"

    def _reply(self, msg_id: str, timeout: float) -> dict | None:
        from queue import Empty

        from jupyter_core.utils import run_sync

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                msg = run_sync(self.kc.get_shell_msg)(timeout=min(1.0, max(0.05, end - time.monotonic())))
            except (Empty, TimeoutError):
                if not run_sync(self.km.is_alive)():
                    return None
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg
        return None

    def _connect(self) -> None:
        token = secrets.token_hex(16)
        path = str(self.ipc / f"check-{secrets.token_hex(6)}.sock")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(path)
        os.chmod(path, 0o600)
        give_to_kernel(path)  # the kernel runs as an unprivileged user
        server.listen(1)
        names = sorted(set(self.functions) | {RANDOM_NAME})
        self.serve_id = self.kc.execute("", silent=True, store_history=False, allow_stdin=False,
                                        user_expressions={"serve": kernel_code(path, token, names)})
        server.settimeout(0.5)
        end = time.monotonic() + CONNECT_SECONDS
        try:
            while time.monotonic() < end:
                try:
                    self.sock, _ = server.accept()
                    break
                except (TimeoutError, socket.timeout):
                    continue
        finally:
            server.close()
            os.unlink(path)
        if self.sock is None:
            raise AgentFault("crash", "its kernel did not open the grader's channel (does the notebook change how "
                                      "cells run?)")
        self.sock.settimeout(None)
        self.peer = CheckerPeer(self.sock, time.monotonic() + 3600)
        self.peer.alarm = True
        self.kernel_pid = peer_pid(self.sock)
        try:
            with time_limit(10, others=[self.kernel_pid] if self.kernel_pid else []):
                hello = self.peer.receive()
        except (CheckTimeout, wire.ChannelError) as exc:
            raise AgentFault("crash", f"the channel to its kernel broke while opening ({type(exc).__name__})") \
                from None
        if hello.get("op") != "hello" or hello.get("token") != token or type(hello.get("names")) is not dict:
            raise AgentFault("crash", "a malformed greeting on the grader's channel")
        found = {n: self.peer.dec(v) for n, v in hello["names"].items() if n in names}
        missing = [f for f in self.functions if f not in found]
        if missing:
            raise AgentFault("crash", f"{', '.join(missing)} is not defined after its notebook ran")
        self.proxies = found

    def restart(self) -> bool:
        """Start it again after a dead or stuck kernel; False once it has used its restarts."""
        self.close()
        if self.restarts >= MAX_RESTARTS:
            self.problem = f"stopped after {MAX_RESTARTS + 1} faults that cost its kernel"
            return False
        self.restarts += 1
        return self.start()

    def close(self) -> None:
        from jupyter_core.utils import run_sync

        if self.peer is not None:
            try:
                self.peer.send({"op": "bye"})
            except OSError:
                pass
        if self.sock is not None:
            self.sock.close()
        self.peer = self.sock = None
        self.proxies = {}
        if self.kc is not None:
            try:
                self.kc.stop_channels()
            except Exception:  # noqa: BLE001 - already gone
                pass
        if self.km is not None:
            try:
                run_sync(self.km.shutdown_kernel)(now=True)
            except Exception:  # noqa: BLE001 - already gone
                pass
        self.km = self.kc = None
        if getattr(self, "ipc", None) is not None:
            shutil.rmtree(self.ipc, ignore_errors=True)
            self.ipc = None

    # -- calls --

    @contextmanager
    def limited(self) -> Iterator[None]:
        """The processor-time limit of one move (this process and the kernel), kept by SIGALRM; outside the
        main thread, where no alarm can be set, a wall-clock deadline on the channel instead."""
        if threading.current_thread() is threading.main_thread():
            if self.peer is not None:
                self.peer.alarm = True
            with time_limit(self.move_seconds, others=[self.kernel_pid] if self.kernel_pid else []):
                yield
            return
        if self.peer is not None:
            self.peer.alarm = False
            self.peer.deadline = time.monotonic() + WALL_FACTOR * self.move_seconds
        yield

    def call(self, name: str, *args: Any, **kw: Any) -> Any:
        """Call the student's `name` in the kernel; an `AgentFault` for an exception, a dead kernel, a broken channel.

        A call past the time limit raises `CheckTimeout` (the caller keeps the limit, around the whole move).
        """
        if self.peer is None:
            raise AgentFault("crash", self.problem or "its kernel is not running")
        t0 = time.monotonic()
        try:
            return self.proxies[name](*args, **kw)
        except wire.ChannelClosed:
            self.close()
            raise AgentFault("crash", f"its kernel died during {name}") from None
        except wire.ChannelError as exc:
            self.close()
            raise AgentFault("crash", f"its kernel broke the grader's channel during {name} ({exc})") from None
        except (StudentError, Exception) as exc:  # the student's exception, named as they named it
            where = getattr(exc, "student_where", None)
            line = f" (line {where[1]}: {where[2].strip()[:80]})" if where and where[1] else ""
            raise AgentFault("crash", f"{name} raised {type(exc).__name__}: {str(exc)[:200]}{line}") from None
        finally:
            self.stats.calls += 1
            self.stats.seconds += time.monotonic() - t0

    def timed_out(self, what: str) -> AgentFault:
        """The fault of a move past its processor-time limit; the kernel, stuck in the student's code, is stopped."""
        self.close()
        return AgentFault("hang", f"{what} ran past the {self.move_seconds:g} s processor-time limit of a move")
