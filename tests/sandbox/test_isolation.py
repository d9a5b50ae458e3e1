"""Isolated grading: a class of lab 03 where cunning students sit beside honest ones (real nbgrader, real bwrap).

Each attacker hands in a few lines that, before isolated grading, took full marks or changed other
students' grades (the table of the isolated-grading issue). Here each earns only what its algorithm
earns, the honest students' scores and files do not move, nothing of a submission outlives its
grading, the secret seed and the hidden tests never reach feedback, and the summary names who tried.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import psutil
import pytest
from nbgrader.api import Gradebook

from coursetools import course_root, tool_env
from coursetools.quality.bank import solution_answers
from coursetools.grading.autograde import grade
from coursetools.course.leakcheck import find_leaks, private_lines
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.toycourse import make_lab_course, remove_course

LAB = "03_alphabeta"
SEED = "isolation-seed-31337"
MARKER = "isolation-test-outliver"
ROOT = course_root()
SITE = Path(sysconfig.get_paths()["purelib"])
CHECKS = ROOT / "instructor" / "coursetools" / "checks" / "lab03" / "groups.py"

NO_ALGORITHM = """
def alphabeta_value(game, state, alpha=-math.inf, beta=math.inf):
    return ref.alphabeta_value(game, state, alpha, beta)

def alphabeta_decision(game, state):
    return ref.alphabeta_decision(game, state)
