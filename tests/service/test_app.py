"""The self-check service over real HTTP: ``python -m coursetools serve`` in a scratch course, the real database,
and (end to end) a real worker on the real broker, called the way a student calls it (`course_lib.online`)."""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from coursetools.course.labfiles import solution_answers
from coursetools.quality.processes import free_port
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.toycourse import make_lab_course
from coursetools.service import records, tokens

ROOT = Path(__file__).resolve().parents[2]
LAB = "02_minimax"
CLOSED_LAB = "03_alphabeta"


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    from nbgrader.api import Gradebook

    folder = make_lab_course(tmp_path_factory.mktemp("serve") / "course", LAB, root=ROOT)
    shutil.copytree(ROOT / "source" / CLOSED_LAB, folder / "source" / CLOSED_LAB)
    with Gradebook("sqlite:///" + str(folder / "gradebook.db"), "adversarial-search") as gb:
        gb.update_or_create_assignment(CLOSED_LAB, duedate=datetime.datetime(2026, 1, 5, 17, 0))
    return folder


class Server:
    def __init__(self, course: Path, env: dict[str, str], log: Path, *args: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self._log = open(log, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "coursetools", "serve", "--port", str(self.port), *args],
                                     cwd=course, env={**os.environ, **env}, stdout=self._log,
                                     stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as reply:
                    if b"Self-check service" in reply.read():
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError(f"the service did not start:\n{log.read_text()}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


@pytest.fixture
def server(course, services, tmp_path, monkeypatch):
    env = {**services, records.LIMIT_ENV: "3", records.WINDOW_ENV: "600", "COURSE_SELFCHECK_MAX_KB": "512",
           records.REFUSALS_ENV: "40"}
    monkeypatch.setenv(records.LIMIT_ENV, "3")  # the records this test writes itself
    monkeypatch.setenv(records.REFUSALS_ENV, "40")
    s = Server(course, env, tmp_path / "serve.log")
    yield s
    s.stop()


def post(url: str, body: bytes | None, token: str | None, method: str = "POST") -> tuple[int, dict, dict]:
    headers = {"Content-Type": "application/x-ipynb+json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=300) as reply:
            return reply.status, json.loads(reply.read()), dict(reply.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), dict(exc.headers)


def notebook(course: Path, tmp: Path, entry: str | None, lab: str = LAB) -> Path:
    answers = solution_answers(ROOT / "source" / lab / f"{lab}.ipynb")
    if entry:
        answers.update(parse_answers((ROOT / "bank" / lab / f"{entry}.py").read_text()))
    return build_submission(ROOT / "release" / lab / f"{lab}.ipynb", answers, tmp / f"{lab}.ipynb")


def test_refusals_in_plain_words(server, course, tmp_path):
    student = f"ada-{time.time_ns()}"  # a student of this run's own: the database outlives a run
    ada = tokens.issue(LAB, [student])[student]
    closed = tokens.issue(CLOSED_LAB, [student])[student]
    expired = tokens.issue(LAB, ["old"], expires=datetime.datetime.now(datetime.timezone.utc)
                           - datetime.timedelta(days=1))["old"]
    good = notebook(course, tmp_path, None).read_bytes()
    other = notebook(course, tmp_path, None, CLOSED_LAB).read_bytes()
    url = f"{server.url}/check/{LAB}"
    cases = [
        (post(url, good, None), 401, "no token"),
        (post(url, good, "sc_" + "x" * 43), 401, "unknown token"),
        (post(url, good, expired), 401, "expired"),
        (post(f"{server.url}/check/{CLOSED_LAB}", good, ada), 403, "your token is for lab 02_minimax"),
        (post(f"{server.url}/check/99_nothing", good, ada), 404, "no lab '99_nothing'"),
        (post(f"{server.url}/check/03", good, ada), 403, "and this is lab 03_alphabeta"),  # a lab by its number
        (post(f"{server.url}/check/{CLOSED_LAB}", good, closed), 403, "deadline of 03_alphabeta has passed"),
        (post(url, b"print('not a notebook')", ada), 400, "not a notebook"),
        (post(url, other, ada), 422, "wrong lab: this notebook is lab 03_alphabeta"),
        (post(url, b"{" + b" " * (600 * 1024) + b"}", ada), 413, "too large"),
    ]
    for (status, body, _), want_status, want_text in cases:
        assert status == want_status and want_text in body["error"], (status, body)
    # a rate-limited student hears when to try again (the limit is 3 per 10 minutes here)
    for i in range(3):
        records.start(earlier := f"earlier-{i}-{time.time_ns()}", student, LAB)
        records.finish(earlier, {"cells": [], "refused": None})
    status, body, headers = post(url, good, ada)
    assert status == 429 and "try again in" in body["error"], body
    assert 0 < int({k.lower(): v for k, v in headers.items()}["retry-after"]) <= 600
    # no admin surface: only GET / and POST /check/LAB answer
    for path, method in (("/admin", "GET"), ("/tokens", "POST"), ("/check", "GET"), ("/docs", "GET")):
        request = urllib.request.Request(server.url + path, method=method, data=b"" if method == "POST" else None)
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(request, timeout=10)
        assert err.value.code in (404, 405)
    assert records.history("old", LAB) == []  # nothing refused is recorded as a check


def test_malformed_notebooks_are_refused_in_plain_words_and_counted(server, course, tmp_path):
    """Any malformed notebook is a 400 that names the problem (never a 500): nbgrader metadata of every wrong type,
    nbformat versions as numbers and as text. Each refused upload counts against the student's own limit of
    refusals (40 here); past it, the service refuses before it reads the body."""
    student = f"mal-{time.time_ns()}"
    token = tokens.issue(LAB, [student])[student]
    good = json.loads(notebook(course, tmp_path, None).read_bytes())
    url = f"{server.url}/check/{LAB}"
    wrong = ["x", 3, 2.5, True, None, [], {}]
    bodies = []
    for value in wrong[:-1]:  # an object is the right type
        nb = json.loads(json.dumps(good))
        next(c for c in nb["cells"] if "nbgrader" in c["metadata"])["metadata"]["nbgrader"] = value
        bodies.append(("nbgrader metadata", value, nb))
    right = {"grade": bool, "solution": bool, "locked": bool, "grade_id": str, "points": (int, float),
             "schema_version": int}
    for key, kind in right.items():
        for value in wrong:
            if isinstance(value, kind) and isinstance(value, bool) == (kind is bool):
                continue  # a value of the right type
            nb = json.loads(json.dumps(good))
            meta = next(c for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade"))["metadata"]
            meta["nbgrader"][key] = value
            bodies.append((f"nbgrader {key}", value, nb))
    for value in (3, 5, "4", "3", 4.0, None, True):
        nb = json.loads(json.dumps(good))
        nb["nbformat"] = value
        bodies.append(("nbformat", value, nb))
    for value in ("x", 3, [1], None):
        nb = json.loads(json.dumps(good))
        nb["cells"][1] = value if value != [1] else {"cell_type": "code", "source": [1], "metadata": {}}
        bodies.append(("cell", value, nb))
    assert len(bodies) > 40
    for what, value, nb in bodies[:40]:
        status, body, _ = post(url, json.dumps(nb).encode(), token)
        assert status == 400, (what, value, status, body)
        assert body["error"].startswith("this is not a valid notebook: ") and "Traceback" not in body["error"]
    # the 41st refused upload of this student: refused before its body is read, with when to try again
    status, body, headers = post(url, json.dumps(bodies[40][2]).encode(), token)
    assert status == 429 and "too many uploads refused" in body["error"], body
    assert 0 < int({k.lower(): v for k, v in headers.items()}["retry-after"]) <= 600
    assert records.history(student, LAB) == []  # nothing refused is a check


def test_one_check_in_flight_and_an_answer_kept_for_its_token(server, course, tmp_path):
    """A student with a check in flight gets a plain 429 naming it; its answer, stored after its request gave up,
    is read with the same token (GET /check/ID), and by nobody else."""
    student, other = f"fly-{time.time_ns()}", f"other-{time.time_ns()}"
    issued = tokens.issue(LAB, [student, other])
    good = notebook(course, tmp_path, None).read_bytes()
    check_id = f"inflight-{time.time_ns()}"
    records.start(check_id, student, LAB)
    status, body, headers = post(f"{server.url}/check/{LAB}", good, issued[student])
    assert status == 429 and body["check_id"] == check_id and "still running" in body["error"], body
    assert "retry-after" in {k.lower() for k in headers}
    url = f"{server.url}/check/{check_id}"
    status, body, _ = post(url, None, issued[student], "GET")
    assert status == 202 and body["status"] == "waiting", body
    assert post(url, None, issued[other], "GET")[0] == 404  # another student's check: none of theirs
    assert post(url, None, None, "GET")[0] == 401
    from coursetools.service import answers

    answer = {"check_id": check_id, "lab": LAB, "student": student, "cells": [], "refused": None}
    answers.store_answer(check_id, answer)
    records.finish(check_id, answer)
    status, body, _ = post(url, None, issued[student], "GET")
    assert status == 200 and body == {**answer, "practice": False}, body
    assert records.record_of(check_id, student)["answered_at"] is not None
