"""The first code of every sandboxed grading kernel: note what the submission tries beyond its sandbox.

Run as ``python -S sandbox_watch.py -m ipykernel_launcher ARGS`` (or ``sandbox_watch.py SCRIPT
ARGS``). Before anything of the submission's runs, it becomes the kernel's unprivileged user when
the sandbox starts it as root (``GRADER_UID``: its work folder is made that user's, then every
capability is gone), copies the submission's read-only copy (``GRADER_STAGE``) into the work folder,
a sized tmpfs. Then it adds an audit hook (which nothing can remove afterwards) and a last import
finder, and starts the kernel. They note, on the channel the sandbox gives (``GRADER_REPORT_FD``,
the write end of a pipe whose reading end the grader holds outside), imports of the grader's modules
(which are not there), writes outside the submission's folder and ``/tmp``, new processes and network
connections; the first record says the watcher started. What is sent cannot be taken back, and the
grader closes the report itself once the kernel has exited. The sandbox stops all of these anyway;
the notes only tell the instructor who tried. Standard library only: this file is all of it the
kernel sees.
"""

import json
import os
import runpy
import sys

_FD = None
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


def _become(uid):
    """Make the work folder the kernel user's, then become that user: no capability is left after this."""
    os.chown(_HOME, uid, uid)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (uid, uid, uid):
        sys.exit("sandbox_watch: could not become the kernel's user")


def _copy_in(stage):
    """Copy the submission's read-only copy into the work folder (links stay links, as the grader copied them)."""
    import shutil

    shutil.copytree(stage, _HOME, symlinks=True, dirs_exist_ok=True)


def _start():
    global _FD
    uid, stage, fd = (os.environ.pop(k, None) for k in ("GRADER_UID", "GRADER_STAGE", "GRADER_REPORT_FD"))
    if uid:
        _become(int(uid))
    if stage:
        _copy_in(stage)
    if fd:
        _FD = int(fd)
        os.set_inheritable(_FD, False)  # the kernel's own processes do not get the channel
        os.write(_FD, (json.dumps({"kind": "start", "detail": str(os.getpid())}) + "\n").encode())


if __name__ == "__main__":
    _start()
    sys.addaudithook(_hook)
    sys.meta_path.append(_Tripwire())
    if sys.argv[1:3] == ["-m", "ipykernel_launcher"]:
        sys.argv = ["ipykernel_launcher"] + sys.argv[3:]
        runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)
    else:  # a kernel script: python -S sandbox_watch.py SCRIPT ARGS
        sys.argv = sys.argv[1:]
        runpy.run_path(sys.argv[0], run_name="__main__")
