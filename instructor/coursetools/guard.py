"""Loaded first in every grading kernel (see nbgrader_config.py), before student code runs.

It keeps pristine copies of what a submission might tamper with, so the hidden
tests can put them back: the builtins, ``sys.excepthook``, IPython's
``showtraceback`` and the secret seed. It also caps the kernel's memory, so a
submission that allocates without end fails alone instead of taking the machine.
"""

from __future__ import annotations

import builtins
import os
import sys

MEMORY_LIMIT_BYTES = int(os.environ.get("COURSE_KERNEL_MEMORY_MB", "3072")) * 1024 * 1024

_BUILTINS = dict(builtins.__dict__)
_EXCEPTHOOK = sys.excepthook
_SEED = os.environ.get("COURSE_SECRET_SEED")
_SHOWTRACEBACK = None
try:  # only inside an IPython kernel
    from IPython.core.interactiveshell import InteractiveShell

    _SHOWTRACEBACK = InteractiveShell.showtraceback
except Exception:  # pragma: no cover - plain Python
    pass


def limit_memory(limit: int = MEMORY_LIMIT_BYTES) -> None:
    """Cap this process's address space (Linux); a runaway allocation then raises MemoryError."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard if hard != resource.RLIM_INFINITY else limit))
    except (ImportError, ValueError, OSError):  # pragma: no cover - other systems
        pass


def pristine_builtins() -> dict:
    """The builtins as they were when the kernel started."""
    return dict(_BUILTINS)


def secret_seed() -> str | None:
    """The secret seed the grader was started with (None when not set)."""
    return _SEED


def restore() -> None:
    """Put back the builtins, the excepthook and IPython's traceback display."""
    current = builtins.__dict__
    for name in [n for n in current if n not in _BUILTINS and not n.startswith("_")]:
        del current[name]
    current.update(_BUILTINS)
    sys.excepthook = _EXCEPTHOOK
    if _SHOWTRACEBACK is not None:
        from IPython.core.interactiveshell import InteractiveShell

        InteractiveShell.showtraceback = _SHOWTRACEBACK
        shell = InteractiveShell.initialized() and InteractiveShell.instance()
        if shell and "showtraceback" in vars(shell):
            del shell.showtraceback


if os.environ.get("NBGRADER_EXECUTION") == "autograde":
    limit_memory()
