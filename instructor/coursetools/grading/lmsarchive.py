"""What an LMS's bulk download holds: each member's student, notebook and age, read from the names the LMS gives.

Three archives are read as they come (sources in docs/grading.md, "Collecting from the LMS's download"):

- **nbgrader's own pattern**: ``<student_id>_attempt_<YYYYMMDDTHHMMSS>_<notebook>.ipynb`` (folders ignored); the
  student id is the course's.
- **Canvas** ("Download Submissions"): flat files ``<name>[_LATE]_<user id>_<submission id>_<file>``; ``<name>`` is
  the student's sortable name in lower case without spaces or punctuation, ``LATE`` is Canvas's own mark, the user
  id is the ``ID`` column of Canvas's gradebook export, and a file uploaded again under the same name comes back as
  ``<stem>-1.ipynb``, ``-2``... The course's id is the roster's ``SIS Login ID`` (or ``--id-column``).
- **Moodle** ("Download all submissions" of an Assignment): one folder per submission,
  ``<Full name>_<participant id>_assignsubmission_file_/<file>``, or flat files
  ``<Full name>_<participant id>_assignsubmission_file_<file>`` when folders are off. The participant id is the
  assignment's own (the ``Identifier`` column, ``Participant <id>``, of its grading worksheet); the participants list
  has no such column, so without it a student is found by full name, and only when exactly one roster row has it.
  The course's id is the roster's ``ID number`` (or ``--id-column``).

Nothing is guessed: a member that fits none of these, names a student the roster does not have (or has twice), or is
not a notebook of the lab is reported by name and not collected. Of several uploads of one notebook by one student
the newest is kept (nbgrader: the attempt's time; Canvas: the larger submission id, then the larger ``-n``) and the
others are named; Moodle's download holds one submission per student, so two of them for one student are refused.
A member that is a link or special file, leaves its folder or is over the size cap is refused before its name is read.
"""

from __future__ import annotations

import re
import stat
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from coursetools.grading.lmsexport import read_roster
from coursetools.sandbox.safecopy import limits

NBGRADER = re.compile(r"(?:.*/)?(?P<student>[A-Za-z0-9.\-]+)_attempt_(?P<time>\d{8}T\d{6})_(?P<file>[^/]+\.ipynb)$")
CANVAS = re.compile(r"(?P<name>[^_/]+)(?P<late>_LATE)?_(?P<user>\d+)_(?P<submission>\d+)_(?P<file>[^/]+)$",
                    re.IGNORECASE)
MOODLE = re.compile(r"(?P<name>[^/]+)_(?P<participant>\d+)_assignsubmission_file_(?:/(?:[^/]+/)*)?(?P<file>[^/]+)$")
MOODLE_OTHER = re.compile(r"[^/]+_\d+_assignsubmission_(?!file_)[a-z]+_")  # online text, comments...
RESUBMITTED = re.compile(r"(?P<stem>.+)-(?P<n>\d+)(?P<ext>\.ipynb)$")
# The course's student ids become folder names: what nbgrader's own pattern allows, nothing else.
STUDENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-]*$")
# The name each kept notebook gets in the zip nbgrader collects (a time only where the archive gave one); nbgrader
# matches it against the extracted file's whole path.
COLLECT_PATTERN = (r"(?:.*/)?(?P<student_id>[A-Za-z0-9][A-Za-z0-9.\-]*)_(?:attempt_(?P<timestamp>\d{8}T\d{6})|lms)"
                   r"_(?P<file_id>[^/]+\.ipynb)$")
ROSTER_COLUMNS = {"canvas": "ID (Canvas's user id)",
                  "moodle": "Identifier (Participant <id>) or First name and Last name (or Full name)"}


@dataclass(frozen=True)
class Upload:
    """One member of the archive, read: whose (the LMS's key for them), which notebook, how new."""

    member: str
    lms: str  # nbgrader | canvas | moodle
    key: str  # nbgrader: the course's id; Canvas: the user id; Moodle: the participant id
    name: str  # the LMS's name for the student ('' for nbgrader)
    file: str  # the uploaded file's name, a resubmission's -n removed when that makes it a notebook of the lab
    order: tuple  # larger is newer
    late: bool = False
    time: str = ""  # nbgrader's attempt time


@dataclass
class ArchiveScan:
    """The newest upload of each (course student id, notebook), and every member left out, by name and why."""

    lms: str = ""
    kept: dict[tuple[str, str], Upload] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # kept, but worth knowing (Canvas's LATE mark)


def refused_member(info: zipfile.ZipInfo) -> str | None:
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


def read_member(member: str, notebooks: list[str]) -> Upload | None:
    """The upload a member's name describes, in the first of nbgrader's, Moodle's and Canvas's layouts it fits."""
    if m := NBGRADER.match(member):
        return Upload(member, "nbgrader", m["student"], "", m["file"], (m["time"],), time=m["time"])
    if m := MOODLE.match(member):
        return Upload(member, "moodle", m["participant"], m["name"], m["file"], ())
    if "/" not in member and (m := CANVAS.match(member)):
        file, n = m["file"], 0
        if file not in notebooks and (r := RESUBMITTED.match(file)) and r["stem"] + r["ext"] in notebooks:
            file, n = r["stem"] + r["ext"], int(r["n"])
        return Upload(member, "canvas", m["user"], m["name"], file, (int(m["submission"]), n), late=bool(m["late"]))
    return None


