"""nbgrader's exchange for students on a shared server, keeping what a student sends and fetches private.

nbgrader's own classes leave a submission world-readable (its folder mode 0777, its files 0644) and copy the
submission's secret, which names the student's feedback page, into a cache other accounts may read. These
classes give the same commands (``nbgrader submit``, ``fetch_assignment``, ``fetch_feedback``) private modes:
the submission is readable by its student and by the group of the exchange's ``inbound`` folder (the
instructor's own group) only, and the cache, the fetched lab and the fetched feedback by the student only.
The server's nbgrader configuration names them
(``c.ExchangeFactory.submit = "course_student_server.exchange.PrivateSubmit"``). They live apart from ``course_lib``,
which students also run on Colab, where there is no nbgrader.
"""

from __future__ import annotations

import os
import shutil

from nbgrader.exchange.default.fetch_assignment import ExchangeFetchAssignment
from nbgrader.exchange.default.fetch_feedback import ExchangeFetchFeedback
from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import ignore_patterns


def make_private(top: str, dir_mode: int = 0o700, file_mode: int = 0o600) -> None:
    """Give `top` and everything under it these modes, never following a link."""
    for folder, dirs, files in os.walk(top, topdown=False):
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, file_mode)
        for name in dirs:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, dir_mode)
    if not os.path.islink(top):
        os.chmod(top, dir_mode)


class PrivateSubmit(ExchangeSubmit):
    """``nbgrader submit``: the submission readable by its student and the instructor's group, nobody else."""

    def do_copy(self, src: str, dest: str, log: object = None) -> None:
        if os.path.dirname(dest) != self.inbound_path:
            return super().do_copy(src, dest, log)
        limit = 1000 * self.coursedir.max_dir_size
        if self.get_size(src) > limit:
            raise RuntimeError(f"Directory size is too big: the maximum is {limit} bytes")
        # The folder is made first, so it takes the instructor's group and the setgid bit from inbound/; the two
        # files nbgrader writes after copying are made now, while the bit is there (copying the folder's mode
        # takes it off), so that they take that group too and the instructor can read them.
        os.mkdir(dest, 0o700)
        for name in ("timestamp.txt", "submission_secret.txt"):
            open(os.path.join(dest, name), "x").close()
        ignore = ignore_patterns(exclude=self.coursedir.ignore, include=self.coursedir.include,
                                 max_file_size=self.coursedir.max_file_size, log=self.log)
        shutil.copytree(src, dest, ignore=ignore, dirs_exist_ok=True)

    def set_perms(self, dest: str, fileperms: int, dirperms: int) -> None:
        make_private(dest, 0o770, 0o640)

    def copy_files(self) -> None:
        old = os.umask(0o077)
        try:
            super().copy_files()
        finally:
            os.umask(old)
        make_private(os.path.join(self.inbound_path, self.assignment_filename), 0o770, 0o640)
        make_private(self.cache)


class PrivateFetchAssignment(ExchangeFetchAssignment):
    """``nbgrader fetch_assignment``: the student's copy of the lab readable by the student only."""

    def copy_files(self) -> None:
        super().copy_files()
        make_private(self.dest_path)


class PrivateFetchFeedback(ExchangeFetchFeedback):
    """``nbgrader fetch_feedback``: the feedback pages readable by the student only."""

    def copy_files(self) -> None:
        super().copy_files()
        if os.path.isdir(self.dest_path):
            make_private(self.dest_path)
