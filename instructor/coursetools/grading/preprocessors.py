"""nbgrader preprocessors that keep grading honest when a submission misbehaves.

nbgrader scores a test cell by its outputs: an error (or anything on stderr) gives 0,
*no output at all gives full marks*. So a test cell that never ran must never be left
without output. nbgrader_config.py puts these in the autograde pipeline:

- `GuardedExecute` replaces nbgrader's `Execute`. When the kernel dies (``os._exit``, a
  crash in C, memory exhausted under the grader's cap) or stays stuck after a timeout
  because the code is inside C and ignores interrupts, it does not abort the whole
  submission (nbgrader would drop every score, even those already earned): it marks the
  cell where it happened and every later code cell with an error, so the tests run
  before keep their score and every test after it scores 0.
  A graded test cell is run in two parts: its visible asserts in the kernel (an error there
  scores 0, and the hidden checks still run for their hint), then its hidden ``check(...)`` calls
  in this process (`coursetools.grading.checker`),
  which reach the student's functions over a channel. The cell's score is that verdict:
  nothing the kernel prints or reports can raise it, and output on stderr never decides it.
- Each graded test cell's metadata gets the grader's own record of its verdict under ``coursetools``
  (``verdict``, ``kind``, ``group`` and the ``mistakes`` its hint names, `coursetools.grading.misconceptions`);
  whatever a submission wrote there is removed first. ``coursetools report`` reads it.
- `MarkUnrunTests` (just before nbgrader's `SaveAutoGrades`) gives an error output to any
  graded test cell the grader did not run, whatever the reason, so none counts as passed.
- `SanitizeOutputs` (last) makes every output and markdown cell inert (`coursetools.grading.sanitize`), so
  formgrader and the feedback page never run what a student wrote; it changes no score.
- `RestoreMissingTests` (sanitizing step) puts back graded test cells a student deleted
  or stripped of their nbgrader metadata, from the gradebook, after the nearest cell
  that is still there; nbgrader then runs them on the student's code as usual.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import tempfile
import time
from pathlib import Path
from queue import Empty

from jupyter_core.utils import run_sync
from nbclient.exceptions import DeadKernelError
from nbclient.client import NotebookClient
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.api import Gradebook
from nbgrader.preprocessors import Execute, NbGraderPreprocessor
from traitlets import Integer

from coursetools.checks.common import for_student
from coursetools.checks.kerneltext import set_written
from coursetools.grading.checker import CheckCall, HiddenFormError, HiddenRun, Verdict, parse_hidden, split_hidden
from coursetools.grading.misconceptions import diagnose
from coursetools.grading.sanitize import sanitize_notebook

KEY = "coursetools"  # where the executed cells are recorded in the resources, and each test cell's verdict


def submission_timestamp(resources: dict) -> str | None:
    """The submission's ``timestamp.txt`` (beside the notebook being graded, as nbgrader reads it), or None: with
    the student's id it seeds the hidden cases drawn for this submission (`checks.common.for_student`)."""
    folder = resources.get("metadata", {}).get("path")
    try:
        text = (Path(folder) / "timestamp.txt").read_text(errors="replace")[:100].strip() if folder else ""
    except OSError:
        return None
    return text or None


def record(cell: NotebookNode, kind: str, group: str = "", mistakes: list | None = None) -> None:
    """The grader's record of a test cell's verdict, in its metadata (`kind` "passed" or how it failed)."""
    cell.metadata[KEY] = {"verdict": "passed" if kind == "passed" else "failed", "kind": kind, "group": group,
                          "mistakes": mistakes or []}


def error_output(ename: str, message: str) -> NotebookNode:
    """An nbformat error output whose traceback is just the message."""
    return NotebookNode(output_type="error", ename=ename, evalue=message, traceback=[f"{ename}: {message}"])


def _runs(cell: NotebookNode) -> bool:
    return cell.cell_type == "code" and bool(cell.source.strip())


