"""The exchange's layout on a shared server, made and checked in one place (docs/server.md).

nbgrader's exchange is a folder tree every user reaches; what keeps one student out of another's work is
only who owns each folder and its mode. The layout (`folders`):

==============================  ==========  =======  ==============================================
folder                          owner       mode     why
==============================  ==========  =======  ==============================================
``<root>``                      root        1777     anyone may make a folder, only its owner may
                                                     rename or remove it (the sticky bit)
``<root>/<course>``             instructor  0755     students read and pass through, nobody else
                                                     writes
``.../outbound``                instructor  0755     the released labs: read by all, written by you
``.../inbound``                 instructor  3733     students make their submission in it but can
                                                     neither list it nor rename or remove another's
                                                     entry (sticky); every entry takes your private
                                                     group (setgid), the one group submissions are
                                                     readable by
``.../feedback``                instructor  0711     pages reached by a name only their student's
                                                     secret gives; nobody lists it
==============================  ==========  =======  ==============================================

`make_exchange` makes or repairs this layout (as root: everything; as the instructor: the course's own
folders), `exchange_problems` says what of it does not hold, each with its fix in plain words, and
`students_config` is the nbgrader configuration the students' nbgrader reads (the exchange's root and the
student-side classes of `STUDENT_EXCHANGE`, which submit and fetch privately: the students' server package,
``instructor/labextensions/course-save-queue``, apart from ``course_lib``).
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
from dataclasses import dataclass
from pathlib import Path

ROOT_MODE = 0o1777
COURSE_MODE = 0o755
OUTBOUND_MODE = 0o755
INBOUND_MODE = 0o3733
FEEDBACK_MODE = 0o711
# The student-side classes nbgrader loads for students (private modes on submit and fetch), from the module of the
# students' server package (instructor/labextensions/course-save-queue) that holds them.
STUDENT_EXCHANGE = "course_student_server.exchange"
STUDENT_CLASSES = {"submit": "PrivateSubmit", "fetch_assignment": "PrivateFetchAssignment",
                   "fetch_feedback": "PrivateFetchFeedback"}


@dataclass(frozen=True)
class Layout:
    """Where the exchange is, whose course it holds, and the one group submissions may be read by."""

    root: Path
    course_id: str
    instructor: str

    @property
    def course(self) -> Path:
        return self.root / self.course_id

    @property
    def uid(self) -> int:
        return pwd.getpwnam(self.instructor).pw_uid

    @property
    def gid(self) -> int:
        """The instructor's own group (Debian gives every account a group of its own name)."""
        return pwd.getpwnam(self.instructor).pw_gid

    def folders(self) -> list[tuple[Path, int]]:
        """The course's folders in the exchange with their modes, parents first."""
        return [(self.course, COURSE_MODE), (self.course / "outbound", OUTBOUND_MODE),
                (self.course / "inbound", INBOUND_MODE), (self.course / "feedback", FEEDBACK_MODE)]


def group_members(gid: int) -> set[str]:
    """Every account in group `gid`: named in it, or having it as primary group."""
    named = set(grp.getgrgid(gid).gr_mem)
    return named | {p.pw_name for p in pwd.getpwall() if p.pw_gid == gid}


def make_exchange(layout: Layout) -> list[str]:
    """Make or repair the layout; returns what was done. As root it makes the root too, else only the course's."""
    done = []
    as_root = os.geteuid() == 0
    if as_root and not layout.root.exists():
        layout.root.mkdir(parents=True)
        done.append(f"made {layout.root}")
    if as_root and not layout.root.is_symlink() and stat.S_IMODE(layout.root.stat().st_mode) != ROOT_MODE:
        os.chown(layout.root, 0, 0)
        os.chmod(layout.root, ROOT_MODE)
        done.append(f"{layout.root}: owner root, mode 1777")
    for folder, mode in layout.folders():
        if folder.is_symlink():
            continue  # exchange_problems names it: a link is never followed, nor repaired
        if not folder.exists():
            try:
                folder.mkdir()
            except OSError:
                continue  # exchange_problems says why
            done.append(f"made {folder}")
        info = folder.lstat()
        if as_root and (info.st_uid, info.st_gid) != (layout.uid, layout.gid):
            os.chown(folder, layout.uid, layout.gid)
            done.append(f"{folder}: owner {layout.instructor}")
            info = folder.lstat()
        if (as_root or info.st_uid == os.geteuid()) and stat.S_IMODE(info.st_mode) != mode:
            if info.st_gid != layout.gid and not as_root:
                os.chown(folder, -1, layout.gid)
            os.chmod(folder, mode)
            done.append(f"{folder}: mode {mode:o}")
    return done


