"""What a hidden test cell says: ``check(lab, group, **your_functions)``.

A hidden test cell of a lab reads, for example::

    from coursetools.hidden import check
    check("03_alphabeta", "value_trees", alphabeta_value=alphabeta_value)

When grading, that line never runs in the submission's kernel: the grader reads it and runs the
group in its own process, calling the student's functions over a channel (`coursetools.grading.checker`).
`check` itself is for the instructor's own kernel (running a lab's source top to bottom) and for
tests: it runs the group in this process. A failure raises `CheckFailed` (an `AssertionError`)
whose message says what was expected, what came and where they first differ.
"""

from __future__ import annotations

import importlib
import os
import re
import signal
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

TIME_LIMIT_SECONDS = 15  # processor seconds a test group may use (this process and the kernel it calls)
WALL_FACTOR = 4          # and wall-clock seconds, in multiples of that, whatever it used (a sleeping loop)


class CheckFailed(AssertionError):
    """A hidden test found a difference; the message is written for the student."""


class CheckTimeout(BaseException):
    """The student's code ran past the check's time limit."""


def cpu_seconds(pid: int | None = None) -> float | None:
    """Processor seconds used so far by this process (`pid` None) or by process `pid`, read from
    /proc, their waited-for children included; None when `pid` cannot be read (it has ended).

    >>> cpu_seconds() >= 0 and cpu_seconds(os.getpid()) >= 0
    True
    """
    if pid is None:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")  # utime stime cutime cstime
    except (OSError, IndexError, ValueError):
        return None


#: The `time_limit` blocks running now, innermost last: each one's processor clock and its limit in seconds.
CLOCKS: list[tuple[Callable[[], float], float]] = []


def processor_seconds() -> float | None:
    """Processor seconds used so far inside the innermost `time_limit` block running, in this process and in the
    processes it watches (the kernel that runs the student's code, read from /proc: nothing the student's code
    says about itself); None outside such a block. /proc counts in clock ticks (10 ms on Linux), so time many
    calls at once.

    >>> processor_seconds() is None
    True
    >>> with time_limit(60):
    ...     processor_seconds() >= 0, processor_limit()
    (True, 60)
    """
    return CLOCKS[-1][0]() if CLOCKS else None


def processor_limit() -> float | None:
    """The processor seconds the innermost `time_limit` block running allows; None outside such a block."""
    return CLOCKS[-1][1] if CLOCKS else None


@contextmanager
def time_limit(seconds: float, others: Iterable[int] = (), wall: float | None = None) -> Iterator[None]:
    """Interrupt the block once it has used `seconds` of processor time, in this process and in the
    processes `others` (the kernel that runs the student's code), or after `wall` seconds of wall
    clock (default `WALL_FACTOR` times `seconds`) whatever it used. Counting processor time, a
    machine busy with other work does not cut an honest submission short. Main thread, Unix only;
    a no-op elsewhere.
    """
    if not hasattr(signal, "setitimer"):
        yield
        return
    watched = [p for p in others if cpu_seconds(p) is not None]
    start = {p: cpu_seconds(p) for p in [None, *watched]}
    last = dict(start)
    wall_end = time.monotonic() + (wall if wall is not None else WALL_FACTOR * seconds)

    def used() -> float:
        for p in last:
            now = cpu_seconds(p)
            if now is not None:
                last[p] = now
        return sum(last[p] - start[p] for p in last)

    def on_alarm(signum: int, frame: Any) -> None:
        if used() > seconds or time.monotonic() > wall_end:
            raise CheckTimeout()

    try:
        previous = signal.signal(signal.SIGALRM, on_alarm)
    except ValueError:  # not in the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, 0.25, 0.25)
    clock = (used, seconds)
    CLOCKS.append(clock)
    try:
        yield
    finally:
        CLOCKS.remove(clock)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def timeout_message(group: str, seconds: float) -> str:
    """What a student reads when their code ran past a test group's time limit."""
    return (f"Your code ran for more than {seconds:g} s of processor time on the test cases of '{group}' (these "
            "take well under a second with a correct solution), or stayed busy far longer on the clock. Look for "
            "an endless loop or recursion that never reaches a terminal state.")


def load_checks(lab: str) -> Any:
    """The check module of `lab`: ``coursetools.checks.labNN`` for lab ``NN_name``, else ``checks.<lab>``."""
    if re.fullmatch(r"\d\d_\w+", lab):
        return importlib.import_module(f"coursetools.checks.lab{lab[:2]}")
    if re.fullmatch(r"[a-z]\w*", lab):
        return importlib.import_module(f"coursetools.checks.{lab}")
    raise ValueError(f"no checks for a lab named {lab!r}")


def load_group(lab: str, group: str) -> Callable[..., Any]:
    """The function of test group `group` of `lab`."""
    fn = getattr(load_checks(lab), f"check_{group}", None)
    if fn is None:
        raise RuntimeError(f"no test group {group!r} in the checks of {lab} (a grader set-up problem)")
    return fn


def check(lab: str, group: str, **student: Callable[..., Any] | type) -> None:
    """Run test group `group` of `lab` in this process on the given functions or classes."""
    fn = load_group(lab, group)
    try:
        with time_limit(TIME_LIMIT_SECONDS):
            passed = fn(**student)
    except CheckTimeout:
        raise CheckFailed(timeout_message(group, TIME_LIMIT_SECONDS)) from None
    except CheckFailed as failure:
        raise CheckFailed(str(failure)) from None
    print(f"hidden tests of '{group}': all {passed} cases passed" if isinstance(passed, int)
          else f"hidden tests of '{group}': passed")
