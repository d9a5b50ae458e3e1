"""Each grading kernel in a sandbox: ``python -m coursetools.sandbox.launcher -- KERNEL COMMAND``.

The grader's kernel manager (`coursetools.sandbox.manager.SandboxKernelManager`) puts this launcher in front of the kernel's
command. The launcher runs in the grader's (trusted) process tree; it builds the sandbox and
replaces itself with bubblewrap (``bwrap``), which starts the kernel inside. The kernel gets:

- a read-only view of the system (``/usr``, ``/etc``), of the Python it runs on and of the course's
  Python packages, with `course_lib` importable from its own folder (``/opt/course``) and
  ``python -S``, so no ``.pth`` file runs and no editable install reaches the checkout: nothing of
  the instructor's is there (no ``instructor/``, ``source/``, ``bank/``, ``demo/``, gradebook,
  ``.git``, other students' folders);
- a private writable copy of its own submission folder (at the same path, in a tmpfs of `WORK_MB`,
  discarded afterwards), a private ``/tmp`` (a tmpfs of `TMP_MB`) and home;
- its shard's IPC folder, where its kernel sockets and the checker's channel live;
- an unprivileged user when the grader is root (`KERNEL_UID`, which owns its folders): bubblewrap keeps
  only the capabilities to change user, which the watcher uses before anything of the submission runs;
- the write end of the watcher's channel, a pipe whose reading end the kernel manager holds outside
  (`judge_report`): what was sent cannot be taken back, and a report that did not end is a flag;
- no network (a network namespace of its own), its own PID namespace (every process it starts dies
  with it), no capabilities, limits on file size and CPU time per process, and a cgroup (v1 or v2) that
  caps the memory of all its processes and its tmpfs together (`MEMORY_MB`) and their number; where
  the host lets no cgroup be made, the grading summary says so and each process's address space
  alone is capped;
- an environment without the instructor's variables: only `KEPT_ENV` and what the sandbox sets.

``COURSETOOLS_SANDBOX=podman`` or ``docker`` (``coursetools grade --sandbox podman``) makes the same
sandbox as a container instead: an empty image (imported once, nothing pulled from a registry) with the
same folders mounted, no network, no capabilities, its own PID namespace, the same user and tmpfs sizes,
the limits kept by the engine's cgroup; the grader removes each container by name when its kernel ends, and sweeps any left
by a stopped shard. ``COURSETOOLS_SANDBOX=none`` (``coursetools grade --no-sandbox``, unsafe) starts
the kernel with the limits and the clean environment only.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import io
import json
import os
import re
import resource
import shlex
import shutil
import stat
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

MODE_ENV = "COURSETOOLS_SANDBOX"          # "bwrap" (the default) or "none"
ROOT_ENV = "COURSETOOLS_SANDBOX_ROOT"     # where private folders go (the grader removes them)
MEMORY_MB = int(os.environ.get("COURSE_KERNEL_MEMORY_MB", "3072"))  # the whole sandbox: its processes and tmpfs
TMP_MB = int(os.environ.get("COURSE_KERNEL_TMP_MB", "512"))    # the sandbox's private /tmp (a tmpfs)
WORK_MB = int(os.environ.get("COURSE_KERNEL_WORK_MB", "512"))  # the kernel's work folder (a tmpfs)
KERNEL_UID = int(os.environ.get("COURSE_KERNEL_UID", "65534"))  # the kernel's user when the grader is root (nobody)
KEPT_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "TZ", "PYTHONHASHSEED", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
            "OMP_NUM_THREADS", "NBGRADER_EXECUTION")
CGROUPS = Path("/sys/fs/cgroup")
CGROUP_PREFIX = "coursetools-"
REPORT_FD_ENV = "GRADER_REPORT_FD"  # the write end of the watcher's channel, inside the sandbox
STAGE = "/opt/grader/submission"     # the submission's copy, read-only; the watcher copies it into the work tmpfs

INSTALL_HINT = (
    "Grading runs every submission in a sandbox made with bubblewrap (bwrap), and it is not usable here. "
    "Install it: 'sudo apt-get install bubblewrap' (Debian, Ubuntu), 'sudo dnf install bubblewrap' (Fedora), "
    "'sudo pacman -S bubblewrap' (Arch), or 'make sandbox-deps' in the course folder; on macOS or Windows, "
    "grade inside a Linux virtual machine or container. 'coursetools grade --no-sandbox' grades without one, "
    "which is UNSAFE: a submission can then read the hidden checks and change other students' grades.")


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot make namespaces on this machine."""