def _is_test(cell: NotebookNode) -> bool:
    return cell.cell_type == "code" and utils.is_grade(cell) and not utils.is_solution(cell)


class GuardedExecute(Execute):
    """nbgrader's Execute, but a dead or stuck kernel zeroes the cells after it instead of aborting."""

    stuck_grace = Integer(
        10, help="Seconds an interrupted kernel has to answer again before it counts as stuck and is stopped."
    ).tag(config=True)

    wall_clock_cap = Integer(
        0, help="Seconds a whole submission may run (0: no cap). Past it, the cells still to come are not run and "
                "their tests score 0; the tests that finished keep their verdicts."
    ).tag(config=True)

    max_output_chars = Integer(
        200_000, help="Characters of output kept per cell; the rest is dropped with a note (printing megabytes)."
    ).tag(config=True)

    async def _async_handle_timeout(self, timeout, cell=None):
        self._timed_out = True
        return await super()._async_handle_timeout(timeout, cell)

    def output(self, outs, msg, display_id, cell_index):
        """Keep at most `max_output_chars` of output per cell; errors always pass."""
        content = msg.get("content", {})
        size = len(content.get("text", "")) + sum(len(str(v)) for v in (content.get("data") or {}).values())
        used = self._output_sizes.get(cell_index, 0)
        if msg.get("msg_type") != "error" and used + size > self.max_output_chars:
            if cell_index not in self._truncated:
                self._truncated.add(cell_index)
                name = content.get("name", "stdout")
                outs.append(NotebookNode(output_type="stream", name=name if name == "stderr" else "stdout",
                                         text=f"\n... output truncated by the grader (over {self.max_output_chars} "
                                              "characters) ...\n"))
            return None
        self._output_sizes[cell_index] = used + size
        return super().output(outs, msg, display_id, cell_index)

    async def _async_reply(self, msg_id: str, grace: float) -> dict | None:
        """The shell reply to `msg_id` if it comes within `grace` seconds."""
        deadline = time.monotonic() + grace
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                msg = await self.kc.shell_channel.get_msg(timeout=min(left, 1.0))
            except (Empty, asyncio.TimeoutError):
                if not await self.kc.is_alive():
                    return None
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg

    async def _async_answers(self, grace: float) -> bool:
        """True when the kernel runs a trivial request within `grace` seconds."""
        return await self._async_reply(self.kc.execute("pass", silent=True, store_history=False), grace) is not None

    def _stop_kernel(self) -> None:
        try:
            run_sync(self.km.shutdown_kernel)(now=True)
        except Exception as exc:  # already gone
            self.log.warning("stopping the kernel: %s", exc)

    def preprocess(self, nb, resources=None, km=None):
        NotebookClient.__init__(self, nb, km)
        self.reset_execution_trackers()
        self._check_assign_resources(resources)
        self._timed_out = False
        self._output_sizes: dict[int, int] = {}
        self._truncated: set[int] = set()
        self._events: list[str] = []  # what the submission tried beyond its sandbox
        self._notes: list[str] = []   # what happened to it (its wall-clock cap)
        self._seconds = {"kernel": 0.0, "checks": 0.0}  # where its time went, for `make bench`
        executed: list[int] = []
        stopped: str | None = None  # why the cells still to come do not run
        t_start = time.monotonic()
        with self.setup_kernel():
            self._seconds["start"] = time.monotonic() - t_start
            km = self.km  # nbclient lets go of it when the kernel is shut down; its sandbox report is read after
            info_msg = self.wait_for_reply(self.kc.kernel_info())
            self.nb.metadata["language_info"] = info_msg["content"]["language_info"]
            started, cell_timeout = time.monotonic(), self.timeout
            for cell in self.nb.cells:  # only the grader writes its records
                cell.metadata.pop(KEY, None)
            # what the notebook says before any of it runs: a self-check's message may quote it (`kerneltext`)
            set_written([split_hidden(c.source)[0] for c in self.nb.cells if c.cell_type == "code"])
            for index, cell in enumerate(self.nb.cells):
                if not _runs(cell):
                    continue
                if self.wall_clock_cap and not stopped:
                    left = self.wall_clock_cap - (time.monotonic() - started)
                    if left <= 1:
                        stopped = (f"not run: the submission reached its {self.wall_clock_cap} s wall-clock cap "
                                   f"before this cell (cell {index + 1} of the notebook)")
                        self._notes.append(f"reached its {self.wall_clock_cap} s wall-clock cap at cell {index + 1}: "
                                           "the tests after it score 0")
                    elif cell_timeout:
                        self.timeout = int(max(1, min(cell_timeout, left)))
                if stopped:
                    cell.outputs = [error_output("NotRun", stopped)]
                    if _is_test(cell):
                        record(cell, "not run")
                    continue
                try:
                    if _is_test(cell):
                        stopped = self._run_test_cell(cell, resources, index)
                    else:
                        t_cell = time.monotonic()
                        self.preprocess_cell(cell, resources, index)
                        self._seconds["kernel"] += time.monotonic() - t_cell
                except DeadKernelError:
                    self.log.warning("kernel died in cell %d", index)
                    cell.outputs = list(cell.get("outputs", [])) + [error_output(
                        "KernelDied",
                        "the Python kernel died while running this cell (os._exit, a crash in C code or memory "
                        "exhausted). The cells after it were not run and their tests score 0.")]
                    if _is_test(cell):
                        record(cell, "kernel died")
                    stopped = f"not run: the kernel died in an earlier cell (cell {index + 1} of the notebook)"
                    continue
                executed.append(index)
                if self._timed_out and not stopped:
                    self._timed_out = False
                    if not run_sync(self._async_answers)(self.stuck_grace):
                        self.log.warning("kernel stuck after interrupting cell %d: stopping it", index)
                        cell.outputs.append(error_output(
                            "KernelStuck",
                            f"this cell ran past the {self.timeout} s limit and did not stop when interrupted "
                            "(code stuck inside C). The kernel was stopped; the cells after it were not run."))
                        stopped = f"not run: the kernel was stuck in an earlier cell (cell {index + 1} of the notebook)"
                        if _is_test(cell):
                            record(cell, "kernel stuck")
                        self._stop_kernel()
        self.set_widgets_metadata()
        self.resources.setdefault(KEY, {})["executed"] = executed
        self._read_sandbox_report(km)
        self.resources[KEY]["events"] = self._events
        _tell_grader(self.resources, self._events, self._notes, self._seconds)
        return self.nb, self.resources

    def _read_sandbox_report(self, km) -> None:
        """What the sandbox's watcher saw (flags) and how near its memory cap the sandbox came (notes)."""
        report = getattr(km, "report", None)
        if report is None:  # a kernel manager without a sandbox
            return
        flags, usage = report()
        self._events.extend(flags)
        limit, peak = usage.get("limit"), usage.get("peak")
        if usage.get("failcnt") or usage.get("oom_kill"):
            self._notes.append(
                f"its sandbox reached its memory cap of {(limit or 0) // 2**20} MB (peak {(peak or 0) // 2**20} MB; "
                f"{usage.get('failcnt', 0)} allocations refused; {usage.get('oom_kill', 0)} processes ended by the "
                "out-of-memory killer)")

    # -- test cells: the visible part in the kernel, the hidden checks here ------------------------------------

    def _run_test_cell(self, cell: NotebookNode, resources: dict, index: int) -> str | None:
        """Run one graded test cell; returns why later cells cannot run (a stuck kernel), else None."""
        source = cell.source
        visible, hidden = split_hidden(source)
        if hidden is None:
            cell.outputs = [error_output("NoHiddenCheck", "this test cell has no hidden check, so the grader has no "
                                         "verdict of its own for it (a course set-up problem): it scores 0")]
            record(cell, "set-up")
            return None
        try:
            calls = parse_hidden(hidden)
        except HiddenFormError as exc:
            cell.outputs = [error_output("GraderSetup", f"{exc} (a course set-up problem): this test scores 0")]
            record(cell, "set-up")
            return None
        cell.outputs = []
        failed_visibly = False
        if visible.strip():
            cell.source = visible
            t_cell = time.monotonic()
            try:
                self.preprocess_cell(cell, resources, index)
            finally:
                cell.source = source
                self._seconds["kernel"] += time.monotonic() - t_cell
            if self._timed_out:
                cell.outputs.append(error_output("Timeout", f"the visible tests ran past the {self.timeout} s limit"))
                record(cell, "timeout")
                return None  # the caller decides whether the kernel is stuck
            cell.outputs = [_quiet_stderr(o) for o in cell.outputs if o.get("output_type") != "execute_result"]
            # A visible failure scores 0; the hidden checks still run, for the hint they give (shown, and
            # recorded for the class report) and never for the score.
            failed_visibly = any(o.output_type == "error" for o in cell.outputs)
            record(cell, "visible test" if failed_visibly else "passed")
        hidden: list[dict] = []  # each check's own verdict, whatever the visible tests did (the self-check reads it)
        for call in calls:
            t_check = time.monotonic()
            with for_student(resources.get("nbgrader", {}).get("student"), submission_timestamp(resources)):
                verdict, stuck = self._check(call, index)
            self._seconds["checks"] += time.monotonic() - t_check
            self._events.extend(f"{cell.metadata.nbgrader.get('grade_id', index)}: {e}" for e in verdict.events)
            if verdict.passed and not failed_visibly:
                cell.outputs.append(NotebookNode(output_type="stream", name="stdout", text=verdict.message + "\n"))
                record(cell, "passed", call.group)
            elif not verdict.passed:
                cell.outputs.append(error_output("CheckFailed", verdict.message))
                record(cell, "visible test" if failed_visibly else "hidden test", call.group,
                       diagnose(call.lab, verdict.message, verdict.untrusted))
            hidden.append({"group": call.group, "passed": verdict.passed, "cases": _cases_passed(verdict)})
            if KEY in cell.metadata:
                cell.metadata[KEY]["hidden"] = list(hidden)
            if stuck or not verdict.passed:
                return stuck
        return None

    def _check(self, call: CheckCall, index: int) -> tuple[Verdict, str | None]:
        """One hidden check: the kernel serves the student's functions while this process decides."""
        # The kernel's IPC folder: the one folder of the grader's that its sandbox can reach.
        if getattr(self.km, "transport", "tcp") == "ipc":
            folder = os.path.dirname(self.km.ip)
        else:
            folder = os.path.dirname(self.km.connection_file or "") or tempfile.gettempdir()
        run = HiddenRun(call, folder)
        # A user expression: evaluated without the input transformers a submission may have installed.
        msg_id = self.kc.execute("", silent=True, store_history=False, allow_stdin=False,
                                 user_expressions={"check": run.code()})
        verdict = run.run(kernel_alive=lambda: run_sync(self.km.is_alive)())
        if run_sync(self._async_reply)(msg_id, 10) is not None:
            return verdict, None
        self.log.warning("the kernel did not finish the check of cell %d: interrupting it", index)
        try:
            run_sync(self.km.interrupt_kernel)()
        except Exception as exc:  # already gone
            self.log.warning("interrupting the kernel: %s", exc)
        if run_sync(self._async_reply)(msg_id, self.stuck_grace) is not None:
            return verdict, None
        if not run_sync(self.km.is_alive)():
            return verdict, f"not run: the kernel died in an earlier cell (cell {index + 1} of the notebook)"
        self._stop_kernel()
        return verdict, f"not run: the kernel was stuck in an earlier cell (cell {index + 1} of the notebook)"