"""

ATTACKS = {
    # import the grader's reference search (its name built from pieces) and return its answers
    "uses_the_reference": ("none", "import importlib, math\ntry:\n    ref = importlib.import_module('course' + 'tools.'"
                           " + 'checks.reference')\nexcept ImportError:\n    ref = None\n" + NO_ALGORITHM),
    # find the lab's source next to the submission and run its solution cells
    "execs_the_source": ("none", "import json, os\nfor k in range(1, 12):\n"
                         "    path = '../' * k + 'source/03_alphabeta/03_alphabeta.ipynb'\n"
                         "    if os.path.exists(path):\n"
                         "        for cell in json.load(open(path))['cells']:\n"
                         "            if 'BEGIN SOLUTION' in ''.join(cell['source']):\n"
                         "                exec(''.join(cell['source']))\n"),
    # make every later cell 'pass', so that the test cells stay silent
    "silences_later_cells": ("none", "get_ipython().input_transformers_post.append(lambda lines: ['pass\\n'])\n"
                             "import sys\nsys.excepthook = lambda *a: None\n"),
    # a buggy search that also writes to the gradebook, another student, the checks and the venv
    "writes_everywhere": ("fail_hard", "for path, text in [({gradebook!r}, 'x'), ({other!r}, '{{}}'), ({checks!r}, '#'),"
                          " ({pth!r}, 'import os')]:\n    try:\n        open(path, 'a').write(text)\n"
                          "    except OSError as exc:\n        print('refused:', exc)\n"),
    # a process in a session of its own that would change the gradebook long after grading
    "outlives_its_kernel": ("solution", "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', "
                            "'import time; time.sleep(60)', '" + MARKER + "'], start_new_session=True)\n"),
    # look for other kernels' connection files and send them code
    "reaches_other_kernels": ("solution", "import glob, json\nfound = [p for p in glob.glob('/tmp/**/*.json', "
                              "recursive=True)]\nprint('connection files seen:', len(found))\n"),
    # print the secret seed and the checks' source into the output (and so into feedback)
    "prints_secrets": ("fail_hard", "import os\nprint('SEED=', os.environ.get('COURSE_SECRET_SEED'))\ntry:\n"
                       "    print(open({checks!r}).read())\nexcept OSError as exc:\n    print('refused:', exc)\n"),
    # long tracebacks, hoping they quote the hidden tests
    "verbose_tracebacks": ("fail_hard", "get_ipython().run_line_magic('xmode', 'Verbose')\n"),
}
# The sandbox's own round-2 attacks (evidence, whole-sandbox caps, root inside), kept apart from the others.
MEMORY_CAP_MB = 3072  # the default cap of a whole sandbox (COURSE_KERNEL_MEMORY_MB)
SANDBOX_ATTACKS = {
    # import the grader, start a process, write to /usr, then erase every report file it can find
    "erases_its_evidence": ("solution", "import glob, os, subprocess\ntry:\n    import coursetools.grading\n"
                            "except ImportError:\n    pass\nsubprocess.run(['true'])\ntry:\n"
                            "    open('/usr/lib/erase-test', 'w')\nexcept OSError:\n    pass\n"
                            "for path in glob.glob('/tmp/**/report-*', recursive=True):\n    os.unlink(path)\n"),
    # write a forged 'nothing tried' record and a record cut short into every pipe it may write to
    "forges_its_report": ("solution", "import os, stat\nfor name in os.listdir('/proc/self/fd'):\n    fd = int(name)\n"
                          "    try:\n        info = open('/proc/self/fdinfo/%d' % fd).read()\n"
                          "        flags = info.split('flags:')[1].split()[0]\n"
                          "        if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode) and int(flags, 8) & 3 == 1:\n"
                          "            os.write(fd, b'{{\"kind\": \"end\", \"detail\": \"clean\"}}\\n{{\"kind\": \"imp')\n"
                          "    except (OSError, IndexError, ValueError):\n        pass\n"),
    # four children of 1.2 GB each, then 1 GB into /tmp and 1 GB into the work folder
    "memory_fork_bomb": ("solution", "import subprocess, sys\nhogs = [subprocess.Popen([sys.executable, '-S', '-c', "
                         "'import time; x = bytearray(1200 * 2**20); time.sleep(3)']) for _ in range(4)]\n"
                         "for hog in hogs:\n    hog.wait()\nfor folder in ('/tmp', '.'):\n    for k in range(5):\n"
                         "        try:\n            with open('%s/ballast-%d' % (folder, k), 'wb') as f:\n"
                         "                for _ in range(205):\n                    f.write(bytes(2**20))\n"
                         "        except OSError as exc:\n            print('refused:', exc)\n"),
    # the kernel's user (root of the host before)
    "checks_its_uid": ("solution", "import os\nprint('KERNEL-UID', os.getuid(), os.geteuid(), os.stat('.').st_uid)\n"),
}
SANDBOX_FLAGGED = {"erases_its_evidence": ["imported the grader's module", "started a process", "tried to write"],
                   "forges_its_report": ["forged or malformed record", "cut short"],
                   "memory_fork_bomb": ["started a process"]}
# Intake attacks (issue 22): entries beside the notebook that are links or FIFOs, escapes in names, and a channel
# frame too deep to decode. Each: (base, extra code, {name in the submission folder: link target, or None for a
# FIFO}). Intake copies no link and no FIFO: each is left out and flagged, and nobody else is held up.
PATCH_THE_CHANNEL = (  # once the channel's module is in the kernel, its greetings and replies become deep frames
    "import sys as _sys\n_searched, _seen = alphabeta_value, [0]\n\n"
    "def _patch_the_channel():\n    if len(_sys.modules) == _seen[0]:\n        return\n"
    "    _seen[0] = len(_sys.modules)\n"
    "    for name, module in list(_sys.modules.items()):\n"
    "        if name.startswith('_grader_channel') and not getattr(module, 'patched', False):\n"
    "            module.patched, send = True, module.KernelPeer.send\n\n"
    "            def deep(self, msg, send=send):\n                if msg.get('op') not in ('hello', 'ok'):\n"
    "                    return send(self, msg)\n                data = b'[' * 100000 + b']' * 100000\n"
    "                self.sock.sendall(len(data).to_bytes(4, 'big') + data)\n"
    "            module.KernelPeer.send = deep\n\n"
    "def alphabeta_value(game, state, alpha=float('-inf'), beta=float('inf')):\n    _patch_the_channel()\n"
    "    return _searched(game, state, alpha, beta)\n")
INTAKE_ATTACKS = {
    # a link to the lab's source notebook, named like a data file, and a cell that runs the solutions it holds
    "intake_links_to_the_source": ("none", "import json, os\nfor name in sorted(os.listdir('.')):\n"
                                   "    try:\n        cells = json.load(open(name))['cells']\n"
                                   "    except Exception:\n        continue\n    for cell in cells:\n"
                                   "        if 'BEGIN SOLUTION' in ''.join(cell['source']):\n"
                                   "            exec(''.join(cell['source']))\n",
                                   {"notes.json": "../../../source/03_alphabeta/03_alphabeta.ipynb"}),
    # links to the grader's environment (read as the instructor while copying) and to the hidden checks
    "intake_links_to_secrets": ("fail_hard", "for name in ('environ', 'checks/groups.py'):\n    try:\n"
                                "        print(name, open(name).read()[:20000])\n"
                                "    except OSError as exc:\n        print('refused:', exc)\n",
                                {"environ": "/proc/self/environ", "checks": str(CHECKS.parent)}),
    # a dangling link and a FIFO: before, nobody in the class was graded
    "intake_dangling_link": ("solution", "", {"notes.txt": "/home/student/notes.txt", "pipe": None}),
    # terminal escapes (clear screen, window title, colour, bidi override) in a path it writes and in a link's name
    "intake_escapes_in_names": ("solution", "try:\n    open('/usr/\\x1b]0;owned\\x07\\x1b[2J\\x1b[31mred\\u202e', 'w')\n"
                                "except OSError as exc:\n    print('refused:', type(exc).__name__)\n",
                                {"notes\x1b[2J\x1b]0;owned\x07.txt": "/etc/hostname"}),
    # a reply frame of 100,000 nested lists, written straight on the check channel's socket
    "intake_deep_frame": ("solution", PATCH_THE_CHANNEL, {}),
}
HONEST = {"honest_perfect": "solution", "honest_bug": "fail_hard", "honest_debug": "debug"}
EXPECTED = {"uses_the_reference": 0, "execs_the_source": 0, "silences_later_cells": 0, "writes_everywhere": 9,
            "outlives_its_kernel": 10, "reaches_other_kernels": 10, "prints_secrets": 9, "verbose_tracebacks": 9,
            "honest_perfect": 10, "honest_bug": 9, "honest_debug": 10,
            "erases_its_evidence": 10, "forges_its_report": 10, "memory_fork_bomb": 10, "checks_its_uid": 10,
            # no algorithm: 0; the rest earn what their algorithm earns; the deep frame fails the hidden checks after
            # the cell that patches the channel (decision 2, decision_pruning 1): its algorithm is right
            "intake_links_to_the_source": 0, "intake_links_to_secrets": 9, "intake_dangling_link": 10,
            "intake_escapes_in_names": 10, "intake_deep_frame": 7}
FLAGGED = {"uses_the_reference": "imported the grader's module", "writes_everywhere": "tried to write",
           "outlives_its_kernel": "started a process",
           "intake_links_to_the_source": "a symlink notes.json -> ../../../source/03_alphabeta/03_alphabeta.ipynb",
           "intake_links_to_secrets": "a symlink environ -> /proc/self/environ",
           "intake_dangling_link": "a symlink notes.txt -> /home/student/notes.txt",
           "intake_escapes_in_names": "a symlink notes\\x1b[2J\\x1b]0;owned\\x07.txt -> /etc/hostname",
           "intake_deep_frame": "nested too deeply"}


def _answers(base: str, extra: str, paths: dict[str, str]) -> dict[str, str]:
    answers = solution_answers(ROOT / "source" / LAB / f"{LAB}.ipynb")
    if base == "fail_hard":
        answers.update(parse_answers((ROOT / "bank" / LAB / "fail_hard.py").read_text()))
    if base == "none":
        answers["alphabeta_value"] = extra
        answers["alphabeta_decision"] = "pass\n"
        return answers
    if base == "debug":
        extra = ("import sys, logging\n_searched = alphabeta_value\n\n"
                 "def alphabeta_value(game, state, alpha=float('-inf'), beta=float('inf')):\n"
                 "    print('debug: searching', state, file=sys.stderr)\n    logging.warning('still searching')\n"
                 "    return _searched(game, state, alpha, beta)\n")
    answers["alphabeta_decision"] = answers["alphabeta_decision"].rstrip() + "\n\n" + extra.format(**paths)
    return answers


def _available_mb() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no MemAvailable in /proc/meminfo")


@contextmanager
def _lowest_available_memory() -> Iterator[dict[str, int]]:
    """The host's available memory before, and its lowest while the block runs (sampled every 0.1 s)."""
    seen = {"before": _available_mb(), "lowest": _available_mb()}
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.1):
            seen["lowest"] = min(seen["lowest"], _available_mb())

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        done.set()
        thread.join()