def mode() -> str:
    return os.environ.get(MODE_ENV, "bwrap")


#: The sandbox kinds `probe` found working in this process: a worker that grades check after check asks once.
_PROBED: set[str] = set()


def probe(kind: str = "bwrap") -> None:
    """Raise `SandboxUnavailable` unless sandboxes of `kind` ("bwrap", "podman", "docker") can be made here (asked
    once per process: a kind found working is not tried again)."""
    if kind in _PROBED:
        return
    _probe(kind)
    _PROBED.add(kind)


def _probe(kind: str) -> None:
    if kind in CONTAINER_ENGINES:
        probe_container(kind)
        return
    if kind != "bwrap":
        raise SandboxUnavailable(f"no sandbox called {kind!r}: use bwrap (the default), podman or docker")
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        raise SandboxUnavailable("bwrap is not installed. " + INSTALL_HINT)
    proc = subprocess.run([bwrap, "--ro-bind", "/", "/", "--unshare-all", "--cap-drop", "ALL", "--dev", "/dev",
                           "--proc", "/proc", "true"], capture_output=True, text=True)
    if proc.returncode:
        raise SandboxUnavailable(f"bwrap failed to make a sandbox ({proc.stderr.strip()[:300]}). " + INSTALL_HINT)


def kernel_environment(env: dict[str, str]) -> dict[str, str]:
    """The variables a submission's kernel may keep from the grader's environment."""
    return {k: v for k, v in env.items() if k in KEPT_ENV}


def _limit(kind: int, value: int) -> None:
    soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY and hard < value:
        value = hard
    resource.setrlimit(kind, (value, value))


def _cgroup_folders(name: str) -> list[Path]:
    """The folders of the sandbox's cgroup `name`: one on cgroup v2, the memory and pids ones on v1 (or hybrid)."""
    if (CGROUPS / "cgroup.controllers").exists():
        return [CGROUPS / name]
    return [CGROUPS / "memory" / name, CGROUPS / "pids" / name]


def make_cgroup(name: str, memory_mb: int, max_pids: int, pid: int | None = None) -> str | None:
    """Put `pid` (this process) in a cgroup `name` of its own that caps the memory of all its processes together,
    tmpfs included, and their number; every process it starts stays in it. Returns why not, or None when made."""
    pid = pid or os.getpid()
    limit = str(memory_mb * 1024 * 1024)
    v2 = (CGROUPS / "cgroup.controllers").exists()
    folders = _cgroup_folders(name)
    settings = ([{"memory.max": limit, "memory.swap.max": "0", "pids.max": str(max_pids)}] if v2 else
                [{"memory.limit_in_bytes": limit, "memory.memsw.limit_in_bytes": limit}, {"pids.max": str(max_pids)}])
    required = ("memory.max", "memory.limit_in_bytes", "pids.max")
    try:
        if v2:
            wanted = {"memory", "pids"} - set((CGROUPS / "cgroup.subtree_control").read_text().split())
            if wanted:
                (CGROUPS / "cgroup.subtree_control").write_text(" ".join("+" + c for c in sorted(wanted)))
        for folder, values in zip(folders, settings):
            folder.mkdir(exist_ok=True)
            for key, value in values.items():
                if (folder / key).exists():
                    (folder / key).write_text(value)
                elif key in required:
                    raise OSError(f"{folder / key} is missing")
        for folder in folders:
            (folder / "cgroup.procs").write_text(str(pid))
    except OSError as exc:
        remove_cgroup(name)
        return f"{type(exc).__name__}: {exc}"
    return None


