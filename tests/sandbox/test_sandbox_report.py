"""The sandbox's report reaches the grader on a channel the kernel cannot take back, and the kernel is no root.

`judge_report` on reports cut short, forged, flooded or never ended; then real kernels in both sandboxes
(bubblewrap and podman, through `SandboxKernelManager`): one that erases what it can find of its evidence, one
that forges and cuts short its records, and the kernel's user and folders.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from jupyter_core.utils import run_sync

from coursetools.sandbox import launcher
from coursetools.sandbox.launcher import KERNEL_UID, REPORT_CAP, judge_report

START = json.dumps({"kind": "start", "detail": "1"}).encode() + b"\n"
IMPORT = json.dumps({"kind": "import", "detail": "coursetools.checks"}).encode() + b"\n"


def test_a_whole_report_with_nothing_tried_is_no_flag():
    assert judge_report(START, ended=True) == []
    assert judge_report(START + IMPORT, ended=True) == ["imported the grader's module coursetools.checks"]


def test_a_missing_report_is_a_flag():
    assert judge_report(b"", ended=True) == ["its sandbox report is missing (the watcher's first record never came)"]


def test_a_report_without_the_managers_end_is_a_flag():
    flags = judge_report(START, ended=False)
    assert flags == ["its sandbox report did not end when its kernel did (the channel was held open or cut)"]


def test_a_truncated_report_is_a_flag():
    flags = judge_report(START + IMPORT[:20], ended=True)
    assert flags == ["its sandbox report ends in a record cut short"]


@pytest.mark.parametrize("forged", [b'{"kind": "end", "detail": "nothing tried"}\n', b"not json\n",
                                    b'{"kind": "import", "detail": 7}\n', b"[1, 2]\n"])
def test_a_forged_record_is_a_flag(forged):
    flags = judge_report(START + forged, ended=True)
    assert "wrote a forged or malformed record into its sandbox report" in flags


def test_a_report_that_does_not_start_with_the_watcher_is_a_flag():
    flags = judge_report(IMPORT, ended=True)
    assert "its sandbox report does not start with the watcher's first record (missing or forged)" in flags


def test_a_flooded_report_is_a_flag():
    flags = judge_report(START, ended=True, flooded=True)
    assert flags == [f"flooded its sandbox report (over {REPORT_CAP} bytes): the rest was dropped"]


# -- real kernels in each sandbox -------------------------------------------------------------------------------

ERASES = """
import glob, os, subprocess
try:
    import coursetools.checks
except ImportError:
    pass
subprocess.run(['true'])
try:
    open('/usr/lib/evidence-test', 'w')
except OSError:
    pass
for path in glob.glob('/tmp/**/report-*', recursive=True) + glob.glob('./**/report-*', recursive=True):
    os.unlink(path)
os.environ.pop('GRADER_REPORT', None)
print('erased')
"""

FORGES = """
import os, stat
for name in os.listdir('/proc/self/fd'):
    fd = int(name)
    try:
        flags = open(f'/proc/self/fdinfo/{fd}').read().split('flags:')[1].split()[0]
        if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode) and int(flags, 8) & 3 == os.O_WRONLY:
            os.write(fd, b'{"kind": "end", "detail": "nothing tried"}\\n{"kind": "imp')
    except (OSError, IndexError, ValueError):
        pass
print('forged')
"""

WHO = """
import os, json
print(json.dumps({"uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(), "groups": os.getgroups(),
                  "cwd": os.stat('.').st_uid, "home": os.stat(os.environ['HOME']).st_uid,
                  "caps": [l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff')][0]}))
"""


def _run_in_sandbox(kind: str, code: str) -> tuple[str, list[str]]:
    """Run `code` in a fresh sandboxed kernel of `kind`; its output and the flags of its report."""
    from coursetools.sandbox.manager import SandboxKernelManager

    old = os.environ.get(launcher.MODE_ENV)
    os.environ[launcher.MODE_ENV] = kind
    try:
        launcher.probe(kind)
        with tempfile.TemporaryDirectory(prefix="cg-", dir="/tmp") as ipc, \
                tempfile.TemporaryDirectory(prefix="nb-") as cwd:
            Path(cwd, "data.txt").write_text("the submission's own file\n")
            km = SandboxKernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(ipc, "kernel"))
            run_sync(km.start_kernel)(cwd=cwd)
            kc = km.client()
            kc.start_channels()
            out: list[str] = []
            try:
                run_sync(kc.wait_for_ready)(timeout=120)
                run_sync(kc.execute_interactive)(code, timeout=120, output_hook=lambda m: out.append(
                    m["content"].get("text", "") if m["msg_type"] == "stream" else ""))
            finally:
                kc.stop_channels()
                run_sync(km.shutdown_kernel)()
            flags, _usage = km.report()
            return "".join(out), flags
    finally:
        if old is None:
            os.environ.pop(launcher.MODE_ENV, None)
        else:
            os.environ[launcher.MODE_ENV] = old


SANDBOXES = ["bwrap", "podman"]


@pytest.mark.parametrize("kind", SANDBOXES)
def test_erasing_the_evidence_still_gets_flagged(kind):
    out, flags = _run_in_sandbox(kind, ERASES)
    assert "erased" in out
    assert "imported the grader's module coursetools" in flags, flags
    assert any(f.startswith("started a process 'true'") for f in flags), flags
    assert "tried to write /usr/lib/evidence-test (outside its folder: refused)" in flags, flags


@pytest.mark.parametrize("kind", SANDBOXES)
def test_forged_and_truncated_records_are_flagged(kind):
    out, flags = _run_in_sandbox(kind, FORGES)
    assert "forged" in out
    assert "wrote a forged or malformed record into its sandbox report" in flags, flags
    assert "its sandbox report ends in a record cut short" in flags, flags


@pytest.mark.parametrize("kind", SANDBOXES)
def test_the_kernel_is_an_unprivileged_user_who_owns_its_folders(kind):
    out, flags = _run_in_sandbox(kind, WHO)
    who = json.loads(out.strip().splitlines()[-1])
    expected = KERNEL_UID if os.geteuid() == 0 else os.geteuid()
    assert who["uid"] == who["euid"] == who["gid"] == expected != 0, who
    assert who["groups"] in ([], [expected]), who
    assert who["cwd"] == who["home"] == expected, who
    assert int(who["caps"], 16) == 0, who
    assert flags == [], flags
