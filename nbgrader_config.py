"""nbgrader configuration for the adversarial-search course.

Every path is relative to the folder holding this file, so the course works from any
checkout and from any working directory (``nbgrader ... --config path/to/this``).
"""

import os

c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

HERE = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.course_id = "adversarial-search"
c.CourseDirectory.root = HERE
# The embedded gradebook lives beside this file. A large course points this at a
# shared PostgreSQL database instead (see README, "Grading a large class").
c.CourseDirectory.db_url = os.environ.get(
    "COURSE_DB_URL", "sqlite:///" + os.path.join(HERE, "gradebook.db")
)

# The labs are listed once, in instructor/coursetools/labs.py (nbgrader finds them in source/).

# Stubs students see in place of solutions.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# --- Executing submissions ------------------------------------------------------------
# nbgrader's default is 30 s per cell. Our slowest solution cell runs in a few seconds,
# but a class is graded on busy machines, so allow 120 s before a cell counts as hung.
c.Execute.timeout = 120
# A cell stuck in C code can stop the kernel from publishing output; with the default
# (True) such an iopub timeout aborts the whole submission instead of just that cell.
c.Execute.raise_on_iopub_timeout = False
c.Execute.interrupt_on_timeout = True
# Short tracebacks (the students' own frames only) and no history file: kernels start faster
# and leave nothing behind. Nothing of the grader is imported into a kernel: hidden tests run
# in the grader's own process (coursetools.grading.checker) and reach the student's functions over a
# channel; the kernel starts through coursetools.sandbox.launcher (memory cap COURSE_KERNEL_MEMORY_MB,
# default 3072, and an environment without the instructor's variables).
c.Execute.extra_arguments = [
    "--InteractiveShell.xmode=Minimal",
    "--HistoryManager.enabled=False",
    "--HistoryManager.hist_file=:memory:",
]
c.GuardedExecute.kernel_manager_class = "coursetools.sandbox.manager.SandboxKernelManager"
# A submission's kernel is killed when its last cell is done (its sandbox and all in it go with it):
# nothing in it is kept, so it need not shut down politely, which costs 0.3 s a submission.
c.GuardedExecute.shutdown_kernel = "immediate"

# --- Hardened autograding (instructor/coursetools/grading/preprocessors.py) -------------------
# nbgrader gives full marks to a test cell with no output, so a cell that never ran must
# never stay empty. GuardedExecute replaces Execute: a kernel that dies (os._exit, memory
# exhausted) or stays stuck in C after a timeout zeroes the cells after it instead of
# aborting the whole submission; it also keeps at most 200,000 characters of output per
# cell. MarkUnrunTests gives 0 to any graded test cell that did not run. Test cells a
# student deleted or stripped of their metadata are put back (RestoreMissingTests).
from nbgrader.preprocessors import (  # noqa: E402
    AssignLatePenalties, CheckCellMetadata, ClearOutput, DeduplicateIds, LimitOutput,
    OverwriteCells, OverwriteKernelspec, SaveAutoGrades,
)

c.Autograde.sanitize_preprocessors = [
    ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells,
    "coursetools.grading.preprocessors.RestoreMissingTests", CheckCellMetadata,
]
c.Autograde.autograde_preprocessors = [
    "coursetools.grading.preprocessors.GuardedExecute",
    "nbconvert.preprocessors.ClearMetadataPreprocessor", LimitOutput,
    "coursetools.grading.preprocessors.MarkUnrunTests", SaveAutoGrades, AssignLatePenalties, CheckCellMetadata,
    "coursetools.grading.preprocessors.SanitizeOutputs",
]
c.GuardedExecute.stuck_grace = 10
# Output on stderr never decides a test: GuardedExecute turns it into stdout in test cells.
# SanitizeOutputs (last, after the scores are saved) makes what a student wrote inert where the autograded
# notebook is written: formgrader renders that notebook, and the feedback page is built from it. No script,
# event handler, javascript: URL, iframe, form or SVG survives; PNG/JPEG figures, text and maths do.

# --- Feedback -------------------------------------------------------------------------
# Students see each hidden test's result and message, never the test's source.
# (nbgrader's default feedback shows the hidden tests' source.)
from nbconvert.preprocessors import CSSHTMLHeaderPreprocessor  # noqa: E402
from nbgrader.preprocessors import ClearHiddenTests  # noqa: E402

# PendingGetGrades is nbgrader's GetGrades plus which answers still wait for a grade by hand;
# SanitizeOutputs again: a notebook autograded before the sanitiser existed is cleaned too.
c.GenerateFeedback.preprocessors = ["coursetools.grading.pending.PendingGetGrades", ClearHiddenTests,
                                    "coursetools.grading.preprocessors.SanitizeOutputs",
                                    CSSHTMLHeaderPreprocessor]
# The feedback page names every test cell by its grade id, with its verdict and points, in the list at
# the top and in the cell's own heading (nbgrader's page calls each one "Test cell"): the template
# coursetools/grading/feedback_templates/feedback/index.html.j2 takes the place of nbgrader's `feedback`.
# nbgrader's own template folder stays in the list: formgrader renders its pages from it.
import coursetools.grading  # noqa: E402
import nbgrader  # noqa: E402

c.HTMLExporter.extra_template_basedirs = [
    os.path.join(os.path.dirname(coursetools.grading.__file__), "feedback_templates"),
    os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader", "templates"),
]

# --- Collecting from the exchange -------------------------------------------------------
# `nbgrader collect` copies each submission without following a link (a symlink, FIFO, socket or device is
# left out and logged as FLAGGED), within COURSE_SUBMISSION_MAX_FILES / COURSE_SUBMISSION_MAX_MB.
# A submission is collected only when its student owns all of it and its time agrees with when the server saw
# it arrive; submitted/<student>/<lab>/timestamp.txt holds that arrival (docs/server.md).
c.ExchangeFactory.collect = "coursetools.grading.exchange.SafeExchangeCollect"
# Released feedback pages: readable through the exchange's unlistable feedback/ folder by the name only their
# student's submission secret gives (the instructor's own copies stay private).
c.ExchangeFactory.release_feedback = "coursetools.grading.exchange.OpenReleaseFeedback"

# --- The instructor's files are private ----------------------------------------------------------------
# Every nbgrader command of this course (collect, autograde, generate_feedback, export, db) writes files only
# you can read, whatever the host's default umask: the gradebook, submitted/, autograded/, feedback/, exports/.
import sys  # noqa: E402

if os.path.basename(sys.argv[0]) in ("nbgrader", "__main__.py") and "nbgrader" in sys.argv[0]:
    os.umask(0o077)
# nbgrader sets the modes of what it converts itself (autograded 444, feedback 644 by default): yours only.
c.Autograde.permissions = 400
c.GenerateFeedback.permissions = 600
