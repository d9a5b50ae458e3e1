"""How submissions arrive: nbgrader's exchange on a shared server, or a zip from the LMS.

**LMS zip** (Colab students download their notebook and upload it to the LMS; the
instructor downloads every upload as one zip). `collect_zip` reads the archive with
`coursetools.grading.lmsarchive.scan_archive` (nbgrader's ``<student_id>_attempt_<YYYYMMDDTHHMMSS>_<notebook>.ipynb``,
Canvas's "Download Submissions" and Moodle's "Download all submissions", the LMS's names mapped to the course's ids
through the roster the LMS exports), then runs ``nbgrader zip_collect`` on a zip rebuilt from the newest upload of
each student's notebooks alone, renamed to `COLLECT_PATTERN`; every member left out is reported by name. A member that
is a link (or anything but a plain file), whose path leaves its folder or that is larger than
``COURSE_SUBMISSION_MAX_MB`` is refused before its name is read.

**Exchange** (``nbgrader collect``): the course's configuration sets `SafeExchangeCollect` as nbgrader's
collector, which copies each submission with `coursetools.sandbox.safecopy.copy_submission` (no link, FIFO,
socket or device followed, caps on files and size) instead of ``shutil.copytree``.
"""

from __future__ import annotations

import datetime as dt
import glob
import os
import pwd
import shutil
import stat
import subprocess
import sys
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback
from nbgrader.utils import parse_utc

from coursetools import tool_env
from coursetools.grading.lmsarchive import COLLECT_PATTERN, collected_name, scan_archive
from coursetools.sandbox.safecopy import copy_submission, printable

@dataclass
class ZipCollection:
    lab: str
    lms: str = "nbgrader"
    collected: dict[str, list[str]] = field(default_factory=dict)  # student -> notebooks
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        source = {"nbgrader": "nbgrader's names", "canvas": "Canvas's download", "moodle": "Moodle's download"}
        lines = [f"{self.lab}: {len(self.collected)} student(s) collected into submitted/ from {source[self.lms]}"]
        lines += [f"  NOTE {printable(n)}" for n in self.notes]
        lines += [f"  PROBLEM {printable(p)}" for p in self.problems]
        return "\n".join(lines)


def lab_notebooks(root: Path, lab: str) -> list[str]:
    return sorted(p.name for p in (root / "source" / lab).glob("*.ipynb"))


def collect_zip(root: Path, lab: str, zip_path: Path, *, force: bool = False, roster: Path | None = None,
                id_column: str | None = None) -> ZipCollection:
    """Put the notebooks of an LMS zip into submitted/<student>/<lab>/ through ``nbgrader zip_collect``."""
    root = Path(root)
    notebooks = lab_notebooks(root, lab)
    scan = scan_archive(zip_path, notebooks, roster, id_column)
    result = ZipCollection(lab, lms=scan.lms, problems=scan.problems, notes=scan.notes)
    downloaded = root / "downloaded" / lab
    if downloaded.exists():
        shutil.rmtree(downloaded)
    (downloaded / "archive").mkdir(parents=True)
    with zipfile.ZipFile(zip_path) as z, zipfile.ZipFile(downloaded / "archive" / "collected.zip", "w",
                                                          zipfile.ZIP_DEFLATED) as clean:
        for (student, nb), upload in sorted(scan.kept.items()):  # nbgrader never sees a refused or set-aside member
            if (root / "submitted" / student / lab).exists() and not force:
                result.problems.append(f"{student}: {upload.member} not collected: submitted/{student}/{lab} is "
                                       "already there (nothing is replaced without --force)")
                continue
            clean.writestr(collected_name(student, upload), z.read(upload.member))
            result.collected.setdefault(student, []).append(nb)
    cmd = [sys.executable, "-m", "nbgrader", "zip_collect", lab, "--log-level=WARN",
           "--ZipCollectApp.collector_plugin=nbgrader.plugins.FileNameCollectorPlugin",
           f"--FileNameCollectorPlugin.named_regexp={COLLECT_PATTERN}"]
    if force:
        cmd.append("--force")
    proc = subprocess.run(cmd, cwd=root, env=tool_env(), capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"nbgrader zip_collect failed:\n{proc.stdout}{proc.stderr}")
    for student, nbs in sorted(result.collected.items()):
        for nb in nbs:
            if not (root / "submitted" / student / lab / nb).is_file():
                raise RuntimeError(f"nbgrader zip_collect did not put {student}'s {nb} into submitted/:\n"
                                   f"{proc.stdout}{proc.stderr}")
    return result


# How far the time a submission names may stray from when the server saw it arrive (nbgrader takes the time when
# `nbgrader submit` starts, then copies): more than this either way and the submission is refused.
ARRIVAL_SLACK = dt.timedelta(minutes=5)


def _items(entry: Path, cap: int = 10_000) -> list[os.stat_result]:
    """The lstat of `entry` and of everything under it, links never followed, at most `cap` items."""
    found = [entry.lstat()]
    if not stat.S_ISDIR(found[0].st_mode):
        return found
    for folder, dirs, files in os.walk(entry):
        for name in dirs + files:
            found.append(os.lstat(os.path.join(folder, name)))
            if len(found) > cap:
                return found
    return found


def arrival(entry: Path) -> dt.datetime:
    """When the server last saw `entry` or anything in it change: the latest inode change time (ctime), which no
    student can set, of the folder and everything under it."""
    return dt.datetime.fromtimestamp(max(i.st_ctime for i in _items(entry)), dt.timezone.utc)