class RosterIndex:
    """The course's student id for an LMS's key or name, from the roster that LMS exported."""

    def __init__(self, path: Path, lms: str, id_column: str | None):
        self.roster = read_roster(path, lms, id_column)
        self.lms = lms
        self.by_key: dict[str, list[str]] = defaultdict(list)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for student, row in self.roster.rows.items():
            if lms == "canvas" and row.get("ID"):
                self.by_key[row["ID"]].append(student)
            if lms == "moodle":
                if m := re.fullmatch(r"Participant (\d+)", row.get("Identifier", "")):
                    self.by_key[m[1]].append(student)
                full = row.get("Full name") or f"{row.get('First name', '')} {row.get('Last name', '')}"
                if full.strip():
                    self.by_name[_fold(full)].append(student)

    def student(self, upload: Upload) -> tuple[str | None, str]:
        """(the course's id, '') or (None, why not)."""
        found = self.by_key.get(upload.key, [])
        how = f"{'user id' if self.lms == 'canvas' else 'participant id'} {upload.key}"
        if not found and self.lms == "moodle" and not self.by_key:
            found, how = self.by_name.get(_fold(upload.name), []), f"full name {upload.name!r}"
        if len(found) > 1:
            return None, f"{how} is on {len(found)} rows of the roster ({', '.join(found)}), which is not guessed"
        if not found:
            return None, f"{how} is not in the roster"
        return found[0], ""


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


def scan_archive(zip_path: Path, notebooks: list[str], roster: Path | None = None,
                 id_column: str | None = None) -> ArchiveScan:
    """Read every member's name (none is extracted here) and decide what is collected."""
    scan = ArchiveScan()
    uploads: list[Upload] = []
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            if refused := refused_member(info):
                scan.problems.append(f"{info.filename}: {refused}; not collected")
                continue
            base = PurePosixPath(info.filename).name
            if base.startswith(".") or info.filename.startswith("__MACOSX/"):
                continue
            upload = read_member(info.filename, notebooks)
            if upload is None:
                kind = "Moodle's online text or feedback, not a file submission" if MOODLE_OTHER.match(
                    info.filename) else "a name that is neither nbgrader's, Canvas's nor Moodle's"
                scan.problems.append(f"{info.filename}: {kind}; not collected")
            else:
                uploads.append(upload)
    lmses = sorted({u.lms for u in uploads} - {"nbgrader"})
    if len(lmses) > 1:
        raise ValueError(f"{zip_path} mixes Canvas's and Moodle's names; collect each LMS's download on its own")
    scan.lms = lmses[0] if lmses else "nbgrader"
    index = None
    if lmses:
        if roster is None:
            raise ValueError(f"{zip_path} is {scan.lms.title()}'s download: give the roster {scan.lms.title()} "
                             f"exports with --roster (its students' {ROSTER_COLUMNS[scan.lms]} name the course's ids)")
        index = RosterIndex(roster, scan.lms, id_column)
        scan.problems += [f"roster {p}" for p in index.roster.problems]
    found: dict[tuple[str, str], list[Upload]] = defaultdict(list)
    for upload in uploads:
        if upload.lms != scan.lms:
            scan.problems.append(f"{upload.member}: nbgrader's name in {scan.lms.title()}'s download; not collected")
            continue
        student, why = (upload.key, "") if index is None else index.student(upload)
        if student is None:
            scan.problems.append(f"{upload.member}: {why}; not collected")
        elif not STUDENT_ID.match(student):
            scan.problems.append(f"{upload.member}: the course's id {student!r} is not a folder name nbgrader can use "
                                 "(letters, digits, '.', '-'); not collected")
        elif upload.file not in notebooks:
            scan.problems.append(f"{upload.member}: {upload.file} is not a notebook of this lab "
                                 f"({', '.join(notebooks)}); not collected")
        else:
            found[(student, upload.file)].append(upload)
    for (student, nb), ups in sorted(found.items()):
        ups.sort(key=lambda u: u.order)
        if len(ups) > 1 and (scan.lms == "moodle" or ups[-1].order == ups[-2].order):
            scan.problems.append(f"{student}: {len(ups)} uploads of {nb} and no way to tell the newest "
                                 f"({', '.join(u.member for u in ups)}); none collected")
            continue
        if len(ups) > 1:
            scan.problems.append(f"{student}: {len(ups)} uploads of {nb}; kept the newest ({ups[-1].member}), "
                                 f"set aside {', '.join(u.member for u in ups[:-1])}")
        scan.kept[(student, nb)] = ups[-1]
        if ups[-1].late:
            scan.notes.append(f"{student}: {ups[-1].member} is marked LATE by Canvas (the download gives no time, so "
                              "the gradebook records none: Canvas's late policy applies when the grades are imported)")
    return scan


def collected_name(student: str, upload: Upload) -> str:
    """The kept upload's name in the zip nbgrader collects (`COLLECT_PATTERN`)."""
    middle = f"attempt_{upload.time}" if upload.time else "lms"
    return f"{student}_{middle}_{upload.file}"