def cgroup_usage(name: str) -> dict[str, int]:
    """The memory counters of the sandbox's cgroup `name`: its cap, its peak, how often the cap was hit and how
    many processes the out-of-memory killer ended (empty when there is no such cgroup)."""
    folder = _cgroup_folders(name)[0]
    out: dict[str, int] = {}

    def number(file: str) -> int | None:
        try:
            text = (folder / file).read_text().strip()
        except OSError:
            return None
        return int(text) if text.isdigit() else None

    def fields(file: str) -> dict[str, int]:
        try:
            return {k: int(v) for k, v in (line.split() for line in (folder / file).read_text().splitlines()
                                           if len(line.split()) == 2 and line.split()[1].isdigit())}
        except OSError:
            return {}

    if folder.parent == CGROUPS:  # v2
        events = fields("memory.events")
        found = {"limit": number("memory.max"), "peak": number("memory.peak"), "failcnt": events.get("max"),
                 "oom": events.get("oom"), "oom_kill": events.get("oom_kill")}
    else:
        control = fields("memory.oom_control")
        found = {"limit": number("memory.limit_in_bytes"), "peak": number("memory.max_usage_in_bytes"),
                 "failcnt": number("memory.failcnt"), "oom_kill": control.get("oom_kill")}
    out.update({k: v for k, v in found.items() if v is not None})
    return out


def remove_cgroup(name: str) -> bool:
    """Remove the sandbox's cgroup `name` once its processes have ended (True when none is left)."""
    left = False
    for folder in _cgroup_folders(name):
        for _ in range(20):
            try:
                folder.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:  # its last processes are still being reaped
                time.sleep(0.05)
        else:
            left = True
    return not left


def cgroup_problem() -> str | None:
    """Why this host does not let the grader cap a whole sandbox's memory with a cgroup, or None if it does (asked
    once per process and cgroup folder)."""
    return _cgroup_problem(str(CGROUPS))


@functools.cache
def _cgroup_problem(folder: str) -> str | None:
    name = f"{CGROUP_PREFIX}probe-{os.getpid()}"
    child = subprocess.Popen(["sleep", "5"])
    try:
        problem = make_cgroup(name, 64, 8, pid=child.pid)
    finally:
        child.kill()
        child.wait()
    remove_cgroup(name)
    if problem is None:
        return None
    return (f"no memory cgroup could be made here ({problem}): each grading kernel's memory is capped per process "
            "only (its address space), so one submission's processes and files together can take more")


@functools.cache
def warm_caches() -> None:
    """Build matplotlib's font list once, outside; every sandbox gets a copy instead of building its own (once per
    process: a worker's checks after its first pay nothing for it)."""
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], capture_output=True, timeout=300)


def sweep_cgroups() -> None:
    """Remove the empty cgroups that finished sandboxes left behind."""
    for parent in (CGROUPS, CGROUPS / "memory", CGROUPS / "pids"):
        for group in parent.glob(CGROUP_PREFIX + "*") if parent.is_dir() else ():
            try:
                group.rmdir()  # fails while a process is still in it
            except OSError:
                pass


def _course_lib_folder() -> Path:
    spec = importlib.util.find_spec("course_lib")
    if spec is None or not spec.submodule_search_locations:
        raise SandboxUnavailable("course_lib is not installed in the grader's Python")
    return Path(list(spec.submodule_search_locations)[0]).resolve()


def _connection_folder(command: list[str]) -> tuple[Path, dict]:
    path = Path(command[command.index("-f") + 1]).resolve()
    info = json.loads(path.read_text())
    return path, info


def _copy_submission(src: Path, dst: Path, max_files: int | None = None, max_bytes: int | None = None) -> None:
    """Copy the submission's folder for the kernel to work in, following nothing (links, FIFOs, sockets and
    devices are left out: see `safecopy`); refuse a folder over the caps."""
    from coursetools.sandbox.safecopy import copy_submission

    try:
        copied = copy_submission(src, dst, max_files=max_files, max_bytes=max_bytes)
    except OSError as exc:
        raise SandboxUnavailable(f"the kernel's folder {src} could not be copied ({exc})") from None
    if copied.capped:
        raise SandboxUnavailable(f"the kernel's folder {src}: {copied.capped}: not a submission folder")


REPORT_CAP = 100_000  # bytes of the watcher's channel kept; a kernel that floods it is flagged
REPORT_WORDS = {"import": "imported the grader's module {}", "write": "tried to write {} (outside its folder: refused)",
                "process": "started a process {} (it ended with its sandbox)",
                "network": "tried to connect to {} (no network in the sandbox)"}


