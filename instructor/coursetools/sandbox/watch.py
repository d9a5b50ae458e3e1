"""The first code of every sandboxed grading kernel: note what the submission tries beyond its sandbox.

Run as ``python -S sandbox_watch.py -m ipykernel_launcher ARGS`` (or ``sandbox_watch.py SCRIPT
ARGS``): it adds an audit hook (which nothing can remove afterwards) and a last import finder,
then starts the kernel. They note, in the report file the sandbox gives (``GRADER_REPORT``),
imports of the grader's modules (which are not there), writes outside the submission's folder
and ``/tmp``, new processes and network connections. The sandbox stops all of these anyway; the
notes only tell the instructor who tried. Standard library only: this file is all of it the
kernel sees.
"""

import json
import os
import runpy
import sys

_REPORT = os.environ.pop("GRADER_REPORT", None)
_FD = os.open(_REPORT, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600) if _REPORT else None
_HOME = os.getcwd()
_GRADER_MODULES = ("coursetools",)
_BENIGN = ("uname", "fc-list")  # platform.processor() runs `uname -p`; matplotlib may list the fonts
_PROCESS_EVENTS = ("subprocess.Popen", "os.system", "os.posix_spawn", "os.exec", "os.fork", "os.forkpty", "pty.spawn")
_seen = set()


def _note(kind, detail):
    key = (kind, detail)
    if _FD is None or key in _seen or len(_seen) >= 50:
        return
    _seen.add(key)
    try:
        os.write(_FD, (json.dumps({"kind": kind, "detail": detail[:200]}) + "\n").encode())
    except OSError:
        pass


def _writes(mode, flags):
    if isinstance(mode, str) and any(c in mode for c in "wax+"):
        return True
    return isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND))


def _hook(event, args):
    if event == "import":
        if args and isinstance(args[0], str) and args[0].split(".")[0] in _GRADER_MODULES:
            _note("import", args[0])
    elif event == "open":
        path = args[0] if args else None
        if isinstance(path, bytes):
            path = path.decode(errors="replace")
        if isinstance(path, str) and len(args) >= 3 and _writes(args[1], args[2]):
            full = os.path.abspath(path)
            folder = os.path.dirname(full) or os.sep
            # flagged: a write where the sandbox allows none (a folder missing here, or mounted read-only)
            if not full.startswith("/dev/") and not os.access(folder, os.W_OK):
                _note("write", full)
    elif event in _PROCESS_EVENTS:
        what = args[0] if args else event
        if not (isinstance(what, (str, bytes)) and os.path.basename(os.fsdecode(what)) in _BENIGN):
            _note("process", repr(what)[:120])
    elif event == "socket.connect":
        address = args[1] if len(args) > 1 else None
        if not isinstance(address, (str, bytes)):
            _note("network", repr(address)[:120])


class _Tripwire:
    """Last on ``sys.meta_path``: asked only for modules nothing else found (``importlib`` skips the audit)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".")[0] in _GRADER_MODULES:
            _note("import", name)
        return None


if __name__ == "__main__":
    sys.addaudithook(_hook)
    sys.meta_path.append(_Tripwire())
    if sys.argv[1:3] == ["-m", "ipykernel_launcher"]:
        sys.argv = ["ipykernel_launcher"] + sys.argv[3:]
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
    else:  # a kernel script: python -S sandbox_watch.py SCRIPT ARGS
        sys.argv = sys.argv[1:]
        runpy.run_path(sys.argv[0], run_name="__main__")