def _digest(folder: Path) -> dict[str, str]:
    """Each file's checksum, each link's target and each FIFO, by path (nothing followed)."""
    found = {}
    for p in sorted(folder.rglob("*")):
        if "__pycache__" in p.parts:
            continue
        if p.is_symlink():
            found[str(p.relative_to(folder))] = "-> " + os.readlink(p)
        elif p.is_fifo():
            found[str(p.relative_to(folder))] = "fifo"
        elif p.is_file():
            found[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return found


def _plant(folder: Path, entries: dict[str, str | None]) -> None:
    for name, target in entries.items():
        if target is None:
            os.mkfifo(folder / name)
        else:
            (folder / name).symlink_to(target)


@pytest.fixture(scope="module", params=["bwrap", "podman"])
def graded(request, tmp_path_factory):
    """The class graded in each kind of sandbox: bubblewrap (the default) and a podman container."""
    course = make_lab_course(tmp_path_factory.mktemp(f"isolation-{request.param}") / "course", LAB)
    release = course / "release" / LAB / f"{LAB}.ipynb"
    paths = {"gradebook": str(course / "gradebook.db"), "checks": str(CHECKS), "pth": str(SITE / "zz_attack.pth"),
             "other": str(course / "submitted" / "honest_perfect" / LAB / f"{LAB}.ipynb")}
    for student, base in HONEST.items():
        build_submission(release, _answers(base, "", paths), course / "submitted" / student / LAB / f"{LAB}.ipynb")
    for student, (base, extra) in {**ATTACKS, **SANDBOX_ATTACKS}.items():
        build_submission(release, _answers(base, extra, paths), course / "submitted" / student / LAB / f"{LAB}.ipynb")
    for student, (base, extra, entries) in INTAKE_ATTACKS.items():
        build_submission(release, _answers(base, extra, paths), course / "submitted" / student / LAB / f"{LAB}.ipynb")
        _plant(course / "submitted" / student / LAB, entries)
    before = {"submitted": _digest(course / "submitted"), "source": _digest(course / "source"),
              "instructor": _digest(ROOT / "instructor"), "site": sorted(p.name for p in SITE.iterdir())}
    with pytest.MonkeyPatch.context() as mp, _lowest_available_memory() as memory:
        mp.setenv("COURSE_SECRET_SEED", SEED)
        mp.setenv("COURSE_DB_URL", "sqlite:///" + str(course / "gradebook.db"))
        mp.setenv("COURSE_KERNEL_MEMORY_MB", str(MEMORY_CAP_MB))
        report = grade(course, LAB, jobs=2, progress=None, sandbox=request.param)
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", LAB, "--log-level=WARN",
                           f"--CourseDirectory.db_url=sqlite:///{course / 'gradebook.db'}"],
                          cwd=course, env=tool_env(), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), "adversarial-search") as gb:
        scores = {s.student_id: s.score for s in gb.assignment_submissions(LAB)}
    yield {"course": course, "report": report, "scores": scores, "before": before, "sandbox": request.param,
           "memory": memory}
    remove_course(course)


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_isolation_each_student_earns_what_its_algorithm_earns(graded, student):
    assert graded["scores"].get(student) == EXPECTED[student], graded["report"].summary()


