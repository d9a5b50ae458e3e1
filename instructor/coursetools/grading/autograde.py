"""Grade a lab for a whole class: ``python -m coursetools grade LAB --jobs N``.

How it works (and why):

- N shards take batches of submissions from one shared queue: each batch is graded by
  **one** ``nbgrader autograde`` process (its start-up paid once per batch; the queue is
  shared out evenly, and a shard that runs dry takes the second half of the longest waiting
  list of the others) in the shard's own copy of the
  course under ``build/grading/<lab>/shard-<k>/``: a copy of the submissions it grades, of
  the lab's source and of the gradebook (an sqlite file of its own). A submission still
  running after ``hand_back_after`` seconds hands the ones queued behind it in its batch
  back to the queue, so one slow submission never holds back the others. Shards therefore never
  write to the same database, and nothing in ``submitted/`` is ever opened for writing.
- Kernels talk over IPC sockets under a private folder per shard (``KernelManager.transport
  = "ipc"`` with an absolute ``KernelManager.ip``), so concurrent kernels cannot race for
  TCP ports.
- nbgrader's pre/post-convert hooks (`hook_started`, `hook_finished`) append an event per
  submission to the shard's ``events.jsonl``. As soon as a submission is finished, this
  process copies its grades into the course's gradebook (whatever ``db_url`` says:
  sqlite or PostgreSQL, written by this process only) and then its notebook into
  ``autograded/``. A crash therefore loses at most the submissions being graded.
- Caps: a submission running longer than ``submission_timeout`` and a shard running
  longer than ``shard_timeout`` are stopped (the nbgrader process and its kernel); the
  shard is restarted on what is left. A shard whose kernel failed to start is retried.
- Re-running is idempotent: a submission is graded again only when its autograded copy
  is missing, older than the submission (``timestamp.txt``), or absent from the gradebook.
  ``--force`` regrades everything. Deleting the gradebook and running again rebuilds it
  from ``source/`` and ``submitted/``.
- Stopping the grader (Ctrl-C, SIGTERM, SIGHUP) stops every shard and its kernels too;
  grades recorded so far are kept, and the same command finishes the rest.

The final summary names every submission that was not graded, and why.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from coursetools import tool_env
from coursetools.sandbox import launcher as sandbox
from coursetools.grading.gradebook import (course_id, db_url, ensure_assignment, notebook_names, read_grades,
                                           record_submission, record_unusable, submission_score, tools_on_path)
from coursetools.grading.intake import check_submission, is_up_to_date, submitted_students
from coursetools.grading.scratch import ShardConfig, make_course, shard_gradebook
from coursetools.sandbox.safecopy import copy_submission, die_with_parent, prepare_die_with_parent, printable

EVENTS_ENV = "COURSETOOLS_GRADING_EVENTS"
KERNEL_START_FAILURE = re.compile(
    r"Kernel died before replying|kernel_info|Address already in use|didn't respond|did not respond|"
    r"failed to start|Kernel died while waiting|ZMQError|TimeoutError|startup", re.IGNORECASE)


# --- hooks: run inside each shard's nbgrader process ---------------------------------------------------------

def _student_of(notebooks: list[str]) -> str:
    return Path(notebooks[0]).parts[-3] if notebooks else "?"


def _event(kind: str, notebooks: list[str]) -> None:
    path = os.environ.get(EVENTS_ENV)
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({"event": kind, "student": _student_of(notebooks), "t": time.time()}) + "\n")


def hook_started(assignment: str, student: str, notebooks: list[str]) -> None:
    """nbgrader pre-convert hook: a submission starts."""
    _event("start", notebooks)


def hook_finished(assignment: str, student: str, notebooks: list[str]) -> None:
    """nbgrader post-convert hook: a submission's grades are saved."""
    _event("done", notebooks)


# --- results -------------------------------------------------------------------------------------------------

@dataclass
class Result:
    student: str
    status: str  # "graded", "up to date", "not graded"
    reason: str = ""
    seconds: float = 0.0
    score: float | None = None
    max_score: float | None = None
    flags: list[str] = field(default_factory=list)  # what it tried beyond its sandbox
    notes: list[str] = field(default_factory=list)  # what stopped it (its wall-clock cap)
    timing: dict[str, float] = field(default_factory=dict)  # its kernel's start, its cells, the hidden checks