def _cases_passed(verdict: Verdict) -> int | None:
    """How many cases a passed check counted (its message says so), None when it failed or did not count."""
    if not verdict.passed:
        return None
    found = re.search(r"all (\d+) cases passed", verdict.message)
    return int(found.group(1)) if found else None


def _tell_grader(resources: dict, flags: list[str], notes: list[str], seconds: dict[str, float]) -> None:
    """Hand the coordinating grader what a submission tried beyond its sandbox, what stopped it, and
    where its time went (its kernel's start, its cells, the hidden checks)."""
    path = os.environ.get("COURSETOOLS_GRADING_EVENTS")
    if not path:
        return
    student = resources.get("nbgrader", {}).get("student", "?")
    with open(path, "a") as f:
        f.write(json.dumps({"event": "flag", "student": student, "flags": flags[:20], "notes": notes[:5],
                            "seconds": {k: round(v, 3) for k, v in seconds.items()}, "t": time.time()}) + "\n")


def _quiet_stderr(output: NotebookNode) -> NotebookNode:
    """Output on stderr stays visible but never decides a test's score (nbgrader zeroes a cell on stderr)."""
    if output.get("output_type") == "stream" and output.get("name") == "stderr":
        return NotebookNode(output_type="stream", name="stdout", text=output.get("text", ""))
    return output