def judge_report(data: bytes, *, ended: bool, flooded: bool = False) -> list[str]:
    """What the submission tried beyond its sandbox, in words, from what its watcher sent down the channel
    (`data`). The kernel manager holds the channel's reading end outside the sandbox; `ended` is its own end
    marker: the kernel's process has exited and the channel reached its end. Without it, or without the watcher's
    first record, or with a record cut short, forged or malformed, the report itself is a flag: "nothing tried"
    is concluded only from a whole report."""
    lines: list[str] = []
    records = data.split(b"\n")
    cut = records.pop()  # what follows the last newline: nothing, in a whole report
    first = True
    for raw in records[:200]:
        try:
            note = json.loads(raw)
            kind, detail = note["kind"], note["detail"]
            if not isinstance(detail, str):
                raise TypeError(detail)
        except (ValueError, KeyError, TypeError):
            kind, detail = "malformed", ""
        if first:
            first = False
            if kind == "start":
                continue
            lines.append("its sandbox report does not start with the watcher's first record (missing or forged)")
        if kind in REPORT_WORDS:
            lines.append(REPORT_WORDS[kind].format(detail[:200]))
        elif "wrote a forged or malformed record into its sandbox report" not in lines:
            lines.append("wrote a forged or malformed record into its sandbox report")
    if first:
        lines.append("its sandbox report is missing (the watcher's first record never came)")
    if cut:
        lines.append("its sandbox report ends in a record cut short")
    if flooded:
        lines.append(f"flooded its sandbox report (over {REPORT_CAP} bytes): the rest was dropped")
    if not ended:
        lines.append("its sandbox report did not end when its kernel did (the channel was held open or cut)")
    return lines


@dataclass
class Layout:
    """What a kernel's sandbox holds, whichever tool makes it: the host folders it sees (each at a path
    inside, read-only or not), its sized tmpfs folders, its environment, its command and its working folder."""

    mounts: list[tuple[str, str, bool]]  # (host path, path inside, read-only)
    env: dict[str, str]
    kernel: list[str]
    cwd: str
    tmpfs: list[tuple[str, int]]  # (path inside, MB): the private /tmp, then the work folder
    uid: int | None  # the unprivileged user the kernel runs as (None: the grader's own, which is not root)


def _hand_over(path: Path, uid: int) -> None:
    """Give the kernel's user `path` (a folder of the grader's it may write in, or a file it must read)."""
    mode = path.lstat().st_mode
    if stat.S_ISDIR(mode) and mode & stat.S_ISVTX and mode & stat.S_IWOTH:  # shared, as /tmp: never the kernel's
        return
    os.lchown(path, uid, uid)


def give_to_kernel(path: str | Path) -> None:
    """Make a socket the grader listens on (mode 0600) the kernel's, so that the kernel can connect to it when the
    grader is root and the kernel runs as `KERNEL_UID`."""
    if os.geteuid() == 0:
        os.chown(path, KERNEL_UID, KERNEL_UID)


