"""The scratch course a submission is graded in, apart from the course: batch grading's shards, the self-check
service's checks and the workers of ``grade --queue`` all build theirs here, the same way.

A scratch course is a folder holding a copy of one lab's ``source/``, an sqlite gradebook of its own copied from
the lab's one template (`template_gradebook`: the lab recorded by ``nbgrader generate_assignment``, built once per
version of the lab, `lab_fingerprint`), and an ``nbgrader_config.py`` (`write_config`) that runs the course's
config first, then points the root and the gradebook at the scratch folder. Nothing graded there reaches the
course's gradebook except through the coordinator that copies its grades (`gradebook.record_submission`).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from coursetools.grading.gradebook import db_url, ensure_assignment

TEMPLATES = Path("build") / "templates"


def lab_fingerprint(root: Path, lab: str) -> str:
    """A hash of every file of ``source/<lab>/`` (names and bytes)."""
    h = hashlib.sha256()
    base = Path(root) / "source" / lab
    for path in sorted(p for p in base.rglob("*") if p.is_file() and ".ipynb_checkpoints" not in p.parts):
        h.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@dataclass(frozen=True)
class ShardConfig:
    """What a grading shard's nbgrader adds to its scratch course's config (`write_config`)."""
    wall_clock_cap: int  # GuardedExecute.wall_clock_cap: past it, the rest of the submission scores 0
    ipc: Path | None = None  # kernels talk over IPC sockets under this folder (no TCP ports to race for)
    cell_timeout: float | None = None  # overrides c.Execute.timeout


def write_config(folder: Path, course: Path, *, what: str, seed: str | None = None,
                 shard: ShardConfig | None = None) -> None:
    """A scratch course's ``nbgrader_config.py``: `course`'s config, then its own root and sqlite gradebook
    (``gradebook.db`` in `folder`).

    With `seed` (a self-check), the check's secret seed, set only in the grading process that reads the config (so
    checks in threads of one worker never share one environment; the kernel gets a clean environment whatever its
    grader's). With `shard`, what a shard of `grading.autograde` needs: its hooks, the clean-up when its grader
    dies, IPC kernels, an sqlite gradebook that does not wait for the disk, and its caps."""
    cfg = Path(course) / "nbgrader_config.py"
    lines = [
        f"# Written by coursetools.grading.scratch: the course's config, for {what}.",
        "c = get_config()  # noqa: F821",
        f"_course_config = {str(cfg)!r}",
        "with open(_course_config) as _f:",
        "    exec(compile(_f.read(), _course_config, 'exec'), {'get_config': get_config, '__file__': _course_config})",
        f"c.CourseDirectory.root = {str(folder)!r}",
        f"c.CourseDirectory.db_url = {'sqlite:///' + str(Path(folder) / 'gradebook.db')!r}",
    ]
    if seed is not None:
        # only in the grading process (its coordinator sets the events file); never in the worker reading it
        lines += ["import os as _os", "if _os.environ.get('COURSETOOLS_GRADING_EVENTS'):",
                  f"    _os.environ['COURSE_SECRET_SEED'] = {seed!r}",
                  "    _os.environ['COURSE_SELFCHECK'] = '1'  # checks.common.is_selfcheck: drawn cases first"]
    if shard is not None:
        lines += _shard_lines(shard)
    (Path(folder) / "nbgrader_config.py").write_text("\n".join(lines) + "\n")


def _shard_lines(shard: ShardConfig) -> list[str]:
    lines = [
        "c.Autograde.pre_convert_hook = 'coursetools.grading.autograde.hook_started'",
        "c.Autograde.post_convert_hook = 'coursetools.grading.autograde.hook_finished'",
        # told its grader died (PR_SET_PDEATHSIG, SIGTERM), the shard kills its kernels' sandboxes, then itself
        "from coursetools.sandbox.safecopy import end_descendants_on as _end_descendants_on",
        "_end_descendants_on()",
    ]
    if shard.ipc is not None:
        lines += ["c.KernelManager.transport = 'ipc'", f"c.KernelManager.ip = {str(shard.ipc / 'kernel')!r}"]
    # The shard's own gradebook is scratch (its coordinator copies each submission's grades into the course's
    # gradebook): nbgrader commits after every cell, and none of those commits need to wait for the disk.
    lines += ["from sqlalchemy import event as _event",
              "from sqlalchemy.engine import Engine as _Engine",
              "@_event.listens_for(_Engine, 'connect')",
              "def _scratch_db(conn, record):",
              "    conn.execute('PRAGMA synchronous=OFF')",
              "    conn.execute('PRAGMA journal_mode=MEMORY')"]
    if shard.cell_timeout:
        lines.append(f"c.Execute.timeout = {int(shard.cell_timeout)}")
    # The submission's own cap, kept by the executor: past it the rest scores 0 and what finished is kept.
    # The grader's kill (its submission_timeout) stays as the backstop for an executor that hangs.
    lines.append(f"c.GuardedExecute.wall_clock_cap = {shard.wall_clock_cap}")
    return lines


def template_gradebook(course: Path, lab: str) -> Path:
    """An sqlite gradebook holding `lab` as its source is now, built once per version of the lab (``nbgrader
    generate_assignment`` in a scratch course) and kept under ``build/templates/``; never written after."""
    course = Path(course)
    folder = course / TEMPLATES
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{lab}-{lab_fingerprint(course, lab)[:16]}"
    target = folder / f"{name}.db"
    with open(folder / f"{lab}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.is_file():
            return target
        with tempfile.TemporaryDirectory(prefix="template-", dir=folder) as tmp:
            scratch = Path(tmp)
            shutil.copytree(course / "source" / lab, scratch / "source" / lab)
            write_config(scratch, course, what=f"the template gradebook of {lab}")
            ensure_assignment(scratch, lab)
            shutil.copy(scratch / "gradebook.db", folder / f"{name}.part")
            os.replace(folder / f"{name}.part", target)
    return target


def shard_gradebook(course: Path, lab: str, dest: Path) -> None:
    """The gradebook a grading shard of `course` starts from, written to `dest`: a consistent copy of the course's
    own when it is sqlite (sqlite's backup), else `template_gradebook`."""
    url = db_url(course)
    if not url.startswith("sqlite:///"):
        shutil.copy(template_gradebook(course, lab), dest)
        return
    src, dst = sqlite3.connect(url[len("sqlite:///"):]), sqlite3.connect(dest)
    with dst:
        src.backup(dst)
    src.close()
    dst.close()


def make_course(folder: Path, course: Path, lab: str, gradebook: Path, *, what: str, seed: str | None = None,
                shard: ShardConfig | None = None) -> None:
    """A scratch course in `folder` (made if missing) for `lab`: its source, a copy of `gradebook` (a template,
    never written through) and its config (`write_config`)."""
    folder = Path(folder)
    (folder / "source").mkdir(parents=True, exist_ok=True)
    shutil.copytree(Path(course) / "source" / lab, folder / "source" / lab)
    shutil.copy(gradebook, folder / "gradebook.db")
    write_config(folder, course, what=what, seed=seed, shard=shard)