class MarkUnrunTests(NbGraderPreprocessor):
    """Give an error output to every graded test cell that did not run, so it scores 0."""

    def preprocess(self, nb, resources):
        executed = resources.get(KEY, {}).get("executed")
        for index, cell in enumerate(nb.cells):
            if not _is_test(cell):
                continue
            if any(o.output_type == "error" for o in cell.outputs):
                continue
            ran = index in executed if executed is not None else cell.get("execution_count") is not None
            if not ran:
                self.log.warning("test cell %s was not run: scoring it 0", cell.metadata.nbgrader.get("grade_id"))
                cell.outputs.append(error_output("NotRun", "the grader could not run this test cell, so it scores 0"))
                record(cell, "not run")
        return nb, resources


class RestoreMissingTests(NbGraderPreprocessor):
    """Put back graded test cells missing from a submission (deleted, or their metadata stripped)."""

    def preprocess(self, nb, resources):
        notebook_id = resources["nbgrader"]["notebook"]
        assignment_id = resources["nbgrader"]["assignment"]
        # cells whose grade_id nbgrader did not recognise are ordinary cells from now on
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader")
            if meta is not None and "grade_id" not in meta:
                del cell.metadata["nbgrader"]
        with Gradebook(resources["nbgrader"]["db_url"]) as gb:
            source = gb.find_notebook(notebook_id, assignment_id)
            order = [c.name for c in source.source_cells]
            solutions = {c.name for c in source.solution_cells}
            missing = [(c.name, c.max_score) for c in source.grade_cells
                       if c.cell_type == "code" and c.name not in solutions]
            cells = {c.name: c for c in source.source_cells}
            for grade_id, points in sorted(missing, key=lambda m: order.index(m[0])):
                present = {c.metadata.get("nbgrader", {}).get("grade_id"): i for i, c in enumerate(nb.cells)}
                if grade_id in present:
                    continue
                before = [present[g] for g in order[: order.index(grade_id)] if g in present]
                at = max(before) + 1 if before else 0
                src = cells[grade_id]
                cell = NotebookNode(cell_type="code", execution_count=None, outputs=[], source=src.source, metadata={
                    "deletable": False, "editable": False,
                    "nbgrader": {"grade": True, "grade_id": grade_id, "locked": True, "checksum": src.checksum,
                                 "points": float(points), "solution": False, "schema_version": 3},
                })
                nb.cells.insert(at, cell)
                self.log.warning("test cell %s was missing from the submission: put back at position %d", grade_id, at)
        return nb, resources


class SanitizeOutputs(NbGraderPreprocessor):
    """Every output and markdown cell made inert before the notebook is written (autograded/, feedback)."""

    def preprocess(self, nb, resources):
        return sanitize_notebook(nb), resources