def test_isolation_nothing_outside_a_submission_changed(graded):
    course, before = graded["course"], graded["before"]
    assert _digest(course / "submitted") == before["submitted"], "submitted/ changed"
    assert _digest(course / "source") == before["source"], "source/ changed"
    assert _digest(ROOT / "instructor") == before["instructor"], "the grader's own files changed"
    assert sorted(p.name for p in SITE.iterdir()) == before["site"], "something was written into the venv"


def test_isolation_no_process_of_a_submission_remains(graded):
    time.sleep(1)
    left = [p.info for p in psutil.process_iter(["pid", "cmdline"]) if MARKER in " ".join(p.info["cmdline"] or [])]
    assert left == []
    if graded["sandbox"] == "podman":  # and no container of the grading is left, running or stopped
        from coursetools.sandbox.launcher import LABEL, engine_args

        shown = '{{.Names}} {{index .Labels "%s"}}' % LABEL
        ps = subprocess.run(["podman", *engine_args(), "ps", "-a", "--format", shown, "--filter", f"label={LABEL}"],
                            capture_output=True, text=True)
        assert ps.returncode == 0, ps.stderr
        # this class's containers only (labelled with its shards' folders): other gradings may run beside it
        ours = [line for line in ps.stdout.splitlines() if str(graded["course"]) in line]
        assert ours == [], ps.stdout


