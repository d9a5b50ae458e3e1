"""Reading what a student handed in without trusting it: copies that never follow a link, text that is safe to
print, and processes that end with the grader.

- `copy_submission` copies a submission folder entry by entry, each opened with ``O_NOFOLLOW`` relative to its
  already-opened parent folder: a symbolic link (dangling or not), FIFO, socket or device is left out and
  reported, and the copy stops at a cap on the number of files and on their total size
  (``COURSE_SUBMISSION_MAX_FILES``, default 500; ``COURSE_SUBMISSION_MAX_MB``, default 100). The source is only
  ever opened for reading.
- `read_regular` reads one file the same way (no link, no FIFO), up to a size cap.
- `printable` escapes the control characters of a student's text (ESC, OSC, CR, backspace, C1 controls, bidi
  overrides, ...) before it reaches a terminal or a log.
- `die_with_parent` makes the calling process get SIGKILL when its parent dies (Linux ``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

MAX_FILES_ENV = "COURSE_SUBMISSION_MAX_FILES"
MAX_MB_ENV = "COURSE_SUBMISSION_MAX_MB"
DEFAULT_MAX_FILES = 500
DEFAULT_MAX_MB = 100
MAX_DEPTH = 32  # folders inside folders
_KINDS = {stat.S_IFLNK: "a symlink", stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket",
          stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device"}
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def _env_int(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def limits() -> tuple[int, int]:
    """(files, bytes) a submission folder may hold: ``COURSE_SUBMISSION_MAX_FILES`` and ``COURSE_SUBMISSION_MAX_MB``."""
    return _env_int(MAX_FILES_ENV, DEFAULT_MAX_FILES), _env_int(MAX_MB_ENV, DEFAULT_MAX_MB) * 1024 * 1024


def printable(text: object, limit: int | None = None) -> str:
    """`text` with every control, format (bidi, zero-width), separator and surrogate character written as an escape
    (``\\x1b``, ``\\u202e``), so that it cannot move a terminal's cursor, colour, title or reading order."""
    text = str(text)
    if limit is not None and len(text) > limit:
        text = text[:limit] + "..."
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch == " " or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


@dataclass
class Copied:
    """What `copy_submission` copied, and what it left out (in words, raw: pass them through `printable`)."""

    files: int = 0
    size: int = 0
    left_out: list[str] = field(default_factory=list)
    capped: str | None = None

    @property
    def problems(self) -> list[str]:
        return self.left_out + ([self.capped] if self.capped else [])


def _kind(mode: int) -> str | None:
    return _KINDS.get(stat.S_IFMT(mode))


def copy_submission(src: Path | str, dst: Path | str, *, max_files: int | None = None, max_bytes: int | None = None,
                    first: tuple[str, ...] = ()) -> Copied:
    """Copy the folder `src` into `dst` (created) without following anything; see the module docstring.

    Entries named in `first` (the lab's notebooks) are copied before the rest of the top folder, so a cap
    reached by other files never leaves them out. `src` itself must be a real folder (`NotADirectoryError`,
    `FileNotFoundError` or an ``ELOOP`` `OSError` otherwise)."""
    default_files, default_bytes = limits()
    copied = Copied()
    caps = (max_files or default_files, max_bytes or default_bytes)
    fd = os.open(src, _DIR_FLAGS)
    try:
        os.makedirs(dst, exist_ok=True)
        _copy_folder(fd, Path(dst), "", copied, caps, first, 0)
    finally:
        os.close(fd)
    return copied


def _copy_folder(fd: int, dst: Path, rel: str, copied: Copied, caps: tuple[int, int], first: tuple[str, ...],
                 depth: int) -> None:
    with os.scandir(fd) as it:
        names = sorted(e.name for e in it)
    names.sort(key=lambda n: n not in first)
    for name in names:
        if copied.capped:
            return
        where = rel + name
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError as exc:
            copied.left_out.append(f"{where} could not be read ({exc.strerror})")
            continue
        kind = _kind(st.st_mode)
        if kind == "a symlink":
            try:
                target = os.readlink(name, dir_fd=fd)
            except OSError:
                target = "?"
            copied.left_out.append(f"a symlink {where} -> {target} (left out)")
        elif kind:
            copied.left_out.append(f"{kind} {where} (left out)")
        elif stat.S_ISDIR(st.st_mode):
            if depth >= MAX_DEPTH:
                copied.left_out.append(f"the folder {where} is nested more than {MAX_DEPTH} deep (left out)")
                continue
            if not _count(copied, caps, 0, where):
                return
            try:
                sub = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                copied.left_out.append(f"the folder {where} could not be opened ({exc.strerror}; left out)")
                continue
            try:
                (dst / name).mkdir(exist_ok=True)
                _copy_folder(sub, dst / name, where + "/", copied, caps, (), depth + 1)
            finally:
                os.close(sub)
        elif stat.S_ISREG(st.st_mode):
            if not _count(copied, caps, st.st_size, where):
                return
            _copy_file(fd, name, dst / name, where, copied, caps[1] - copied.size + st.st_size)
        else:
            copied.left_out.append(f"{where}, of an unknown kind (left out)")


