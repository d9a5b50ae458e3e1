"""What a hidden test cell says: ``check(lab, group, **your_functions)``.

A hidden test cell of a lab reads, for example::

    from coursetools.hidden import check
    check("03_alphabeta", "value_trees", alphabeta_value=alphabeta_value)

When grading, that line never runs in the submission's kernel: the grader reads it and runs the
group in its own process, calling the student's functions over a channel (`coursetools.checker`).
`check` itself is for the instructor's own kernel (running a lab's source top to bottom) and for
tests: it runs the group in this process. A failure raises `CheckFailed` (an `AssertionError`)
whose message says what was expected, what came and where they first differ.
"""

from __future__ import annotations

import importlib
import re
import signal
from contextlib import contextmanager
from typing import Any, Callable, Iterator

TIME_LIMIT_SECONDS = 15


class CheckFailed(AssertionError):
    """A hidden test found a difference; the message is written for the student."""


class CheckTimeout(BaseException):
    """The student's code ran past the check's time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after `seconds` (main thread, Unix); a no-op elsewhere."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise CheckTimeout()

    try:
        previous = signal.signal(signal.SIGALRM, on_alarm)
    except ValueError:  # not in the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def timeout_message(group: str, seconds: float) -> str:
    """What a student reads when their code ran past a test group's time limit."""
    return (f"Your code ran for more than {seconds:g} s on the test cases of '{group}' (these take well under a "
            "second with a correct solution). Look for an endless loop or recursion that never reaches a "
            "terminal state.")


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
