"""Imported at the start of every grading kernel (with `coursetools.guard`): undo shell tampering.

A submission can make IPython run something else than the test cells: an input or AST
transformer that turns every later cell into ``pass`` leaves each test cell with no
output, which nbgrader scores as passed. `reset` puts the shell back as it was at start
(transformers, event callbacks, overridden shell methods, then `coursetools.guard.restore`
for builtins, the excepthook and the traceback display). The grader calls it through an
execute request's ``user_expressions`` before every graded test cell: those are evaluated
without passing through the input transformers the submission may have installed.

It also puts back Python's import machinery (``sys.meta_path``, ``sys.path_hooks``,
``sys.path``) and forgets every grader module but this one and the guard, so the hidden
test that follows imports `coursetools.hidden` afresh from disk: a submission that
replaced ``check`` (or the module, or the package's path) gains nothing.

This raises the bar; it is not a sandbox. Code that runs in the kernel can, with enough
study of the grader, still reach it; see the README's "Limits of grading in the kernel".
"""

from __future__ import annotations

import importlib
import sys

_METHODS = ("run_cell", "run_cell_async", "run_ast_nodes", "run_code", "transform_cell", "transform_ast",
            "showtraceback", "showsyntaxerror", "_showtraceback", "user_expressions", "ev")
_KERNEL_METHODS = ("do_execute", "execute_request", "dispatch_shell", "process_one", "send_response")
_SNAPSHOT: dict = {}


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - plain Python
        return None
    return get_ipython()


def _take() -> None:
    _SNAPSHOT.update(meta_path=list(sys.meta_path), path_hooks=list(sys.path_hooks), path=list(sys.path))
    shell = _shell()
    if shell is None:
        return
    _SNAPSHOT.update(
        cleanup=list(shell.input_transformers_cleanup),
        post=list(shell.input_transformers_post),
        ast=list(shell.ast_transformers),
        events={name: list(cbs) for name, cbs in shell.events.callbacks.items()},
        classes={cls: {m: cls.__dict__[m] for m in _METHODS + _KERNEL_METHODS if m in cls.__dict__}
                 for cls in type(shell).__mro__ + type(getattr(shell, "kernel", None)).__mro__},
        stdout=sys.stdout, stderr=sys.stderr, displayhook=sys.displayhook,
    )


def _kept(name: str) -> bool:
    """Grader modules that stay loaded: this one and the guard (they hold the start-up snapshots)."""
    return name in (__name__, "coursetools.guard") or not (name == "coursetools" or name.startswith("coursetools."))


def _reset_imports() -> None:
    sys.meta_path[:] = _SNAPSHOT["meta_path"]
    sys.path_hooks[:] = _SNAPSHOT["path_hooks"]
    sys.path[:] = _SNAPSHOT["path"]
    sys.path_importer_cache.clear()
    for name in [n for n in sys.modules if not _kept(n)]:
        del sys.modules[name]
    package = importlib.import_module("coursetools")  # afresh, with its own __path__
    package.guard = sys.modules.get("coursetools.guard")
    package.shellguard = sys.modules[__name__]


def reset(token: str = "ok") -> str:
    """Put the shell back as it was when the kernel started; returns `token` (the grader checks it)."""
    shell = _shell()
    if shell is not None and _SNAPSHOT:
        shell.input_transformers_cleanup[:] = _SNAPSHOT["cleanup"]
        shell.input_transformers_post[:] = _SNAPSHOT["post"]
        shell.ast_transformers[:] = _SNAPSHOT["ast"]
        for name, cbs in _SNAPSHOT["events"].items():
            shell.events.callbacks[name] = list(cbs)
        for cls, methods in _SNAPSHOT["classes"].items():
            for name, fn in methods.items():
                if cls.__dict__.get(name) is not fn:
                    setattr(cls, name, fn)
        for name in _METHODS:
            if name in vars(shell):
                delattr(shell, name)
        sys.stdout, sys.stderr, sys.displayhook = _SNAPSHOT["stdout"], _SNAPSHOT["stderr"], _SNAPSHOT["displayhook"]
        kernel = getattr(shell, "kernel", None)
        for name in _KERNEL_METHODS:
            if kernel is not None and name in vars(kernel):
                delattr(kernel, name)
    guard = sys.modules.get("coursetools.guard")
    if guard is not None:
        guard.restore()
    if _SNAPSHOT:
        _reset_imports()
    return token


_take()
