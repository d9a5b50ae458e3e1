"""Issue 31's attacks on a shared server, as real Unix accounts, against the layout `coursetools setup-exchange` makes.

The long test plays `exchange_scenario.play` in "course" mode: the administrator runs ``coursetools
setup-exchange``, the instructor (srvteach) ``check-server`` and ``hand-out``; ann (srvann) fetches, answers and
submits with nbgrader's own commands; bob (srvbob) attacks; the instructor collects, grades and releases feedback.
``python tests/exchange_scenario.py stock /path/to/old/checkout`` plays the same on the set-up the guide described
before (docs/server.md has both tables). The short tests check the layout's checks and the collector's refusals
on folders made here.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import pwd
from pathlib import Path

import pytest

from coursetools.course.exchange_layout import Layout, exchange_problems, make_exchange
from coursetools.grading.exchange import ARRIVAL_SLACK, arrival, submission_refused

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="real accounts and owners need root")


@pytest.fixture(scope="module")
def attacks():
    from exchange_accounts import Server
    from exchange_scenario import ANN, BOB, TEACH, play

    server = Server(TEACH, [ANN, BOB])
    try:
        out = play(server, "course")
    finally:
        server.remove_accounts()
    print(json.dumps(out, indent=1))
    return out


def refused(out: dict, prefix: str) -> dict:
    rows = {k: v for k, v in out.items() if k.startswith(prefix)}
    assert rows, prefix
    return {k: v for k, v in rows.items() if ": refused" not in v}


@pytest.mark.long
@as_root
def test_every_attack_of_the_table_is_refused_or_flagged(attacks):
    # Row 1: the course's folder cannot be renamed, nor the released lab replaced; ann fetches the instructor's lab.
    assert refused(attacks, "1 bob") == {}
    assert attacks["1 ann fetches again"] == "the instructor's notebook"
    # Row 2: nbgrader lets bob submit as ann and make entries by hand; the collector refuses and flags each.
    assert attacks["2a bob: nbgrader submit --student srvann"].endswith("DONE")
    assert attacks["2a collect"].startswith("flagged 1 ") and "submitted/srvann is hers" in attacks["2a collect"]
    after = attacks["2b/2c collect"]
    assert "2099-01-01" in after and "srvbob+01_game_trees+2026-01-05" in after and "submitted/srvann is hers" in after
    assert "srvbob+01_game_trees+not a time" in after  # flagged; the collect itself went on
    assert "2099" not in after.split("timestamps")[1]  # the time kept is the server's
    # Row 3: nothing of ann's submission, cache, fetched lab or feedback is bob's to read, change or remove.
    assert refused(attacks, "3 bob") == {}
    # Row 4: the instructor's course folder, with homes 0755.
    assert "chmod 700" in attacks["check-server on the course folder as copied"]
    assert refused(attacks, "4 bob") == {}
    # Row 5: bob's Python has no hidden check; check-server refuses a students' Python that has them.
    assert "No module named 'coursetools'" in attacks["5 bob: import coursetools.checks.lab01.reference"]
    assert attacks["5 check-server as root, students' Python"].startswith("exit 0")
    assert attacks["5 check-server as root, instructor's Python as the students'"].startswith("exit 2: UNSAFE hidden")
    # The honest work: ann's answers graded in full, at the time she submitted; each fetches only their own feedback.
    grades = json.loads(attacks["grades"])
    assert grades["srvann"][0] == 10.0 and grades["srvbob"][0] == 0.0
    assert grades["srvann"][1][:4] == str(dt.datetime.now(dt.timezone.utc).year)
    assert len(attacks["feedback fetched by srvann"]) == 1 and len(attacks["feedback fetched by srvbob"]) == 1


@as_root
def test_the_layout_made_holds_and_each_weakness_is_named_with_its_fix(tmp_path):
    layout = Layout(tmp_path / "exchange", "a-course", "root")
    make_exchange(layout)
    assert exchange_problems(layout) == []
    assert oct((layout.course / "inbound").stat().st_mode & 0o7777) == "0o3733"
    layout.root.chmod(0o777)
    (layout.course / "feedback").chmod(0o755)
    nobody = pwd.getpwnam("nobody")
    os.chown(layout.course / "outbound", nobody.pw_uid, nobody.pw_gid)
    problems = "\n".join(exchange_problems(layout))
    assert f"chmod 1777 {layout.root}" in problems and "sticky bit" in problems
    assert f"chmod 711 {layout.course / 'feedback'}" in problems
    assert f"{layout.course / 'outbound'} belongs to nobody" in problems
    make_exchange(layout)  # as root it repairs all three
    assert exchange_problems(layout) == []


@as_root
def test_the_collector_refuses_what_is_not_the_named_students_or_not_of_its_time(tmp_path):
    entry = tmp_path / "root+lab+time"
    entry.mkdir()
    (entry / "a.ipynb").write_text("{}")
    seen = arrival(entry)
    assert abs((seen - dt.datetime.now(dt.timezone.utc)).total_seconds()) < 60
    assert submission_refused(entry, "root", seen, seen) is None
    assert "belongs (in part) to root" in submission_refused(entry, "nobody", seen, seen)
    assert "in the future" in submission_refused(entry, "root", seen + 2 * ARRIVAL_SLACK, seen)
    assert "earlier than" in submission_refused(entry, "root", seen - 2 * ARRIVAL_SLACK, seen)
    nobody = pwd.getpwnam("nobody")
    os.chown(entry / "a.ipynb", nobody.pw_uid, nobody.pw_gid)  # a classmate's file in the student's folder
    assert "belongs (in part) to nobody" in submission_refused(entry, "root", seen, arrival(entry))
    assert "no account" in submission_refused(Path(entry), "no-such-student-xyz", seen, seen)


@as_root
def test_check_server_names_a_readable_course_folder_and_a_students_python_with_the_checks(tmp_path):
    import sys

    from coursetools.course.server_check import (checks_importable, course_problems, make_private,
                                                 private_submit_missing)

    course = tmp_path / "course"
    (course / "submitted" / "ann").mkdir(parents=True)
    (course / "submitted" / "ann" / "lab.ipynb").write_text("{}")
    (course / "gradebook.db").write_text("")
    for path in (course, *course.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    problems = "\n".join(course_problems(course, "root"))
    assert f"`chmod 700 {course}`" in problems and f"`chmod -R go-rwx {course / 'submitted'}`" in problems
    assert f"`chmod -R go-rwx {course / 'gradebook.db'}`" in problems
    assert len(make_private(course)) == 4  # submitted/, ann/, her notebook, the gradebook
    course.chmod(0o700)
    assert course_problems(course, "root") == []
    # This checkout's Python finds the checks in a world-readable folder; Debian's own Python has none.
    import coursetools.checks

    checks = Path(coursetools.checks.__file__).resolve()
    reachable = all(p.stat().st_mode & 0o001 for p in checks.parents) and checks.stat().st_mode & 0o004
    found = checks_importable(None, sys.executable)
    assert bool(found) == bool(reachable), found
    assert not found or "readable by every account" in found
    assert checks_importable(None, "/usr/bin/python3") is None
    # As root, for real as a student account: Debian's Python has no course_lib, so submits would stay open.
    missing = private_submit_missing("nobody", "/usr/bin/python3")
    assert missing and "cannot import course_student_server.exchange" in missing
    assert checks_importable("nobody", "/usr/bin/python3") is None


def test_release_feedback_skips_a_student_without_a_submission_secret_and_releases_the_others(tmp_path):
    import hashlib
    import subprocess
    import sys

    from coursetools import tool_env

    course, exchange = tmp_path / "course", tmp_path / "exchange"
    for student, secret in (("ann", "a" * 128), ("bob", None), ("cho", "c" * 128)):
        folder = course / "feedback" / student / "lab"
        folder.mkdir(parents=True)
        (folder / "lab.html").write_text(f"<p>{student}'s page</p>")
        (folder / "timestamp.txt").write_text("2026-11-29 08:00:00.000000 UTC")
        if secret:  # bob's work came from an LMS zip: nbgrader never gave it a secret
            (folder / "submission_secret.txt").write_text(secret)
    exchange.mkdir()
    proc = subprocess.run([sys.executable, "-m", "nbgrader", "release_feedback", "lab", "--course=c",
                           f"--Exchange.root={exchange}", f"--CourseDirectory.root={course}",
                           "--ExchangeFactory.release_feedback=coursetools.grading.exchange.OpenReleaseFeedback"],
                          cwd=course, env=tool_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "NOT RELEASED bob: no submission secret" in proc.stderr
    released = sorted(p.name for p in (exchange / "c" / "feedback").iterdir())
    assert released == sorted(f"{hashlib.md5((s * 128 + 'lab').encode()).hexdigest()}.html" for s in "ac")
    assert "Releasing feedback for student 'cho'" in proc.stderr  # the students after bob too