def layout(command: list[str], cwd: Path, private: Path, *, report_fd: int | None = None, tmp_mb: int = TMP_MB,
           work_mb: int = WORK_MB) -> Layout:
    """The sandbox of the kernel `command` (``python -m ipykernel_launcher -f ...``) started in `cwd`;
    its private folders (a copy of `cwd`, a home) are made under `private`. The copy is mounted read-only; the
    watcher copies it into the work folder, a tmpfs of `work_mb` at `cwd`. The watcher sends what it sees down
    `report_fd`. When the grader is root, the kernel runs as `KERNEL_UID`, which owns its folders."""
    conn_file, info = _connection_folder(command)
    if info.get("transport") != "ipc":
        raise SandboxUnavailable("the sandbox has no network: kernels must use IPC sockets "
                                 "(c.KernelManager.transport = 'ipc')")
    ipc = Path(info["ip"]).parent.resolve()
    base = Path(sys.base_prefix).resolve()
    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    platsite = Path(sysconfig.get_paths()["platlib"]).resolve()
    python = base / "bin" / Path(os.path.realpath(sys.executable)).name
    work, home = private / "work", private / "home"
    _copy_submission(cwd, work)
    (home / ".config").mkdir(parents=True)
    cache = Path(os.environ.get("MPLCONFIGDIR") or Path.home() / ".cache" / "matplotlib")
    if cache.is_dir():  # the font list (MPLCONFIGDIR holds it): without it every kernel rebuilds it
        shutil.copytree(cache, home / ".config" / "matplotlib", ignore=shutil.ignore_patterns("*.lock", "tex.cache"))
    uid = KERNEL_UID if os.geteuid() == 0 else None
    if uid is not None:  # the kernel's folders, its IPC folder (it makes its sockets there) and connection file
        temps = {Path(tempfile.gettempdir()).resolve(), Path("/tmp").resolve()}
        if not temps & set(ipc.parents):
            raise SandboxUnavailable(f"the kernel's IPC folder {ipc} is not a folder of its own under /tmp: as root, "
                                     "the grader hands that folder to the kernel's unprivileged user")
        for path in [private, *private.rglob("*"), ipc, conn_file]:
            _hand_over(path, uid)
    mounts = [(str(base), str(base), True), (str(site), str(site), True)]
    if platsite != site:
        mounts.append((str(platsite), str(platsite), True))
    mounts += [(str(_course_lib_folder()), "/opt/course/course_lib", True), (str(ipc), str(ipc), False),
               (str(conn_file), str(conn_file), True),
               (str(Path(__file__).with_name("watch.py")), "/opt/grader/sandbox_watch.py", True),
               (str(work), STAGE, True), (str(home), "/tmp/home", False)]
    env = kernel_environment(dict(os.environ))
    env.update(HOME="/tmp/home", PATH="/usr/local/bin:/usr/bin:/bin", TMPDIR="/tmp", PYTHONDONTWRITEBYTECODE="1",
               PYTHONPATH=f"/opt/course:{site}" + (f":{platsite}" if platsite != site else ""),
               MPLCONFIGDIR="/tmp/home/.config/matplotlib", JUPYTER_RUNTIME_DIR=str(conn_file.parent),
               PYDEVD_DISABLE_FILE_VALIDATION="1", GRADER_STAGE=STAGE)
    if report_fd is not None:
        env[REPORT_FD_ENV] = str(report_fd)
    options = [o for o in command[1:] if o.startswith("-X")]  # interpreter options such as -Xfrozen_modules=off
    rest = [o for o in command[1:] if not o.startswith("-X")]
    if rest[:2] == ["-m", "ipykernel_launcher"]:
        start = rest
    elif rest and rest[0].endswith(".py") and Path(rest[0]).is_file():  # a kernel script of the instructor's
        script = Path(rest[0]).resolve()
        mounts.append((str(script), str(script), True))
        start = [str(script)] + rest[1:]
    else:
        raise SandboxUnavailable(f"not a Python kernel command: {command[:4]}")
    return Layout(mounts, env, [str(python), "-S"] + options + ["/opt/grader/sandbox_watch.py"] + start, str(cwd),
                  [("/tmp", tmp_mb), (str(cwd), work_mb)], uid)


def bwrap_command(command: list[str], cwd: Path, private: Path, *, report_fd: int | None = None,
                  tmp_mb: int = TMP_MB, work_mb: int = WORK_MB) -> list[str]:
    """The bwrap command that runs the kernel `command` in its sandbox (see `layout`). As root, bwrap makes no
    user namespace and keeps only the capabilities to change user, which the watcher uses before anything
    else runs to become `KERNEL_UID` (and so loses them all)."""
    box = layout(command, cwd, private, report_fd=report_fd, tmp_mb=tmp_mb, work_mb=work_mb)
    args = ["bwrap", "--die-with-parent", "--new-session"]
    if box.uid is None:
        args += ["--unshare-all", "--cap-drop", "ALL"]
    else:
        args += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
                 "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_CHOWN"]
        box.env["GRADER_UID"] = str(box.uid)
    args += ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for name in SYSTEM_LINKS:
        link = Path("/") / name
        if link.is_symlink():
            args += ["--symlink", os.readlink(link), str(link)]
        elif link.is_dir():
            args += ["--ro-bind", str(link), str(link)]
    (tmp, tmp_size), (work, work_size) = box.tmpfs
    args += ["--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--size", str(tmp_size * 2**20), "--tmpfs", tmp,
             "--size", str(16 * 2**20), "--tmpfs", "/run", "--size", str(16 * 2**20), "--tmpfs", "/var"]
    # The folders that lead to each mount: bwrap would make them root's and closed (0700) to the kernel's user.
    dests = [dst for _src, dst, _ro in box.mounts] + [work]
    made = {"/", "/usr", "/etc", "/tmp", "/run", "/var", "/proc", "/dev"}
    for dst in dests:
        for folder in reversed(Path(dst).parents):
            if str(folder) not in made and not any(str(folder).startswith(d + "/") for d in dests):
                made.add(str(folder))
                args += ["--perms", "0755", "--dir", str(folder)]
    for src, dst, ro in box.mounts:
        args += ["--ro-bind" if ro else "--bind", src, dst]
    args += ["--perms", "0700", "--size", str(work_size * 2**20), "--tmpfs", work]
    args += ["--chdir", box.cwd, "--clearenv"]
    for key, value in sorted(box.env.items()):
        args += ["--setenv", key, value]
    return args + ["--"] + box.kernel


