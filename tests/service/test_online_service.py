"""End to end over real HTTP: ``coursetools serve`` and a real worker on the real broker and database; the student's
call, `course_lib.check_online()`, made from a real kernel started for the notebook file as JupyterLab starts it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from jupyter_client.manager import start_new_kernel

from coursetools.service import answers, records, tokens

from test_app import LAB, Server, course, notebook  # noqa: F401 - `course` is a fixture

ROOT = Path(__file__).resolve().parents[2]


def run(kc, code: str) -> tuple[str, list[dict]]:
    """Run `code` in the kernel; what it printed or displayed, and its errors."""
    text, errors = [], []

    def hook(msg: dict) -> None:
        if msg["msg_type"] == "stream":
            text.append(msg["content"]["text"])
        elif msg["msg_type"] in ("execute_result", "display_data"):
            text.append(msg["content"]["data"].get("text/plain", ""))
        elif msg["msg_type"] == "error":
            errors.append(msg["content"])

    kc.execute_interactive(code, output_hook=hook, timeout=600)
    return "".join(text), errors


@pytest.fixture
def service(course, services, start_worker, tmp_path):  # noqa: F811
    start_worker(course)
    s = Server(course, {**services, records.LIMIT_ENV: "2", records.WINDOW_ENV: "600"}, tmp_path / "serve.log")
    yield s
    s.stop()


def test_a_student_checks_from_a_kernel(service, course, tmp_path):  # noqa: F811
    student = "ada"
    token = tokens.issue(LAB, [student])[student]
    folder = tmp_path / "student"
    folder.mkdir()
    path = notebook(course, folder, "value_not_alternating")
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    km, kc = start_new_kernel(kernel_name="python3", cwd=str(folder),
                              env={**os.environ, "JPY_SESSION_NAME": str(path), "COURSE_CHECK_URL": service.url,
                                   "COURSE_CHECK_TOKEN": token})
    try:
        shown, errors = run(kc, "import course_lib\nanswer = course_lib.check_online()\nprint(answer['check_id'])\n"
                                "answer")
        assert not errors, errors
        check_id, shown = shown.split("\n", 1)
        assert shown.startswith("02_minimax: 7 of 8 test cells passed, 10 of 13 points (a check, not your grade)")
        assert "test_value" in shown and "FAILED" in shown and "players not alternating" in shown
        shown, errors = run(kc, "course_lib.check_online()")  # the second of two allowed
        assert not errors and "7 of 8 test cells passed" in shown
        _, errors = run(kc, "course_lib.check_online()")
        assert len(errors) == 1 and errors[0]["traceback"][0].startswith("check_online: rate limit reached: 2 checks")
        assert "try again in" in errors[0]["traceback"][0]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # the notebook was never written
    assert answers.answer_count(check_id) == 1
    history = records.history(student, LAB)
    assert [h["passed"] for h in history] == [False, False] and history[0]["cells"]["test_value"] == "failed"
    assert records.checks_to_pass(LAB)[student] == (2, None)
    # the perfect notebook of another student passes everything
    bob = tokens.issue(LAB, ["bob"])["bob"]
    from course_lib.online import check_online

    perfect = check_online(LAB, path=notebook(course, tmp_path, None), url=service.url, token=bob)
    assert perfect["cells"] and all(c["verdict"] == "passed" for c in perfect["cells"]), perfect
    assert records.checks_to_pass(LAB)["bob"] == (1, 1)
    assert not (course / "submitted").exists() and not (course / "autograded").exists()  # no grade anywhere


@pytest.mark.long
def test_a_check_answered_after_the_services_wait_is_fetched_by_check_online(course, services, start_worker,  # noqa: F811
                                                                            tmp_path):
    """The service waits 1 s only (504, its check goes on): check_online asks for the answer by its id until it is
    there, and `check_online(check_id=...)` reads it again later; the check ran once."""
    from course_lib.online import CheckOnlineError, check_online

    start_worker(course)
    server = Server(course, {**services, records.LIMIT_ENV: "2"}, tmp_path / "serve.log", "--timeout", "1")
    try:
        token = tokens.issue(LAB, ["cyd"])["cyd"]
        answer = check_online(LAB, path=notebook(course, tmp_path, None), url=server.url, token=token)
        assert answer["cells"] and all(c["verdict"] == "passed" for c in answer["cells"]), answer
        served = server.log_path.read_text().splitlines()  # the service gave up first, then answered by id
        assert any("POST /check/" in line and " 504" in line for line in served), served[-20:]
        assert any(f"GET /check/{answer['check_id']}" in line and " 200" in line for line in served), served[-20:]
        again = check_online(url=server.url, token=token, check_id=answer["check_id"])
        assert again["cells"] == answer["cells"]
        assert answers.answer_count(answer["check_id"]) == 1
        assert records.record_of(answer["check_id"], "cyd")["answered_at"] is not None
        other = tokens.issue(LAB, ["dee"])["dee"]  # another student's token cannot read it
        with pytest.raises(CheckOnlineError, match="you have no check"):
            check_online(url=server.url, token=other, check_id=answer["check_id"])
    finally:
        server.stop()
