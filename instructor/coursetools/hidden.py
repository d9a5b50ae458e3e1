"""What a hidden test cell calls: ``check(lab, group, **your_functions)``.

A hidden test cell of a lab reads, for example::

    from coursetools.hidden import check
    check("03_alphabeta", "value_trees", alphabeta_value=alphabeta_value)

Before running the checks it undoes what a submission may have tampered with: it
puts back the builtins, the excepthook and the traceback display, and imports
`course_lib` and the lab's checks afresh from disk, so a monkeypatched game or
library gains nothing. A failure raises `CheckFailed` (an `AssertionError`) whose
message says what was expected, what came and where they first differ.
"""

from __future__ import annotations

import importlib
import signal
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

TIME_LIMIT_SECONDS = 15


class CheckFailed(AssertionError):
    """A hidden test found a difference; the message is written for the student."""


class CheckTimeout(BaseException):
    """Raised inside student code that runs past the check's time limit."""


def _reloadable(name: str) -> bool:
    return name == "course_lib" or name.startswith("course_lib.") or name.startswith("coursetools.checks")


def _fresh_modules() -> None:
    for name in [n for n in sys.modules if _reloadable(n)]:
        del sys.modules[name]
    importlib.invalidate_caches()


@contextmanager
def fresh_imports() -> Iterator[None]:
    """Import course_lib and the checks afresh inside the block; put the old modules back after.

    Putting them back keeps the caller's own imports consistent (the kernel's, or a
    test process calling `check` directly).
    """
    saved = {n: m for n, m in sys.modules.items() if _reloadable(n)}
    try:
        yield
    finally:
        for name in [n for n in sys.modules if _reloadable(n)]:
            del sys.modules[name]
        sys.modules.update(saved)


def _restore() -> None:
    guard = sys.modules.get("coursetools.guard")
    if guard is None:
        guard = importlib.import_module("coursetools.guard")
    guard.restore()


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


def load_checks(lab: str) -> Any:
    """The lab's check module, imported afresh from disk."""
    _fresh_modules()
    return importlib.import_module(f"coursetools.checks.lab{lab[:2]}")


def check(lab: str, group: str, **student: Callable[..., Any] | type) -> None:
    """Run test group `group` of `lab` on the student's functions or classes."""
    _restore()
    with fresh_imports():
        module = load_checks(lab)
        fn = getattr(module, f"check_{group}", None)
        if fn is None:
            raise RuntimeError(f"no test group {group!r} in the checks of {lab} (a grader set-up problem)")
        passed = _run(fn, group, student)
    print(f"'{group}': all {passed} checks passed" if isinstance(passed, int) else f"'{group}': passed")


def _run(fn: Callable[..., Any], group: str, student: dict) -> Any:
    try:
        with time_limit(TIME_LIMIT_SECONDS):
            return fn(**student)
    except CheckTimeout:
        raise CheckFailed(
            f"Your code ran for more than {TIME_LIMIT_SECONDS} s on the test cases of '{group}' "
            "(these take well under a second with a correct solution). Look for an endless loop "
            "or recursion that never reaches a terminal state."
        ) from None
    except CheckFailed as failure:
        raise CheckFailed(str(failure)) from None