SYSTEM_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


# --- containers (podman or docker) -----------------------------------------------------------------------------

CONTAINER_ENGINES = ("podman", "docker")
ENGINE_ARGS_ENV = "COURSETOOLS_CONTAINER_ARGS"  # the engine's global options that work here (found by `probe`)
IMAGE = "coursetools-empty:2"  # an image with nothing in it but the top folders: the host's are mounted read-only
LABEL = "coursetools.sandbox"  # on every kernel container: the sandbox root of its shard, to sweep what is left
# Tried in order when the engine's defaults cannot run a container here: a host with cgroups v1 or hybrid
# needs podman's cgroupfs manager and runc (crun refuses hybrid cgroups).
FALLBACK_ARGS = (["--cgroup-manager=cgroupfs", "--runtime", "runc"],)


def engine_args() -> list[str]:
    return shlex.split(os.environ.get(ENGINE_ARGS_ENV, ""))


def container_name(connection_file: str | Path) -> str:
    """The name of the container of the kernel with this connection file."""
    return "coursetools-" + re.sub(r"[^a-zA-Z0-9_.-]", "-", Path(connection_file).stem)[:60]


def _empty_image_tar() -> bytes:
    """A tar of the image: the top folders a kernel's mounts go into, and the host's top-level links."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        for name in ("usr", "etc", "tmp", "proc", "dev", "sys", "opt", "run", "var"):
            entry = tarfile.TarInfo(name)
            # /tmp open to all (a tmpfs there takes the image's mode): the kernel's user writes there
            entry.type, entry.mode = tarfile.DIRTYPE, 0o1777 if name == "tmp" else 0o755
            tar.addfile(entry)
        for name in SYSTEM_LINKS:
            if (Path("/") / name).is_symlink():
                entry = tarfile.TarInfo(name)
                entry.type, entry.linkname = tarfile.SYMTYPE, os.readlink(Path("/") / name)
                tar.addfile(entry)
    return out.getvalue()


def _engine(engine: str, *args: str, timeout: float = 120, data: bytes | None = None,
            options: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([engine, *(engine_args() if options is None else options), *args], input=data,
                          capture_output=True, timeout=timeout)


def probe_container(engine: str) -> None:
    """Make sure `engine` runs a sandboxed container here (its image imported once); remember in the
    environment which global options it needs. Raises `SandboxUnavailable` with what to do."""
    if shutil.which(engine) is None:
        raise SandboxUnavailable(f"{engine} is not installed. Install it ('sudo apt-get install -y podman runc' on "
                                 "Debian and Ubuntu, or Docker from docker.com), or grade with the default sandbox, "
                                 "bubblewrap ('--sandbox bwrap').")
    tried = [engine_args()] if os.environ.get(ENGINE_ARGS_ENV) else [[], *FALLBACK_ARGS]
    errors = []
    for options in tried:
        try:
            if _engine(engine, "image", "inspect", IMAGE, options=options).returncode:
                made = _engine(engine, "import", "-", IMAGE, data=_empty_image_tar(), options=options)
                if made.returncode:
                    errors.append(made.stderr.decode(errors="replace").strip()[-300:])
                    continue
            ran = _engine(engine, "run", "--rm", "--network", "none", "--read-only", "--cap-drop", "ALL",
                          *_container_ulimits(64, 1), "-v", "/usr:/usr:ro", IMAGE, "/usr/bin/true", options=options)
        except (OSError, subprocess.TimeoutExpired) as exc:
            errors.append(str(exc))
            continue
        if ran.returncode == 0:
            os.environ[ENGINE_ARGS_ENV] = shlex.join(options)
            return
        errors.append(ran.stderr.decode(errors="replace").strip()[-300:])
    raise SandboxUnavailable(f"{engine} cannot run a container here ({' / '.join(errors)}). "
                             f"Set {ENGINE_ARGS_ENV} to the global options it needs, or grade with the default "
                             "sandbox, bubblewrap ('--sandbox bwrap').")


def _container_ulimits(file_mb: int, cpu_seconds: int, max_files: int = 4096) -> list[str]:
    size = file_mb * 1024 * 1024
    out = ["--ulimit", f"fsize={size}:{size}", "--ulimit", f"cpu={cpu_seconds}:{cpu_seconds}",
           "--ulimit", f"nofile={max_files}:{max_files}"]
    # The engines' default process limit can be above the hard limit the runtime has (podman's conmon lowers it
    # to 32768), and a runtime without capabilities cannot raise it: ask for a modest one. (It counts the
    # user's processes on the whole host; the container's own cap is its pids cgroup.)
    nproc = resource.getrlimit(resource.RLIMIT_NPROC)[1]
    nproc = 16384 if nproc == resource.RLIM_INFINITY else min(nproc, 16384)
    return out + ["--ulimit", f"nproc={nproc}:{nproc}"]


def container_command(engine: str, command: list[str], cwd: Path, private: Path, *, memory_mb: int, file_mb: int,
                      cpu_seconds: int, max_pids: int, report_fd: int | None = None, tmp_mb: int = TMP_MB,
                      work_mb: int = WORK_MB) -> list[str]:
    """The ``podman run`` (or ``docker run``) command that runs the kernel `command` in its sandbox (`layout`):
    the empty image, read-only, the host's system and Python mounted read-only, no network, no capabilities,
    its own PID namespace, an unprivileged user, sized tmpfs folders, and the limits as the engine's own (a cgroup
    for memory, tmpfs included, and processes). The watcher's channel is the container's fd 3."""
    box = layout(command, cwd, private, report_fd=None if report_fd is None else 3, tmp_mb=tmp_mb, work_mb=work_mb)
    args = [engine, *engine_args(), "run", "--rm", "--name", container_name(_connection_folder(command)[0]),
            "--label", f"{LABEL}={os.environ.get(ROOT_ENV, '')}", "--network", "none", "--read-only",
            "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--init=false",
            "--memory", f"{memory_mb}m", "--memory-swap", f"{memory_mb}m", "--pids-limit", str(max_pids),
            *_container_ulimits(file_mb, cpu_seconds)]
    if box.uid is not None:
        args += ["--user", f"{box.uid}:{box.uid}"]
    if report_fd is not None:
        args += ["--preserve-fds", "1"]
    owner = ",U" if box.uid is not None else ""  # U: the tmpfs belongs to the container's user
    (tmp, tmp_size), (work, work_size) = box.tmpfs
    args += ["--tmpfs", f"{tmp}:rw,size={tmp_size}m,mode=1777", "--tmpfs", "/run:rw,size=16m",
             "--tmpfs", "/var:rw,size=16m", "--tmpfs", f"{work}:rw,size={work_size}m,mode=0700{owner}",
             "-v", "/usr:/usr:ro", "-v", "/etc:/etc:ro", "--workdir", box.cwd]
    for src, dst, ro in box.mounts:
        args += ["-v", f"{src}:{dst}:{'ro' if ro else 'rw'}"]
    for key, value in sorted(box.env.items()):
        args += ["--env", f"{key}={value}"]
    return args + [IMAGE] + box.kernel


def stop_container(connection_file: str | Path) -> None:
    """Kill the container of the kernel with this connection file (in container mode; a no-op otherwise)."""
    engine = mode()
    if engine in CONTAINER_ENGINES:
        try:  # SIGKILL: a kernel that is its container's process 1 ignores SIGTERM (and `rm -f` waits for it)
            _engine(engine, "kill", container_name(connection_file), timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            pass


def sweep_containers(engine: str | None, root: str | Path) -> None:
    """Remove the containers `engine` still has of the kernels whose sandbox root was `root` (a shard killed
    mid-submission); a no-op for the other sandboxes."""
    if engine not in CONTAINER_ENGINES:
        return
    try:
        found = _engine(engine, "ps", "-aq", "--filter", f"label={LABEL}={root}", timeout=30)
        ids = found.stdout.decode().split()
        if ids:
            _engine(engine, "kill", *ids, timeout=60)
            _engine(engine, "rm", "-f", *ids, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        pass


def cgroup_name(pid: int) -> str:
    """The name of the cgroup of the sandbox whose launcher had process id `pid`."""
    return f"{CGROUP_PREFIX}{pid}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m coursetools.sandbox.launcher", description=__doc__.split("\n\n")[0])
    parser.add_argument("--memory-mb", type=int, default=MEMORY_MB,
                        help="memory of the whole sandbox (its processes and tmpfs), and each process's address space")
    parser.add_argument("--file-mb", type=int, default=256, help="largest file the kernel may write")
    parser.add_argument("--cpu-seconds", type=int, default=1800, help="CPU time of the kernel")
    parser.add_argument("--max-pids", type=int, default=64, help="processes and threads of the sandbox")
    parser.add_argument("--tmp-mb", type=int, default=TMP_MB, help="size of the sandbox's private /tmp")
    parser.add_argument("--work-mb", type=int, default=WORK_MB, help="size of the kernel's work folder")
    parser.add_argument("--report-fd", type=int, default=None,
                        help="the write end of the channel the watcher reports on (its reading end is the caller's)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the kernel's command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or "-f" not in command:
        parser.error("no kernel command (with -f CONNECTION_FILE) after --")
    from coursetools.sandbox.safecopy import die_with_parent, prepare_die_with_parent

    # The kernel (and its sandbox) ends with the grader that started it, even killed outright; a grader that died
    # before this line (jupyter_client names it in JPY_PARENT_PID) ends it at once.
    prepare_die_with_parent()
    parent = os.environ.get("JPY_PARENT_PID", "")
    die_with_parent(int(parent) if parent.isdigit() else None)
    sandbox = mode()
    if sandbox in ("bwrap", *CONTAINER_ENGINES):
        root = Path(os.environ.get(ROOT_ENV) or tempfile.gettempdir())
        root.mkdir(parents=True, exist_ok=True)
        private = Path(tempfile.mkdtemp(prefix="kernel-", dir=root))
        sizes = {"report_fd": args.report_fd, "tmp_mb": args.tmp_mb, "work_mb": args.work_mb}
        try:
            if sandbox == "bwrap":
                final = bwrap_command(command, Path.cwd(), private, **sizes)
            else:
                final = container_command(sandbox, command, Path.cwd(), private, memory_mb=args.memory_mb,
                                          file_mb=args.file_mb, cpu_seconds=args.cpu_seconds, max_pids=args.max_pids,
                                          **sizes)
        except SandboxUnavailable as exc:
            sys.exit(f"coursetools.sandbox.launcher: {exc}")
        if sandbox != "bwrap":  # the engine keeps the limits, in the container only (not on the engine itself)
            if args.report_fd is not None and args.report_fd != 3:
                os.dup2(args.report_fd, 3)
                os.close(args.report_fd)
            os.execvp(final[0], final)
        make_cgroup(cgroup_name(os.getpid()), args.memory_mb, args.max_pids)  # the grader says when it cannot
    elif sandbox == "none":
        final = command
    else:
        sys.exit(f"coursetools.sandbox.launcher: unknown {MODE_ENV}={sandbox!r} (use 'bwrap', 'podman', 'docker' or 'none')")
    _limit(resource.RLIMIT_AS, args.memory_mb * 1024 * 1024)
    _limit(resource.RLIMIT_FSIZE, args.file_mb * 1024 * 1024)
    _limit(resource.RLIMIT_CPU, args.cpu_seconds)
    env = kernel_environment(dict(os.environ))
    env["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
    if sandbox == "none":
        env.update({k: v for k, v in os.environ.items() if k in ("HOME", "JUPYTER_RUNTIME_DIR", "VIRTUAL_ENV")})
    os.execvpe(final[0], final, env)


if __name__ == "__main__":
    main()