def test_isolation_the_summary_names_who_tried(graded):
    summary = graded["report"].summary()
    for student, words in FLAGGED.items():
        assert f"FLAGGED {student}:" in summary, summary
        assert words in summary.split(f"FLAGGED {student}:")[1].split("\n")[0], summary
    for student in HONEST:
        assert f"FLAGGED {student}:" not in summary, summary


def test_isolation_feedback_holds_no_secret_and_no_hidden_test(graded):
    course = graded["course"]
    hidden = private_lines(course / "source" / LAB / f"{LAB}.ipynb", kinds=("hidden",))
    check_lines = [line for line in CHECKS.read_text().splitlines()
                   if line.strip().startswith(("def ", "for ", "if ", "return ")) and len(line.strip()) > 25]
    assert hidden and check_lines
    for student in ("prints_secrets", "verbose_tracebacks", "honest_bug"):
        folder = course / "feedback" / student / LAB
        html = (folder / f"{LAB}.html").read_text()
        assert SEED not in html, student
        assert find_leaks(folder, hidden) == [], student
        assert not [line for line in check_lines if line.strip() in html], student
    assert "fail-soft" in (course / "feedback" / "honest_bug" / LAB / f"{LAB}.html").read_text()


# -- the sandbox's round-2 attacks: evidence it cannot erase, caps on the whole sandbox, no root inside ----------

def test_isolation_erased_or_forged_evidence_is_still_flagged(graded):
    summary = graded["report"].summary()
    for student, words in SANDBOX_FLAGGED.items():
        assert f"FLAGGED {student}:" in summary, summary
        line = summary.split(f"FLAGGED {student}:")[1].split("\n")[0]
        for word in words:
            assert word in line, (student, word, summary)
    assert "FLAGGED checks_its_uid:" not in summary, summary