@dataclass
class Report:
    lab: str
    results: dict[str, Result] = field(default_factory=dict)
    seconds: float = 0.0
    logs: Path | None = None
    warnings: list[str] = field(default_factory=list)  # about the grading itself (a sandbox cap this host lacks)

    def not_graded(self) -> list[Result]:
        return [r for r in self.results.values() if r.status == "not graded"]

    def flagged(self) -> list[Result]:
        return [r for r in self.results.values() if r.flags]

    def scores(self) -> dict[str, float | None]:
        return {s: r.score for s, r in sorted(self.results.items())}

    def summary(self) -> str:
        counts = {k: sum(r.status == k for r in self.results.values()) for k in ("graded", "up to date", "not graded")}
        lines = [f"{self.lab}: {counts['graded']} graded, {counts['up to date']} already up to date, "
                 f"{counts['not graded']} not graded ({self.seconds:.1f} s)"]
        lines += [f"  NOTE: {w}" for w in self.warnings]
        for r in sorted(self.not_graded(), key=lambda r: r.student):
            lines.append(f"  NOT GRADED {printable(r.student)}: {printable(r.reason)}")
        for r in sorted((r for r in self.results.values() if r.notes), key=lambda r: r.student):
            lines.append(f"  STOPPED {printable(r.student)}: " + "; ".join(printable(n) for n in r.notes[:3]))
        for r in sorted(self.flagged(), key=lambda r: r.student):
            lines.append(f"  FLAGGED {printable(r.student)}: " + "; ".join(printable(f) for f in r.flags[:6])
                         + (f"; ... ({len(r.flags) - 6} more)" if len(r.flags) > 6 else ""))
        if self.not_graded() and self.logs:
            lines.append(f"  nbgrader logs: {self.logs}")
        return "\n".join(lines)


# --- processes -----------------------------------------------------------------------------------------------

def kill_tree(pid: int) -> None:
    """Kill a process and all its descendants (the nbgrader process and its kernels)."""
    import psutil

    try:
        parent = psutil.Process(pid)
        procs = parent.children(recursive=True) + [parent]
    except psutil.NoSuchProcess:
        return
    for p in procs:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(procs, timeout=10)


