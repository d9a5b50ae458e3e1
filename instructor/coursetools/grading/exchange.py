"""How submissions arrive: nbgrader's exchange on a shared server, or a zip from the LMS.

**LMS zip** (Colab students download their notebook and upload it to the LMS; the
instructor downloads every upload as one zip). Every file in the zip must be named::

    <student_id>_attempt_<YYYYMMDDTHHMMSS>_<notebook>.ipynb
    e.g.  ada.lovelace_attempt_20260301T140500_01_game_trees.ipynb

(`ZIP_PATTERN`, matched by nbgrader against the extracted path: folders inside the zip
are ignored, only the file name counts). The
student id may hold letters, digits, ``.`` and ``-``. When a student uploaded the same
notebook several times, the newest attempt is kept. (A dashed time such as ``2026-03-01-14-05-00`` is not used:
nbgrader's date parser reads its minutes wrongly.) `collect_zip` runs
``nbgrader zip_collect`` with this pattern and reports, by name, every file it could not
use: a name that does not follow the pattern, a notebook that is not part of the lab,
and older duplicates that were set aside. A member that is a link (or anything but a plain file), whose path
leaves its folder (absolute, or with ``..``) or that is larger than ``COURSE_SUBMISSION_MAX_MB`` is refused by
name; nbgrader only ever sees a zip rebuilt from the members kept.

**Exchange** (``nbgrader collect``): the course's configuration sets `SafeExchangeCollect` as nbgrader's
collector, which copies each submission with `coursetools.sandbox.safecopy.copy_submission` (no link, FIFO,
socket or device followed, caps on files and size) instead of ``shutil.copytree``.
"""

from __future__ import annotations

import datetime as dt
import os
import pwd
import re
import shutil
import stat
import subprocess
import sys
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.release_feedback import ExchangeReleaseFeedback
from nbgrader.utils import parse_utc

from coursetools import tool_env
from coursetools.sandbox.safecopy import copy_submission, limits, printable

ZIP_PATTERN = (r"(?:.*/)?(?P<student_id>[A-Za-z0-9.\-]+)_attempt_(?P<timestamp>\d{8}T\d{6})"
               r"_(?P<file_id>.+\.ipynb)$")


@dataclass
class ZipCollection:
    lab: str
    collected: dict[str, list[str]] = field(default_factory=dict)  # student -> notebooks
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"{self.lab}: {len(self.collected)} student(s) collected into submitted/"]
        lines += [f"  PROBLEM {printable(p)}" for p in self.problems]
        return "\n".join(lines)


def lab_notebooks(root: Path, lab: str) -> list[str]:
    return sorted(p.name for p in (root / "source" / lab).glob("*.ipynb"))


def _refused_member(info: zipfile.ZipInfo) -> str | None:
    """Why a zip member is never extracted: a link or special file, a path leaving its folder, too large."""
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        return "a symlink in the zip"
    if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
        return "not a plain file"
    name = info.filename.replace("\\", "/")
    if name.startswith("/") or re.match(r"[A-Za-z]:", name) or ".." in PurePosixPath(name).parts:
        return "its path leaves its folder"
    if info.file_size > limits()[1]:
        return f"{info.file_size / 2**20:.0f} MB, over the cap of {limits()[1] / 2**20:g} MB (COURSE_SUBMISSION_MAX_MB)"
    return None


def scan_zip(zip_path: Path, notebooks: list[str]) -> tuple[dict, list[str]]:
    """``{(student, notebook): [(timestamp, name), ...]}`` and the problems found in the names."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    problems = []
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            refused = _refused_member(info)
            if refused:
                problems.append(f"{info.filename}: {refused}; not collected")
                continue
            base = Path(info.filename).name
            if base.startswith(".") or info.filename.startswith("__MACOSX/"):
                continue
            m = re.match(ZIP_PATTERN, base)
            if not m:
                problems.append(f"{info.filename}: name does not follow <student_id>_attempt_<YYYYMMDDTHHMMSS>_"
                                f"<notebook>.ipynb; not collected")
            elif m["file_id"] not in notebooks:
                problems.append(f"{info.filename}: {m['file_id']} is not a notebook of this lab ({', '.join(notebooks)}); "
                                "not collected")
            else:
                found[(m["student_id"], m["file_id"])].append((m["timestamp"], info.filename))
    for (student, nb), files in sorted(found.items()):
        if len(files) > 1:
            files.sort()
            older = ", ".join(name for _, name in files[:-1])
            problems.append(f"{student}: {len(files)} uploads of {nb}; kept the newest ({files[-1][1]}), "
                            f"set aside {older}")
    return found, problems


def collect_zip(root: Path, lab: str, zip_path: Path, *, force: bool = False) -> ZipCollection:
    """Put the notebooks of an LMS zip into submitted/<student>/<lab>/ through ``nbgrader zip_collect``."""
    root = Path(root)
    notebooks = lab_notebooks(root, lab)
    found, problems = scan_zip(zip_path, notebooks)
    result = ZipCollection(lab, problems=problems)
    downloaded = root / "downloaded" / lab
    if downloaded.exists():
        shutil.rmtree(downloaded)
    (downloaded / "archive").mkdir(parents=True)
    kept = {name for files in found.values() for _, name in files}
    with zipfile.ZipFile(zip_path) as z, zipfile.ZipFile(downloaded / "archive" / Path(zip_path).name, "w",
                                                          zipfile.ZIP_DEFLATED) as clean:
        for info in z.infolist():  # only the plain notebooks found: nbgrader never sees a refused member
            if info.filename in kept:
                clean.writestr(info.filename, z.read(info))
    cmd = [sys.executable, "-m", "nbgrader", "zip_collect", lab, "--log-level=WARN",
           "--ZipCollectApp.collector_plugin=nbgrader.plugins.FileNameCollectorPlugin",
           f"--FileNameCollectorPlugin.named_regexp={ZIP_PATTERN}"]
    if force:
        cmd.append("--force")
    proc = subprocess.run(cmd, cwd=root, env=tool_env(), capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"nbgrader zip_collect failed:\n{proc.stdout}{proc.stderr}")
    for (student, nb), _ in sorted(found.items()):
        if (root / "submitted" / student / lab / nb).is_file():
            result.collected.setdefault(student, []).append(nb)
        else:
            result.problems.append(f"{student}: {nb} was in the zip but did not reach submitted/ "
                                   "(already there? use --force to replace)")
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
    """

    def copy_files(self) -> None:
        super().copy_files()
        for page in Path(self.dest_path).glob("*.html"):
            if not page.is_symlink() and page.lstat().st_uid == os.geteuid():
                page.chmod(0o644)
