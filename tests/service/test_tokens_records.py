"""Tokens (hashed, one per student and lab), check records, the rate limit and the deadline policy, against the
real PostgreSQL of the service (the `services` fixture)."""

from __future__ import annotations

import csv
import datetime
import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from coursetools.service import records, tokens

ROOT = Path(__file__).resolve().parents[2]
UTC = datetime.timezone.utc


def lab_name() -> str:
    """A lab name of this test's own, so tests sharing the database never meet."""
    return f"lab-{uuid.uuid4().hex[:8]}"


def test_tokens_are_stored_hashed_and_name_one_student_and_lab(services):
    lab = lab_name()
    issued = tokens.issue(lab, ["ada", "bob"])
    assert set(issued) == {"ada", "bob"} and issued["ada"] != issued["bob"]
    with tokens.connect() as conn:
        stored = [r[0] for r in conn.execute("SELECT digest FROM selfcheck_tokens WHERE lab = %s", (lab,))]
        text = " ".join(str(r) for r in conn.execute("SELECT * FROM selfcheck_tokens WHERE lab = %s", (lab,)))
    assert sorted(stored) == sorted(tokens.digest(t) for t in issued.values())
    assert not any(t in text for t in issued.values())
    assert tokens.holder(issued["ada"]) == tokens.Holder("ada", lab)
    assert tokens.holder(issued["bob"]) == tokens.Holder("bob", lab)
    with pytest.raises(tokens.TokenError, match="unknown token"):
        tokens.holder(issued["ada"][:-2] + "xx")
    with pytest.raises(tokens.TokenError, match="not one of this course's tokens"):
        tokens.holder("hello")
    with pytest.raises(tokens.TokenError, match="no token"):
        tokens.holder(None)
    again = tokens.issue(lab, ["ada"])
    assert tokens.holder(again["ada"]).student == "ada"
    with pytest.raises(tokens.TokenError, match="replaced by a newer one"):
        tokens.holder(issued["ada"])
    old = tokens.issue(lab, ["cy"], expires=datetime.datetime.now(UTC) - datetime.timedelta(minutes=1))
    with pytest.raises(tokens.TokenError, match="expired"):
        tokens.holder(old["cy"])
    with pytest.raises(ValueError, match="not a valid student id"):
        tokens.issue(lab, ["../etc"])