def owners(entry: Path) -> set[int]:
    """The user ids owning `entry` and everything under it."""
    return {i.st_uid for i in _items(entry)}


def account(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user id {uid}"


def submission_refused(entry: Path, student: str, claimed: dt.datetime, seen: dt.datetime) -> str | None:
    """Why an inbound entry is not collected: not all the named student's, or its time is not the server's."""
    if not stat.S_ISDIR(entry.lstat().st_mode):
        return "it is not a folder (a link or a file)"
    try:
        uid = pwd.getpwnam(student).pw_uid
    except KeyError:
        return f"it names {student}, who has no account on this server"
    others = sorted(account(u) for u in owners(entry) - {uid})
    if others:
        return f"it names {student} but belongs (in part) to {', '.join(others)}"
    when = f"its time ({claimed:%Y-%m-%d %H:%M:%S} UTC) is"
    arrived = f"when the server saw it arrive ({seen:%Y-%m-%d %H:%M:%S} UTC)"
    if claimed > seen + ARRIVAL_SLACK:
        return f"{when} in the future of {arrived}"
    if claimed < seen - ARRIVAL_SLACK:
        return f"{when} earlier than {arrived}"
    return None


class SafeExchangeCollect(ExchangeCollect):
    """nbgrader's collector that trusts the server, not the submission (``c.ExchangeFactory.collect``).

    An inbound entry is collected only when the account it names owns it and everything in it, and when the time in
    its name agrees with when the server saw it arrive (`arrival`); otherwise it is refused and logged as FLAGGED.
    The newest accepted entry of each student is kept, by arrival; its ``timestamp.txt`` in ``submitted/`` is the
    arrival, never the time the student's side wrote. Each is copied without following anything
    (`coursetools.sandbox.safecopy.copy_submission`), readable by the instructor only.
    """

    def _path_to_record(self, path: str) -> dict:
        entry = Path(path)
        seen = arrival(entry)
        try:
            record = super()._path_to_record(path)
        except (ValueError, OverflowError):  # a time nbgrader cannot read: refused, not a failed collect
            record = {"username": entry.name.split("+")[0], "filename": entry.name, "timestamp": None}
            record["refused"] = "its name holds no time nbgrader can read"
        else:
            claimed = record["timestamp"].replace(tzinfo=dt.timezone.utc)
            record["refused"] = submission_refused(entry, record["username"], claimed, seen)
        record["timestamp"] = parse_utc(seen.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
        return record

    def init_src(self) -> None:
        super().init_src()
        pattern = Path(self.inbound_path).glob(f"{self.coursedir.student_id or '*'}+{self.coursedir.assignment_id}+*")
        records = [self._path_to_record(str(p)) for p in pattern]
        for rec in records:
            if rec["refused"]:
                self.log.warning("FLAGGED %s: not collected: %s", printable(rec["filename"]), printable(rec["refused"]))
        by_student = defaultdict(list)
        for rec in records:
            if not rec["refused"]:
                by_student[rec["username"]].append(rec)
        self.src_records = []
        for recs in by_student.values():
            recs = self._sort_by_timestamp(recs)
            if self.duedate is not None and self.before_duedate:
                recs = [r for r in recs if r["timestamp"] <= self.duedate] or recs
            self.src_records.append(recs[0])
        self._arrivals = {r["filename"]: r["timestamp"] for r in self.src_records}

    def do_copy(self, src: str, dest: str, log: object = None) -> None:
        old = os.umask(0o077)
        try:
            copied = copy_submission(Path(src), Path(dest))
            seen = self._arrivals[Path(src).name]
            (Path(dest) / "timestamp.txt").write_text(seen.strftime("%Y-%m-%d %H:%M:%S.%f UTC"))
        finally:
            os.umask(old)
        for problem in copied.problems:
            self.log.warning("FLAGGED %s: %s", printable(Path(dest).parent.name), printable(problem))


class OpenReleaseFeedback(ExchangeReleaseFeedback):
    """nbgrader's release of feedback, each page readable through the exchange's unlistable ``feedback/`` folder.

    The instructor's own pages are private (mode 0600), and nbgrader copies that mode: each released page is given
    0644, in a folder nobody but the instructor can list, under a name only its student's submission secret gives.
    A student whose feedback has no submission secret (the work did not come through the exchange: an LMS zip, a
    copy made by hand) has no such name and nothing to fetch it with: that student is skipped with a line saying so,
    where nbgrader's own release stops at the first of them.
    """

    def copy_files(self) -> None:
        skipped = [Path(folder) for folder in glob.glob(self.src_path)
                   if not os.path.isfile(os.path.join(folder, "submission_secret.txt"))]
        for folder in skipped:
            self.log.warning("NOT RELEASED %s: no submission secret in %s (the work did not come through the "
                             "exchange, so nbgrader fetch_feedback cannot find a page); hand the page back another way",
                             printable(folder.parent.name), printable(str(folder)))
        excluded = self.coursedir.student_id_exclude
        self.coursedir.student_id_exclude = ",".join(filter(None, [excluded, *(f.parent.name for f in skipped)]))
        try:
            super().copy_files()
        finally:
            self.coursedir.student_id_exclude = excluded
        for page in Path(self.dest_path).glob("*.html"):
            if not page.is_symlink() and page.lstat().st_uid == os.geteuid():
                page.chmod(0o644)