def test_isolation_memory_is_capped_for_the_whole_sandbox(graded):
    """4 x 1.2 GB children, 1 GB in /tmp and 1 GB in the work folder: the sandbox stays under its cap, the host
    loses no more than that (with 1.5 GB of room for the rest of the class, graded beside it: two shards and a
    kernel), the submission is graded. Uncapped, the same attack took 4.9 GB of the host."""
    result = graded["report"].results["memory_fork_bomb"]
    assert result.status == "graded" and graded["scores"]["memory_fork_bomb"] == EXPECTED["memory_fork_bomb"]
    drop = graded["memory"]["before"] - graded["memory"]["lowest"]
    assert drop <= MEMORY_CAP_MB + 1536, f"the host's available memory fell by {drop} MB"
    text = (graded["course"] / "autograded" / "memory_fork_bomb" / LAB / f"{LAB}.ipynb").read_text()
    assert "No space left on device" in text, "the tmpfs folders have a size"
    if graded["sandbox"] == "bwrap":  # the grader's own cgroup, and its counters (podman keeps its container's)
        note = next((n for n in result.notes if "memory cap" in n), None)
        assert note is not None, result.notes
        numbers = re.search(r"cap of (\d+) MB \(peak (\d+) MB; (\d+) allocations refused; (\d+) processes ended", note)
        assert numbers, note
        cap, peak, refused, killed = map(int, numbers.groups())
        assert cap == MEMORY_CAP_MB and MEMORY_CAP_MB - 64 <= peak <= MEMORY_CAP_MB, note
        assert refused + killed >= 1, note


def test_isolation_the_kernel_is_not_root(graded):
    text = (graded["course"] / "autograded" / "checks_its_uid" / LAB / f"{LAB}.ipynb").read_text()
    found = re.search(r"KERNEL-UID (\d+) (\d+) (\d+)", text)
    assert found, "the kernel printed its user"
    uid, euid, owner = map(int, found.groups())
    assert uid == euid == owner != 0


def test_isolation_intake_follows_no_link(graded):
    """Nothing a link points to reaches a kernel or autograded/: not the grader's environment, not the checks."""
    course = graded["course"]
    for student, (_, _, entries) in INTAKE_ATTACKS.items():
        out = course / "autograded" / student / LAB
        assert (out / f"{LAB}.ipynb").is_file(), graded["report"].summary()
        assert not [name for name in entries if os.path.lexists(out / name)], student
    text = "\n".join(p.read_text(errors="replace") for p in (course / "autograded").rglob("*") if p.is_file())
    assert SEED not in text and "COURSE_DB_URL" not in text
    secrets_out = "\n".join(p.read_text(errors="replace")
                            for p in (course / "autograded" / "intake_links_to_secrets").rglob("*") if p.is_file())
    own = (course / "submitted" / "intake_links_to_secrets" / LAB / f"{LAB}.ipynb").read_text()  # its own code's lines
    assert not [line for line in CHECKS.read_text().splitlines() if len(line.strip()) > 25
                and line.strip().startswith(("def ", "for ", "if ", "return ")) and line.strip() in secrets_out
                and line.strip() not in own]
    out = (course / "autograded" / "intake_links_to_secrets" / LAB / f"{LAB}.ipynb").read_text()
    assert "refused:" in out and "No such file" in out


def test_isolation_no_escape_byte_reaches_the_summary(graded):
    summary = graded["report"].summary()
    assert not [ch for ch in summary if ch != "\n" and not ch.isprintable()], repr(summary)
    line = summary.split("FLAGGED intake_escapes_in_names:")[1].split("\n")[0]
    assert "\\x1b]0;owned\\x07" in line and "\\x1b[2J" in line, line


def test_isolation_a_broken_frame_fails_its_check_only(graded):
    """The deep frame: graded (a gradebook row), its channel checks failed, flagged; the others unaffected."""
    result = graded["report"].results["intake_deep_frame"]
    assert result.status == "graded" and result.score == EXPECTED["intake_deep_frame"], graded["report"].summary()
    assert any("nested too deeply" in f for f in result.flags), result.flags