class GradingStopped(Exception):
    """The grader was told to stop (SIGTERM, SIGHUP); the shards were stopped, recorded grades kept."""


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into `GradingStopped` inside the block, so its clean-up runs.

    The shards run in sessions of their own (a Ctrl-C meant for the grader must not kill a
    kernel mid-cell), so nothing else would stop them when the grader is terminated.
    """
    def stop(signum: int, frame: object) -> None:
        for sig in previous:  # a second signal must not interrupt the clean-up
            signal.signal(sig, signal.SIG_IGN)
        raise GradingStopped(f"stopped by {signal.Signals(signum).name}")

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@dataclass
class Shard:
    index: int
    folder: Path
    ipc: Path
    pending: list[str]
    attempts: dict[str, int] = field(default_factory=dict)
    proc: Any = None  # a subprocess.Popen, or a grading.warm.WarmProcess (the same calls)
    started: float = 0.0
    last_activity: float = 0.0
    current: tuple[str, float] | None = None
    offset: int = 0
    launches: int = 0
    deadline: float = 0.0

    @property
    def events(self) -> Path:
        return self.folder / "events.jsonl"

    @property
    def log(self) -> Path:
        return self.folder / f"nbgrader-{self.launches}.log"


class Grader:
    """Grades one lab of a course; see the module docstring."""

    def __init__(self, root: Path, lab: str, *, jobs: int | None = None, force: bool = False,
                 students: list[str] | None = None, submission_timeout: float = 600.0,
                 shard_timeout: float | None = None, startup_timeout: float = 180.0, retries: int = 2,
                 cell_timeout: float | None = None, progress: Callable[[str], None] | None = print,
                 sandbox: bool | str = True, hand_back_after: float = 60.0, min_batch: int = 2,
                 starter: Any = None) -> None:
        self.root, self.lab = Path(root).resolve(), lab
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.force, self.only = force, students
        self.submission_timeout, self.shard_timeout = submission_timeout, shard_timeout
        self.startup_timeout, self.retries = startup_timeout, retries
        self.cell_timeout = cell_timeout  # overrides c.Execute.timeout (the demo uses a short one)
        self.progress = progress or (lambda line: None)
        # "bwrap" (True), "podman" or "docker"; False (no sandbox) only through `coursetools grade --no-sandbox`
        self.sandbox = "bwrap" if sandbox is True else sandbox or None
        # A submission still running after `hand_back_after` s hands the ones queued behind it back to the
        # shared queue; a shard takes at least `min_batch` submissions per nbgrader start.
        self.hand_back_after, self.min_batch = hand_back_after, min_batch
        # A `grading.warm.Starter` (a worker's self-checks): each nbgrader is forked from a process that imported
        # it and the checks already; None starts it the usual way (`subprocess.Popen`)
        self.starter = starter
        self.work = self.root / "build" / "grading" / lab
        self.report = Report(lab, logs=self.work / "logs")
        self.flags: dict[str, list[str]] = {}
        self.notes: dict[str, list[str]] = {}
        self.timing: dict[str, dict[str, float]] = {}

    # -- public --

    def run(self) -> Report:
        from coursetools.sandbox.launcher import cgroup_problem, probe, warm_caches

        if self.sandbox:
            probe(self.sandbox)  # SandboxUnavailable, with how to install the tool, before anything is graded
            warm_caches()
        if self.sandbox == "bwrap":  # a container's cgroup is its engine's
            problem = cgroup_problem()
            if problem:
                self.report.warnings.append(problem)
        t0 = time.monotonic()
        self.work.parent.mkdir(parents=True, exist_ok=True)
        with open(self.work.parent / f"{self.lab}.lock", "w") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RuntimeError(f"another grading of {self.lab} is running in {self.root}") from None
            try:
                with tools_on_path(), stop_on_signals():
                    self._run()
            finally:
                self.report.seconds = time.monotonic() - t0
        return self.report

    # -- steps --

    def _run(self) -> None:
        from nbgrader.api import Gradebook

        from coursetools.sandbox.launcher import sweep_cgroups, sweep_containers

        ensure_assignment(self.root, self.lab)
        self.names = notebook_names(self.root, self.lab)
        self.url, self.course = db_url(self.root), course_id(self.root)
        students = self.only if self.only is not None else submitted_students(self.root, self.lab)
        with Gradebook(self.url, self.course) as gb:
            self.max_score = gb.find_assignment(self.lab).max_score
            recorded = {s.student_id for s in gb.assignment_submissions(self.lab)}
        todo = []
        for s in students:
            if not self.force and is_up_to_date(self.root, self.lab, s, self.names, recorded):
                self.report.results[s] = Result(s, "up to date", score=self._score(s), max_score=self.max_score)
                continue
            todo.append(s)  # checked as its shard takes it (`_feed`), so no check holds up the others
        self.total, self.done = len(todo), 0
        self.checked: set[str] = set()
        if not todo:
            return
        if self.work.exists():
            for old in self.work.glob("shard-*"):  # a container of a grader killed outright (no clean-up ran)
                sweep_containers(self.sandbox, old / "sandboxes")
            shutil.rmtree(self.work)
        (self.work / "logs").mkdir(parents=True)
        ipc_root = Path(tempfile.mkdtemp(prefix="cg-", dir="/tmp" if os.path.isdir("/tmp") else None))
        self.queue = deque(todo)  # shards take batches from one shared queue
        self.nshards = min(self.jobs, len(todo))
        self.shards = shards = [Shard(k, self.work / f"shard-{k}", ipc_root / f"s{k}", []) for k in range(self.nshards)]
        try:
            self._prepare_template()
            for sh in shards:
                self._prepare(sh)
                self._feed(sh)
                if sh.pending:
                    self._launch(sh)
            self._loop(shards)
        finally:
            for sh in shards:
                if sh.proc and sh.proc.poll() is None:
                    kill_tree(sh.proc.pid)
                sweep_containers(self.sandbox, sh.folder / "sandboxes")
                for log in sh.folder.glob("nbgrader-*.log"):
                    shutil.copy(log, self.work / "logs" / f"shard-{sh.index}-{log.name}")
                shutil.rmtree(sh.folder, ignore_errors=True)
            shutil.rmtree(ipc_root, ignore_errors=True)
            (self.work / "template.db").unlink(missing_ok=True)
            sweep_cgroups()

    def _prepare_template(self) -> None:
        """The gradebook every shard starts from (`scratch.shard_gradebook`)."""
        shard_gradebook(self.root, self.lab, self.work / "template.db")

    def shard_config(self, ipc: Path | None) -> ShardConfig:
        """What a shard's nbgrader config adds to the course's (`scratch.write_config`)."""
        return ShardConfig(wall_clock_cap=max(1, int(self.submission_timeout * 0.75) - 5), ipc=ipc,
                           cell_timeout=self.cell_timeout)

    def _prepare(self, sh: Shard) -> None:
        sh.ipc.mkdir(parents=True)
        (sh.ipc / "runtime").mkdir()
        make_course(sh.folder, self.root, self.lab, self.work / "template.db", what="one shard of a class",
                    shard=self.shard_config(sh.ipc))

    def _feed(self, sh: Shard) -> None:
        """Give `sh` its next batch from the shared queue: an even share of it among the shards that have none
        (one nbgrader start each); a shard that runs dry later takes half of another's waiting list (`_steal`)."""
        empty = sum(1 for other in self.shards if not other.pending)
        n = min(len(self.queue), max(self.min_batch, math.ceil(len(self.queue) / max(1, empty))))
        batch = []
        while self.queue and len(batch) < n:
            s = self.queue.popleft()
            if s not in self.checked:
                problem = check_submission(self.root, self.lab, s, self.names)
                if problem:
                    self._unusable(s, problem)
                    continue
            dest = sh.folder / "submitted" / s / self.lab
            shutil.rmtree(dest, ignore_errors=True)
            try:
                copied = copy_submission(self.root / "submitted" / s / self.lab, dest,
                                         first=tuple(f"{name}.ipynb" for name in self.names))
            except OSError as exc:
                self._unusable(s, f"its folder could not be copied ({exc})")
                continue
            if s not in self.checked:  # what was left out, named once (a batch handed back is copied again)
                self.flags.setdefault(s, []).extend(copied.problems)
                self.checked.add(s)
            batch.append(s)
        sh.pending += batch
        sh.deadline = time.monotonic() + (self.shard_timeout or
                                          self.submission_timeout * len(sh.pending) + self.startup_timeout)

    def _steal(self, sh: Shard) -> bool:
        """An idle shard takes the second half of the longest waiting list of the others (the submissions its
        nbgrader reaches last, so never the one about to start); True when it took some."""
        waiting = {}
        for other in self.shards:
            if other is not sh and other.proc is not None:
                self._process_events(other)
                waiting[other.index] = [s for s in other.pending if not other.current or s != other.current[0]]
        if not waiting:
            return False
        victim = max(self.shards, key=lambda o: len(waiting.get(o.index, [])))
        rest = waiting.get(victim.index, [])
        if len(rest) < max(2, self.min_batch):
            return False
        taken = sorted(rest)[len(rest) - len(rest) // 2:]  # nbgrader grades a batch in sorted order
        for s in reversed(taken):
            victim.pending.remove(s)
            shutil.rmtree(victim.folder / "submitted" / s, ignore_errors=True)
            self.queue.appendleft(s)
        return True

    def _hand_back(self, sh: Shard) -> None:
        """The submissions waiting behind a slow one go back to the front of the queue, for any shard to take."""
        waiting = [s for s in sh.pending if not sh.current or s != sh.current[0]]
        for s in reversed(waiting):
            sh.pending.remove(s)
            shutil.rmtree(sh.folder / "submitted" / s, ignore_errors=True)
            self.queue.appendleft(s)

    def _launch(self, sh: Shard) -> None:
        sh.launches += 1
        for s in sh.pending:
            sh.attempts[s] = sh.attempts.get(s, 0) + 1
        argv = [sys.executable, "-m", "nbgrader", "autograde", self.lab, "--force"]
        env = tool_env(**{EVENTS_ENV: str(sh.events), "JUPYTER_RUNTIME_DIR": str(sh.ipc / "runtime"),
                          sandbox.MODE_ENV: self.sandbox or "none", sandbox.ROOT_ENV: str(sh.folder / "sandboxes")})
        if self.starter is not None:  # forked from a process that imported nbgrader already (`grading.warm`)
            sh.proc = self.starter.spawn(argv, cwd=sh.folder, env=env, log=sh.log)
        else:
            prepare_die_with_parent()
            me = os.getpid()
            with open(sh.log, "w") as log:
                # The shard ends with this process, even killed outright (SIGKILL, out of memory): it gets SIGTERM
                # (PR_SET_PDEATHSIG) and kills its kernels' sandboxes first (`end_descendants_on`, in its config).
                sh.proc = subprocess.Popen(argv, cwd=sh.folder, stdout=log, stderr=subprocess.STDOUT,
                                           start_new_session=True, env=env,
                                           preexec_fn=lambda: die_with_parent(me, signal.SIGTERM))
        sh.started = sh.last_activity = time.monotonic()
        sh.current = None

    def _read_events(self, sh: Shard) -> list[dict]:
        if not sh.events.is_file():
            return []
        with open(sh.events) as f:
            f.seek(sh.offset)
            data = f.read()
        complete = data[: data.rfind("\n") + 1]
        sh.offset += len(complete.encode())
        return [json.loads(line) for line in complete.splitlines() if line.strip()]

    def _loop(self, shards: list[Shard]) -> None:
        while any(sh.proc is not None for sh in shards) or self.queue:
            for sh in shards:
                if sh.proc is None:
                    if self.queue or self._steal(sh):  # an idle shard takes the next batch
                        self._feed(sh)
                        if sh.pending:
                            self._launch(sh)
                    continue
                exited = sh.proc.poll() is not None
                self._process_events(sh)
                now = time.monotonic()
                if exited:
                    self._after_exit(sh)
                elif sh.current and now - sh.current[1] > self.submission_timeout:
                    self._stop(sh, [sh.current[0]], f"stopped after the {self.submission_timeout:.0f} s cap per submission")
                elif sh.current and now - sh.current[1] > self.hand_back_after and len(sh.pending) > 1:
                    self._hand_back(sh)
                elif not sh.current and now - sh.last_activity > self.startup_timeout:
                    self._stop(sh, [], f"nbgrader did not start a submission within {self.startup_timeout:.0f} s",
                               retry=True)
                elif now > sh.deadline:
                    self._stop(sh, list(sh.pending), "its shard ran past the shard's wall-clock cap")
            time.sleep(0.1)

    def _process_events(self, sh: Shard) -> None:
        for ev in self._read_events(sh):
            sh.last_activity = time.monotonic()
            if ev["event"] in ("start", "done") and ev["student"] not in sh.pending:
                continue  # handed back to the queue, or already judged
            if ev["event"] == "start":
                previous = sh.current[0] if sh.current else None
                if previous and previous != ev["student"] and previous in sh.pending:
                    self._judge(sh, previous)  # nbgrader moved on without finishing it
                sh.current = (ev["student"], time.monotonic())
            elif ev["event"] == "done" and ev["student"] in sh.pending:
                self._finish(sh, ev["student"])
            elif ev["event"] == "flag":
                for key, store in (("flags", self.flags), ("notes", self.notes)):
                    if isinstance(ev.get(key), list):
                        store.setdefault(ev["student"], []).extend(str(f)[:300] for f in ev[key][:20])
                if isinstance(ev.get("seconds"), dict):
                    self.timing[ev["student"]] = {str(k): float(v) for k, v in ev["seconds"].items()}

    def _stop(self, sh: Shard, failed: list[str], reason: str, retry: bool = False) -> None:
        from coursetools.sandbox.launcher import sweep_containers

        kill_tree(sh.proc.pid)
        sh.proc.wait()
        sweep_containers(self.sandbox, sh.folder / "sandboxes")  # a container is not the shard's child: it outlives the kill
        self._process_events(sh)  # submissions finished just before the kill still count
        for s in failed:
            self._fail(sh, s, reason)
        if retry:
            self._retry_or_fail(sh, reason)
        self._relaunch_or_close(sh)

    def _judge(self, sh: Shard, student: str) -> None:
        """A submission nbgrader gave up on: fail it now, unless its kernel failed to start (retried later)."""
        reason = self._reason_from_log(sh.log.read_text(errors="replace") if sh.log.is_file() else "", student)
        if reason and KERNEL_START_FAILURE.search(reason) and sh.attempts.get(student, 0) <= self.retries:
            self.progress(f"[{self.lab}] {printable(student)}: {printable(reason)}; will try again")
        else:
            self._fail(sh, student, reason or "nbgrader gave up on it (see the logs)")

    def _after_exit(self, sh: Shard) -> None:
        log = sh.log.read_text(errors="replace") if sh.log.is_file() else ""
        for s in list(sh.pending):
            reason = self._reason_from_log(log, s)
            retryable = reason is None or KERNEL_START_FAILURE.search(reason)
            reason = reason or f"nbgrader exited (code {sh.proc.returncode}) without grading it"
            if retryable and sh.attempts.get(s, 0) <= self.retries:
                self.progress(f"[{self.lab}] {printable(s)}: {printable(reason)}; trying again")
            else:
                self._fail(sh, s, f"{reason} (after {sh.attempts.get(s, 0)} attempts)" if retryable else reason)
        self._relaunch_or_close(sh)

    def _retry_or_fail(self, sh: Shard, reason: str) -> None:
        for s in list(sh.pending):
            if sh.attempts.get(s, 0) > self.retries:
                self._fail(sh, s, f"{reason} ({sh.attempts[s]} attempts)")

    def _relaunch_or_close(self, sh: Shard) -> None:
        sh.current = None
        shutil.rmtree(sh.folder / "autograded", ignore_errors=True)
        if not sh.pending and self.queue:
            self._feed(sh)
        if sh.pending:
            self._launch(sh)
        else:
            sh.proc = None

    @staticmethod
    def _reason_from_log(log: str, student: str) -> str | None:
        """The last line of the traceback nbgrader logged for `student`'s submission."""
        marker = re.compile(r"There was an error processing assignment: \S*/submitted/" + re.escape(student) + r"/")
        matches = list(marker.finditer(log))
        if not matches:
            return None
        lines = []
        for i, line in enumerate(log[matches[-1].end():].splitlines()[1:]):
            if i > 0 and line.startswith("[") and "|" in line[:40]:  # the next log record
                break
            if line.strip():
                lines.append(line.strip())
        return lines[-1][:300] if lines else None

    def _fail(self, sh: Shard, student: str, reason: str) -> None:
        if student in sh.pending:
            sh.pending.remove(student)
        shutil.rmtree(sh.folder / "submitted" / student, ignore_errors=True)
        shutil.rmtree(sh.folder / "autograded" / student, ignore_errors=True)
        self.done += 1
        self.report.results[student] = Result(student, "not graded", reason, score=self._score(student),
                                              max_score=self.max_score, flags=self.flags.pop(student, []),
                                              notes=self.notes.pop(student, []), timing=self.timing.pop(student, {}))
        self.progress(f"[{self.lab} {self.done}/{self.total}] {printable(student)}: NOT GRADED: {printable(reason)}")

    def _finish(self, sh: Shard, student: str) -> None:
        seconds = time.monotonic() - sh.current[1] if sh.current and sh.current[0] == student else 0.0
        sh.current = None
        self._merge(sh, student)
        sh.pending.remove(student)
        shutil.rmtree(sh.folder / "submitted" / student, ignore_errors=True)
        self.done += 1
        score = self._score(student)
        self.report.results[student] = Result(student, "graded", seconds=seconds, score=score, max_score=self.max_score,
                                              flags=self.flags.pop(student, []), notes=self.notes.pop(student, []),
                                              timing=self.timing.pop(student, {}))
        self.progress(f"[{self.lab} {self.done}/{self.total}] {printable(student)}: {score:g}/{self.max_score:g} "
                      f"in {seconds:.1f} s (shard {sh.index})")

    def _merge(self, sh: Shard, student: str) -> None:
        """Copy one submission's grades into the course gradebook, then its notebooks into autograded/."""
        from nbgrader.api import Gradebook

        with Gradebook("sqlite:///" + str(sh.folder / "gradebook.db"), self.course) as src:
            timestamp = src.find_submission(self.lab, student).timestamp
            notebooks = read_grades(src, self.lab, student)
        record_submission(self.url, self.course, self.lab, student, timestamp, notebooks)
        out = self.root / "autograded" / student / self.lab
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(sh.folder / "autograded" / student / self.lab, out)
        shutil.rmtree(sh.folder / "autograded" / student, ignore_errors=True)

    def _unusable(self, student: str, problem: str) -> None:
        """A submission that cannot be graded at all: recorded with 0 and reported NOT GRADED with `problem`."""
        record_unusable(self.root, self.lab, student, self.url, self.course)
        self.done += 1
        self.report.results[student] = Result(student, "not graded", problem, score=0.0, max_score=self.max_score,
                                              flags=self.flags.pop(student, []))
        self.progress(f"[{self.lab} {self.done}/{self.total}] {printable(student)}: NOT GRADED: {printable(problem)}")

    def _score(self, student: str) -> float | None:
        return submission_score(self.url, self.course, self.lab, student)


def grade(root: Path, lab: str, **options) -> Report:
    """Grade every submission of `lab` in the course at `root`; see `Grader` for the options."""
    return Grader(root, lab, **options).run()

