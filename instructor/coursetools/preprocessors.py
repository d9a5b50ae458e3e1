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
  Before each graded test cell it resets IPython (`coursetools.shellguard`) through an
  execute request's ``user_expressions``, which do not pass through input transformers a
  submission may have installed; a test cell before which that fails scores 0.
- `MarkUnrunTests` (just before nbgrader's `SaveAutoGrades`) gives an error output to any
  graded test cell the grader did not run, whatever the reason, so none counts as passed.
- `RestoreMissingTests` (sanitizing step) puts back graded test cells a student deleted
  or stripped of their nbgrader metadata, from the gradebook, after the nearest cell
  that is still there; nbgrader then runs them on the student's code as usual.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from queue import Empty

from jupyter_core.utils import run_sync
from nbclient.exceptions import DeadKernelError
from nbclient.client import NotebookClient
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.api import Gradebook
from nbgrader.preprocessors import Execute, NbGraderPreprocessor
from traitlets import Integer

KEY = "coursetools"  # where the executed cells are recorded in the resources


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

    async def _async_reset_shell(self, grace: float) -> bool:
        """Undo shell tampering (see coursetools.shellguard) without going through the input transformers."""
        token = secrets.token_hex(8)
        expr = f"__import__('coursetools.shellguard').shellguard.reset({token!r})"
        reply = await self._async_reply(
            self.kc.execute("", silent=True, store_history=False, user_expressions={"reset": expr}), grace)
        if reply is None or reply["content"].get("status") != "ok":
            return False
        result = reply["content"].get("user_expressions", {}).get("reset", {})
        return result.get("data", {}).get("text/plain") == repr(token)

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
        executed: list[int] = []
        stopped: str | None = None  # why the cells still to come do not run
        with self.setup_kernel():
            info_msg = self.wait_for_reply(self.kc.kernel_info())
            self.nb.metadata["language_info"] = info_msg["content"]["language_info"]
            for index, cell in enumerate(self.nb.cells):
                if not _runs(cell):
                    continue
                if stopped:
                    cell.outputs = [error_output("NotRun", stopped)]
                    continue
                try:
                    if _is_test(cell) and not run_sync(self._async_reset_shell)(self.stuck_grace):
                        self.log.warning("could not reset the shell before test cell %d", index)
                        cell.outputs = [error_output(
                            "ShellTampered", "the grader could not reset IPython before this test cell (the "
                            "submission changes how cells run), so this test scores 0")]
                        continue
                    self.preprocess_cell(cell, resources, index)
                except DeadKernelError:
                    self.log.warning("kernel died in cell %d", index)
                    cell.outputs = list(cell.get("outputs", [])) + [error_output(
                        "KernelDied",
                        "the Python kernel died while running this cell (os._exit, a crash in C code or memory "
                        "exhausted). The cells after it were not run and their tests score 0.")]
                    stopped = f"not run: the kernel died in an earlier cell (cell {index + 1} of the notebook)"
                    continue
                executed.append(index)
                if self._timed_out:
                    self._timed_out = False
                    if not run_sync(self._async_answers)(self.stuck_grace):
                        self.log.warning("kernel stuck after interrupting cell %d: stopping it", index)
                        cell.outputs.append(error_output(
                            "KernelStuck",
                            f"this cell ran past the {self.timeout} s limit and did not stop when interrupted "
                            "(code stuck inside C). The kernel was stopped; the cells after it were not run."))
                        stopped = f"not run: the kernel was stuck in an earlier cell (cell {index + 1} of the notebook)"
                        self._stop_kernel()
        self.set_widgets_metadata()
        self.resources.setdefault(KEY, {})["executed"] = executed
        return self.nb, self.resources


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
