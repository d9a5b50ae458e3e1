"""`course_lib.check_online()` in a real kernel started as Jupyter starts one for a notebook (``JPY_SESSION_NAME``):
it finds the saved file, says "save first" when the file lacks the code last run, says what is missing in plain
words without a traceback, and never writes the notebook. The calls against the real service are in
tests/service/test_online_service.py."""

from __future__ import annotations

import hashlib
import json
import socket
from pathlib import Path

import nbformat
import pytest
from jupyter_client.manager import start_new_kernel

from course_lib.online import Answer, CheckOnlineError, check_online, hub_token, lab_of

ROOT = Path(__file__).resolve().parents[2]


class Kernel:
    """A real IPython kernel run for one notebook file, as JupyterLab runs it."""

    def __init__(self, notebook: Path, env: dict[str, str]) -> None:
        import os

        self.km, self.kc = start_new_kernel(kernel_name="python3", cwd=str(notebook.parent),
                                            env={**os.environ, "JPY_SESSION_NAME": str(notebook), **env})

    def run(self, code: str, timeout: float = 300) -> tuple[str, list[dict]]:
        """Run `code`; its printed and displayed text, and its error messages."""
        text, errors = [], []

        def hook(msg: dict) -> None:
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                text.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                text.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                errors.append(content)

        self.kc.execute_interactive(code, output_hook=hook, timeout=timeout)
        return "".join(text), errors

    def stop(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def write_notebook(path: Path, *codes: str) -> Path:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lab 02: minimax")]
                                  + [nbformat.v4.new_code_cell(c) for c in codes])
    nbformat.write(nb, path)
    return path


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def kernel(tmp_path):
    started: list[Kernel] = []

    def start(notebook: Path, **env: str) -> Kernel:
        k = Kernel(notebook, env)
        started.append(k)
        return k

    yield start
    for k in started:
        k.stop()


def test_plain_errors_and_save_first_in_a_real_kernel(kernel, tmp_path):
    nb = write_notebook(tmp_path / "02_minimax.ipynb", "x = 41")
    before = hashlib.sha256(nb.read_bytes()).hexdigest()
    url = f"http://127.0.0.1:{closed_port()}"
    k = kernel(nb, COURSE_CHECK_URL=url)
    _, errors = k.run("import course_lib\ncourse_lib.check_online()")
    assert [e["traceback"] for e in errors] == [["check_online: no token configured: set COURSE_CHECK_TOKEN to the "
                                                 "personal token your teacher sent (os.environ['COURSE_CHECK_TOKEN'] "
                                                 "= 'sc_...')"]]
    k.run("import os\nos.environ['COURSE_CHECK_TOKEN'] = 'sc_test'")
    k.run("x = 41")
    k.run("y = x + 1")  # run, never saved
    _, errors = k.run("course_lib.check_online()")
    assert len(errors) == 1 and errors[0]["traceback"][0].startswith("check_online: save first: the saved "
                                                                      "02_minimax.ipynb is older than your last run")
    write_notebook(nb, "x = 41", "y = x + 1")  # the student saves
    before = hashlib.sha256(nb.read_bytes()).hexdigest()
    _, errors = k.run("course_lib.check_online()")
    assert len(errors) == 1 and errors[0]["traceback"][0].startswith(
        f"check_online: the self-check service at {url} is unreachable"), errors
    assert hashlib.sha256(nb.read_bytes()).hexdigest() == before  # never written


def test_the_hubs_token_goes_only_to_the_courses_own_hub(monkeypatch):
    """On another JupyterHub (Binder, a university's) the server's token stays home: no check without a course token."""
    monkeypatch.delenv("COURSE_CHECK_TOKEN", raising=False)
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "the-other-hubs-token")
    monkeypatch.setenv("COURSE_CHECK_URL", "http://127.0.0.1:9/services/self-check")
    monkeypatch.delenv("COURSE_CHECK_HUB", raising=False)
    assert hub_token() == ""
    with pytest.raises(CheckOnlineError, match="no token configured"):
        check_online("02_minimax")
    monkeypatch.setenv("COURSE_CHECK_HUB", "1")  # what the course's own Hub gives its students' servers
    assert hub_token() == "the-other-hubs-token"


def test_lab_from_the_file_name_or_the_title(tmp_path):
    nb = write_notebook(tmp_path / "x.ipynb", "pass")
    assert lab_of(nb.read_bytes(), "02_minimax.ipynb") == "02_minimax"
    assert lab_of(nb.read_bytes(), None) == "02"  # Colab: the title's number (the service knows the lab by it)
    assert lab_of(b"{}", "Untitled.ipynb") is None


def test_the_answer_as_a_short_table():
    answer = Answer({"lab": "02_minimax", "practice": False, "refused": None, "cells": [
        {"cell": "test_value", "verdict": "failed", "points": 0.0, "max_points": 3.0, "hidden": {"passed": 0, "of": 1},
         "visible": "AssertionError: the value is 7, yours is 8", "explanation": "minimax_value on secret ..."},
        {"cell": "test_decision", "verdict": "passed", "points": 2.0, "max_points": 2.0,
         "hidden": {"passed": 1, "of": 1, "cases": 12}, "visible": None, "explanation": None}]})
    text = repr(answer)
    assert text.splitlines()[0] == "02_minimax: 1 of 2 test cells passed, 2 of 5 points (a check, not your grade)"
    assert "test_value     FAILED   0/3     0 of 1" in text and "test_decision  passed   2/2     1 of 1 (12 cases)" in text
    assert "test_value (visible tests):\n  AssertionError: the value is 7, yours is 8" in text
    assert "<table>" in answer._repr_html_() and json.loads(json.dumps(answer))["lab"] == "02_minimax"


def test_the_table_counts_hidden_cases_when_the_service_does():
    answer = Answer({"lab": "03_alphabeta", "refused": None, "cells": [
        {"cell": "test_deep", "verdict": "failed", "points": 0.0, "max_points": 2.0,
         "hidden": {"passed": 0, "of": 1, "unit": "checks", "cases": None}, "visible": None,
         "explanation": "alphabeta_value on secret random case #1: ..."},
        {"cell": "test_value", "verdict": "passed", "points": 2.0, "max_points": 2.0,
         "hidden": {"passed": 14, "of": 14, "unit": "cases", "cases": 14}, "visible": None, "explanation": None}]})
    text = repr(answer)
    assert "0 of 1 checks" in text and "14 of 14 cases" in text and "(14 cases)" not in text