def _count(copied: Copied, caps: tuple[int, int], size: int, where: str) -> bool:
    max_files, max_bytes = caps
    if copied.files + 1 > max_files:
        copied.capped = (f"the folder holds more than {max_files} files and folders ({MAX_FILES_ENV}): "
                         f"{where} and the rest were left out")
        return False
    if copied.size + size > max_bytes:
        copied.capped = (f"the folder holds more than {max_bytes / 2**20:g} MB ({MAX_MB_ENV}): "
                         f"{where} and the rest were left out")
        return False
    copied.files += 1
    copied.size += size
    return True


def _copy_file(fd: int, name: str, dst: Path, where: str, copied: Copied, room: int) -> None:
    """Copy one regular file, at most `room` bytes (what the size cap leaves it, should it grow meanwhile)."""
    try:
        src = os.open(name, _FILE_FLAGS, dir_fd=fd)
    except OSError as exc:
        copied.left_out.append(f"{where} could not be opened ({exc.strerror}; left out)")
        return
    try:
        if not stat.S_ISREG(os.fstat(src).st_mode):  # swapped for something else since it was looked at
            copied.left_out.append(f"{where} changed while it was copied (left out)")
            return
        os.set_blocking(src, True)
        out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            while room > 0:
                chunk = os.read(src, min(1 << 20, room))
                if not chunk:
                    break
                os.write(out, chunk)
                room -= len(chunk)
        finally:
            os.close(out)
    finally:
        os.close(src)


def read_regular(path: Path | str, max_bytes: int) -> bytes:
    """The bytes of `path` if it is a regular file (not a link, FIFO or device) of at most `max_bytes`.

    Raises `OSError` (``ELOOP`` for a link) or `ValueError` naming the problem."""
    fd = os.open(path, _FILE_FLAGS)
    try:
        st = os.fstat(fd)
        kind = _kind(st.st_mode)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{Path(path).name} is {kind or 'not a regular file'}")
        if st.st_size > max_bytes:
            raise ValueError(f"{Path(path).name} is {st.st_size / 2**20:.1f} MB, over the cap of "
                             f"{max_bytes / 2**20:g} MB")
        os.set_blocking(fd, True)
        data = b""
        while len(data) <= max_bytes:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            data += chunk
        if len(data) > max_bytes:
            raise ValueError(f"{Path(path).name} grew over the cap of {max_bytes / 2**20:g} MB while it was read")
        return data
    finally:
        os.close(fd)


def entry_problem(path: Path | str) -> str | None:
    """Why `path` is not a plain file or folder to read (a link and where it points, a FIFO, ...); None if it is."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    kind = _kind(st.st_mode)
    if kind == "a symlink":
        try:
            return f"a symlink {Path(path).name} -> {os.readlink(path)}"
        except OSError:
            return f"a symlink {Path(path).name}"
    return f"{kind} {Path(path).name}" if kind else None


_PR_SET_PDEATHSIG = 1
_libc = None


def _load_libc() -> object | None:
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        except OSError:
            _libc = False
    return _libc or None


def die_with_parent(parent: int | None = None, sig: int = signal.SIGKILL) -> None:
    """Make this process receive `sig` when its parent dies; if `parent` (the pid expected) is already
    gone, die now. Async-signal-safe once `prepare_die_with_parent` ran: meant for a ``preexec_fn``."""
    libc = _libc or None
    if libc is None:
        return
    libc.prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


def end_descendants_on(sig: int = signal.SIGTERM) -> None:
    """On `sig`, kill every descendant of this process, then exit: a shard told its grader died takes its
    kernels' sandboxes with it, including one half set up (bubblewrap's own parent-death guard has a gap
    while it starts)."""
    def end(signum: int, frame: object) -> None:
        import psutil

        me = psutil.Process()
        for _ in range(5):  # a sandbox starting meanwhile shows up in the next round
            found = me.children(recursive=True)
            for p in found:
                try:
                    p.kill()
                except psutil.Error:
                    pass
            if not found:
                break
            psutil.wait_procs(found, timeout=1)
        os._exit(1)

    signal.signal(sig, end)


def prepare_die_with_parent() -> None:
    """Load libc in the parent, before forking (a ``preexec_fn`` must not load libraries)."""
    _load_libc()
