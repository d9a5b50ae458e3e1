"""A check seen from a student's side in JupyterLab, in the real browser (Playwright with Debian's Chromium).

A real ``jupyter lab`` serves a student's lab notebook (lab 02 with a typical bug) whose last cell calls
``course_lib.check_online()``; ``coursetools serve`` and a real worker answer on the real broker and database. The
test runs that cell in the page and reads the table the student sees; the screenshot is saved to
``test-artifacts/selfcheck-jupyterlab.png``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

import nbformat
import pytest

from coursetools.service import records, tokens

from test_app import LAB, Server, course, notebook  # noqa: F401 - `course` is a fixture
from coursetools.quality.processes import answering, free_port, stop, wait_until

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
TOKEN = "selfcheck-browser-test"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]

pytestmark = pytest.mark.slow


def _json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


@pytest.fixture
def jupyter(tmp_path):
    """Start ``jupyter lab`` on a folder with an environment of its own; stopped after the test."""
    procs = []

    def start(folder: Path, env: dict[str, str]) -> str:
        settings = tmp_path / "settings"
        _json(settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings", {"windowingMode": "none"})
        _json(settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings",
              {"fetchNews": "false", "checkForUpdates": False})
        port = free_port()
        cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={folder}",
               "--LabApp.news_url=", "--LabApp.extension_manager=readonly",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
        if os.geteuid() == 0:
            cmd.append("--allow-root")
        log = open(tmp_path / "jupyter.log", "w")
        proc = subprocess.Popen(cmd, cwd=folder, stdout=log, stderr=subprocess.STDOUT, env={
            **os.environ, **env, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
            "JUPYTER_CONFIG_DIR": str(tmp_path / "jconfig"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "jruntime"),
            "JUPYTERLAB_SETTINGS_DIR": str(settings), "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "workspaces")})
        procs.append((proc, log))
        base = f"http://127.0.0.1:{port}"
        wait_until(lambda: answering(base, f"/api/status?token={TOKEN}"), proc, tmp_path / "jupyter.log",
                   "jupyter lab", 120)
        return base

    yield start
    for proc, log in procs:
        stop(proc)
        log.close()


def test_a_check_in_jupyterlab_in_the_browser(course, services, start_worker, jupyter, tmp_path):  # noqa: F811
    playwright = pytest.importorskip("playwright.sync_api")
    assert Path(CHROMIUM).exists(), "run `make browser-deps`"
    start_worker(course)
    server = Server(course, {**services, records.LIMIT_ENV: "5"}, tmp_path / "serve.log")
    try:
        work = tmp_path / "work"
        work.mkdir()
        path = notebook(course, work, "value_not_alternating")
        nb = nbformat.read(path, as_version=4)
        nb.cells.append(nbformat.v4.new_code_cell("import course_lib\ncourse_lib.check_online()"))
        nbformat.write(nb, path)
        before = hashlib.sha256(path.read_bytes()).hexdigest()
        token = tokens.issue(LAB, ["ada-browser"])["ada-browser"]
        base = jupyter(work, {"COURSE_CHECK_URL": server.url, "COURSE_CHECK_TOKEN": token})
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            context.set_default_timeout(120_000)
            context.route("**/*", lambda r: r.continue_() if urlparse(r.request.url).hostname in
                          ("127.0.0.1", "localhost", None) else r.abort())
            page = context.new_page()
            page.goto(f"{base}/lab/tree/{path.name}?token={TOKEN}&reset")
            page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")
            page.wait_for_function("() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]"
                                   ".some(e => /\\|\\s*Idle/.test(e.textContent))")
            cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
            last = cells.nth(cells.count() - 1)  # Shift+Enter then adds a cell below it
            last.scroll_into_view_if_needed()
            last.locator(".jp-InputArea-editor").click()
            page.keyboard.press("Shift+Enter")
            output = last.locator(".jp-OutputArea-output")
            (ROOT / "test-artifacts").mkdir(exist_ok=True)
            try:
                output.filter(has_text="test cells passed").wait_for(timeout=300_000)
            finally:
                last.scroll_into_view_if_needed()
                page.screenshot(path=str(ROOT / "test-artifacts" / "selfcheck-jupyterlab.png"))
            text = output.inner_text()
            browser.close()
        assert "7 of 8 test cells passed, 10 of 13 points (a check, not your grade)" in text, text
        assert "test_value" in text and "FAILED" in text and "players not alternating" in text
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # the check never wrote the notebook
        assert len(records.history("ada-browser", LAB)) == 1
    finally:
        server.stop()