def test_tokens_command_writes_one_token_per_student(services, tmp_path):
    students = tmp_path / "students.csv"
    students.write_text("student,name\nada,Ada L.\nbob,Bob\n\n# a comment\nada,Ada again\n")
    out = tmp_path / "tokens.csv"
    proc = subprocess.run([sys.executable, "-m", "coursetools", "tokens", "02_minimax", "--students", str(students),
                           "--out", str(out), "--days", "30"], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **services})
    assert proc.returncode == 0, proc.stderr
    assert "2 tokens for 02_minimax" in proc.stdout and "expire" in proc.stdout
    assert out.stat().st_mode & 0o777 == 0o600
    rows = list(csv.DictReader(out.open()))
    assert [r["student"] for r in rows] == ["ada", "bob"]
    assert tokens.holder(rows[1]["token"]) == tokens.Holder("bob", "02_minimax")
    bad = subprocess.run([sys.executable, "-m", "coursetools", "tokens", "99_none", "--students", str(students),
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True, env={**os.environ, **services})
    assert bad.returncode == 2 and "no lab '99_none'" in bad.stderr


def test_rate_limit_per_student_and_lab_holds_under_a_burst(services, monkeypatch):
    """A burst of one student's checks: one is accepted, the others wait for it (one check in flight per
    student, on any lab); answered one after the other, the rate limit per lab stops the fourth."""
    lab = lab_name()
    monkeypatch.setenv(records.LIMIT_ENV, "3")
    monkeypatch.setenv(records.WINDOW_ENV, "120")
    accepted, busy, limited = [], [], []

    def one(i: int, answer: bool = False) -> None:
        try:
            records.start(f"c-{lab}-{i}", "ada", lab)
            accepted.append(i)
        except records.RateLimited as exc:
            limited.append(exc)
        except records.Busy as exc:
            busy.append(exc)
            return
        if answer:
            records.finish(f"c-{lab}-{i}", {"cells": [], "refused": None})

    threads = [threading.Thread(target=one, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(accepted) == 1 and len(busy) == 7 and not limited
    assert all(e.check_id == f"c-{lab}-{accepted[0]}" and "still running" in str(e) for e in busy)
    with pytest.raises(records.Busy):  # on another lab too
        records.start(f"c-{lab}-other", "ada", lab + "-b")
    records.start(f"c-{lab}-bob", "bob", lab)  # another student goes on
    records.finish(f"c-{lab}-{accepted[0]}", {"cells": [], "refused": None})
    for i in range(8, 12):
        one(i, answer=True)
    assert len(accepted) == 3 and len(limited) == 2
    assert all(0 < e.retry_after <= 120 for e in limited)
    assert "3 checks of this lab per 2 minutes" in str(limited[0]) and "try again in" in str(limited[0])
    records.start(f"c-{lab}-other", "ada", lab + "-b")  # the same student on another lab goes on
    for check_id in (f"c-{lab}-other", f"c-{lab}-bob"):
        records.finish(check_id, {"cells": [], "refused": None})
    assert len(records.history("ada", lab)) == 3


def test_every_check_is_recorded_and_counted_until_it_passed(services, tmp_path):
    lab = lab_name()

    def check(student: str, verdicts: list[str], practice: bool = False) -> None:
        check_id = f"c-{uuid.uuid4().hex}"
        records.start(check_id, student, lab, practice)
        answer = {"cells": [{"cell": f"test_{i}", "verdict": v} for i, v in enumerate(verdicts)], "refused": None}
        records.finish(check_id, answer)
        records.finish(check_id, {"cells": [], "refused": "a second answer is ignored"})

    check("ada", ["failed", "passed"])
    check("ada", ["failed", "failed"])
    check("ada", ["passed", "passed"])
    check("ada", ["passed", "passed"])
    check("bob", ["passed", "passed"])
    check("cy", ["failed", "passed"])
    check("cy", ["passed", "passed"], practice=True)  # after the deadline: not counted
    counts = records.checks_to_pass(lab)
    assert counts == {"ada": (4, 3), "bob": (1, 1), "cy": (1, None)}
    out, line = records.write_checks_report(tmp_path, lab)
    assert list(csv.reader(out.open())) == [["student", "checks", "checks_until_all_passed"], ["ada", "4", "3"],
                                            ["bob", "1", "1"], ["cy", "1", ""]]
    assert line == (f"self-checks of {lab}: 3 students checked, 2 passed every test cell in a check, after a median "
                    "of 2 checks (most: 3)")
    assert records.write_checks_report(tmp_path, lab + "-none") is None
    first = records.history("ada", lab)[0]
    assert first["cells"] == {"test_0": "failed", "test_1": "passed"} and first["passed"] is False
    assert first["at"] is not None and first["refused"] is None


def test_deadline_policy_closed_or_practice(tmp_path):
    from nbgrader.api import Gradebook

    from coursetools.quality.toycourse import make_lab_course

    course = make_lab_course(tmp_path / "course", "01_game_trees", root=ROOT)
    policy = records.Policy("closed", practice_labs=frozenset({"01_game_trees"}))
    assert records.practice_after_deadline(course, "01_game_trees", records.Policy()) is False  # no due date
    due = datetime.datetime(2026, 12, 4, 17, 0)
    with Gradebook("sqlite:///" + str(course / "gradebook.db"), "adversarial-search") as gb:
        gb.update_or_create_assignment("01_game_trees", duedate=due)
    before, after = datetime.datetime(2026, 12, 4, 16, 59, tzinfo=UTC), datetime.datetime(2026, 12, 5, tzinfo=UTC)
    assert records.practice_after_deadline(course, "01_game_trees", records.Policy(), before) is False
    with pytest.raises(records.Closed, match="deadline of 01_game_trees has passed .2026-12-04 17:00 UTC"):
        records.practice_after_deadline(course, "01_game_trees", records.Policy(), after)
    assert records.practice_after_deadline(course, "01_game_trees", policy, after) is True
    assert records.practice_after_deadline(course, "01_game_trees", records.Policy("practice"), after) is True