def _mode(path: Path) -> str:
    return f"{stat.S_IMODE(path.lstat().st_mode):o}"


def exchange_problems(layout: Layout) -> list[str]:
    """What of the layout does not hold, each with the command that fixes it."""
    root = layout.root
    if root.is_symlink() or not root.is_dir():
        return [f"the exchange {root} is missing or a link: as root, `mkdir -p {root} && chmod 1777 {root}` "
                "(or `coursetools setup-exchange` as root)"]
    problems = []
    info = root.lstat()
    if not info.st_mode & stat.S_ISVTX or stat.S_IMODE(info.st_mode) & 0o777 != 0o777:
        problems.append(f"the exchange {root} has mode {_mode(root)}, not 1777: without the sticky bit any "
                        f"student can rename the course's folder and put up their own; as root, `chmod 1777 {root}`")
    if info.st_uid not in (0, layout.uid):
        problems.append(f"the exchange {root} belongs to {_owner(info.st_uid)}, who can rename anything in it: as "
                        f"root, `chown root: {root}`")
    for folder, mode in layout.folders():
        if folder.is_symlink() or not folder.is_dir():
            problems.append(f"{folder} is missing or a link: as root, remove it if it is there and run "
                            "`coursetools setup-exchange`, or run `coursetools hand-out` to make it")
            continue
        info = folder.lstat()
        if info.st_uid != layout.uid:
            problems.append(f"{folder} belongs to {_owner(info.st_uid)}, not to you ({layout.instructor}): whoever "
                            f"owns it controls what students fetch and where they submit; as root, `rm -r {folder}` "
                            "(after saving what is in it) and run `coursetools setup-exchange` again")
        elif stat.S_IMODE(info.st_mode) != mode:
            problems.append(f"{folder} has mode {_mode(folder)}, not {mode:o}: run `chmod {mode:o} {folder}`")
    inbound = layout.course / "inbound"
    if inbound.is_dir() and not inbound.is_symlink():
        others = group_members(inbound.lstat().st_gid) - {layout.instructor}
        if others:
            name = grp.getgrgid(inbound.lstat().st_gid).gr_name
            problems.append(f"{inbound} belongs to group {name}, which also holds {', '.join(sorted(others))}: "
                            f"every submission is readable by that group; run `chgrp {grp.getgrgid(layout.gid).gr_name} "
                            f"{inbound}` (a group only you are in)")
    outbound = layout.course / "outbound"
    if outbound.is_dir() and not outbound.is_symlink():
        for lab in sorted(outbound.iterdir()):
            info = lab.lstat()
            if info.st_uid != layout.uid or info.st_mode & 0o022 or stat.S_ISLNK(info.st_mode):
                problems.append(f"{lab} (a released lab) belongs to {_owner(info.st_uid)} with mode {_mode(lab)}: "
                                f"someone else may have replaced it; run `coursetools hand-out {lab.name}` again")
    return problems


def _owner(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user id {uid}"


def students_config(layout: Layout) -> str:
    """The nbgrader configuration every student's nbgrader reads (``/etc/jupyter/nbgrader_config.py``)."""
    lines = ['"""The course exchange, for every account on this server (written by coursetools setup-exchange)."""',
             "c = get_config()  # noqa: F821", f"c.Exchange.root = {str(layout.root)!r}",
             f"# Submissions and fetched labs stay private to their student ({STUDENT_EXCHANGE}); without",
             "# that package, nbgrader's own classes run and the collector still refuses what is not the student's.",
             "try:", f"    import {STUDENT_EXCHANGE}  # noqa: F401", "except ImportError:", "    pass", "else:"]
    lines += [f"    c.ExchangeFactory.{kind} = '{STUDENT_EXCHANGE}.{name}'" for kind, name in STUDENT_CLASSES.items()]
    return "\n".join(lines) + "\n"
