"""The course in a real browser: JupyterLab 4 driven by Playwright with Debian's Chromium.

A private copy of the course is served by a real ``jupyter lab`` on 127.0.0.1 with a token.
The tests open a release lab with its solutions filled in and the companion notebooks, run all
their cells, and look at what a student would see: the tree figure as an image, the alpha-beta
stepper redrawing its figure, the Tic-Tac-Toe board answering clicks, nbgrader's formgrader
listing the labs, and an instructor grading a written question by hand in formgrader (a score
and a comment) that then appear in ``nbgrader export`` and in the student's feedback.
Every wait is on a condition (execution counts, kernel idle, an image decoded,
a widget changed), never a fixed sleep. Screenshots go to ``test-artifacts/`` (a failing test
also leaves ``FAILED-<test>.png`` there, saved by the hook in conftest.py), and no test may leave
an error in the browser console.

Chromium comes from apt (``make browser-deps``); Playwright never downloads a browser here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

import csv
import nbformat
import pytest

from coursetools.quality.bank import solution_answers
from coursetools.course.labfiles import written_answers
from coursetools.quality.submission import build_submission
from coursetools.quality.processes import answering, free_port, stop, wait_until

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
TOKEN = "course-browser-test-token"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
PREFERRED_LABS = ["01_game_trees", "02_minimax", "03_alphabeta"]  # the quickest lab that draws a tree
STEPPER_NOTEBOOK = "03_alphabeta_step_by_step.ipynb"
BOARD_NOTEBOOK = "02_tictactoe_minimax.ipynb"

pytestmark = pytest.mark.slow


def _labs_with_release() -> list[str]:
    return sorted(p.name for p in (ROOT / "release").iterdir()
                  if p.is_dir() and (p / f"{p.name}.ipynb").is_file()
                  and (ROOT / "source" / p.name / f"{p.name}.ipynb").is_file())


def _write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


# -- the server ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lab_server(tmp_path_factory):
    """A JupyterLab serving a private copy of the course; yields (base URL, course folder, lab name)."""
    labs = _labs_with_release()
    assert labs, "no lab has both source/ and release/ notebooks yet"
    lab = next((name for name in PREFERRED_LABS if name in labs), labs[0])

    tmp = tmp_path_factory.mktemp("browser")
    course = tmp / "course"
    course.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", course)
    shutil.copytree(ROOT / "source", course / "source")
    shutil.copytree(ROOT / "notebooks", course / "notebooks")
    shutil.copytree(ROOT / "release" / lab, course / "work" / lab)
    build_submission(ROOT / "release" / lab / f"{lab}.ipynb",
                     solution_answers(ROOT / "source" / lab / f"{lab}.ipynb"),
                     course / "work" / lab / f"{lab}.ipynb")

    config = tmp / "config"  # a private nbgrader exchange, so that formgrader has one
    config.mkdir()
    (tmp / "exchange").mkdir()
    (config / "nbgrader_config.py").write_text(f"c = get_config()\nc.Exchange.root = {str(tmp / 'exchange')!r}\n")
    settings = tmp / "settings"
    # Every cell stays in the page (no virtual scrolling), and no news or update checks.
    _write_json(settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings",
                {"windowingMode": "none"})
    _write_json(settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings",
                {"fetchNews": "false", "checkForUpdates": False})
    env = dict(os.environ,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
               JUPYTER_CONFIG_DIR=str(tmp / "config"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(settings),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
               COURSE_DB_URL="sqlite:///" + str(tmp / "gradebook.db"))
    port = free_port()
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={course}",
           "--LabApp.news_url=", "--LabApp.extension_manager=readonly",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(tmp / "server.log", "w")
    proc = subprocess.Popen(cmd, cwd=course, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: answering(base, f"/api/status?token={TOKEN}"), proc, tmp / "server.log", "jupyter lab", 90)
        yield base, course, lab
    finally:
        stop(proc)  # the server shuts its kernels down
        log.close()


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, driven by Playwright."""
    playwright_api = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]' installs playwright")
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run `make browser-deps` (apt-get install chromium)"
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def lab_page(chromium, lab_server):
    """A fresh browser page; requests leaving 127.0.0.1 are blocked; console errors are collected."""
    base = lab_server[0]
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    blocked: list[str] = []

    def route(r):
        host = urlparse(r.request.url).hostname
        if host in ("127.0.0.1", "localhost", None):
            return r.continue_()
        blocked.append(r.request.url)
        if r.request.resource_type == "image":  # the Colab badge: an empty picture, not a network error
            return r.fulfill(status=200, content_type="image/svg+xml",
                             body='<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
        return r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.console_errors = []
    page.blocked = blocked
    page.on("console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.console_errors.append(f"uncaught: {e}"))
    page.goto(f"{base}/lab?token={TOKEN}")
    yield page
    context.close()


# -- helpers -------------------------------------------------------------------------------

def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)


def _wait_idle(page) -> None:
    page.wait_for_function(
        """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')].some(e => /\\|\\s*Idle/.test(e.textContent))""",
        timeout=120_000)
    page.wait_for_selector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator[data-status="idle"]',
                           timeout=120_000)


def _open(page, base: str, path: str) -> None:
    page.goto(f"{base}/lab/tree/{path}?reset")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")
    _wait_idle(page)


def _run_all(page, notebook: Path, timeout_s: int = 150) -> None:
    n_code = sum(c.cell_type == "code" for c in nbformat.read(notebook, as_version=4).cells)
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    page.wait_for_function(
        """n => {
            const prompts = [...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputPrompt')];
            return prompts.length === n && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
        }""", arg=n_code, timeout=timeout_s * 1000)
    _wait_idle(page)


def _errors_in_outputs(page) -> list[str]:
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) "
                        "[data-mime-type='application/vnd.jupyter.error']").all_inner_texts()


def _assert_clean_console(page) -> None:
    assert not page.console_errors, f"browser console errors: {page.console_errors}"


# -- the tests -----------------------------------------------------------------------------

def test_browser_release_lab_with_solutions_runs_and_shows_its_tree_figure(lab_page, lab_server):
    base, course, lab = lab_server
    _open(lab_page, base, f"work/{lab}/{lab}.ipynb")
    _run_all(lab_page, course / "work" / lab / f"{lab}.ipynb")
    assert not _errors_in_outputs(lab_page), _errors_in_outputs(lab_page)[:1]
    figure = lab_page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output img").first
    figure.scroll_into_view_if_needed()
    lab_page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=figure.element_handle())
    _shot(lab_page, "browser-1-release-lab.png")
    _assert_clean_console(lab_page)


def test_browser_alphabeta_stepper_redraws_its_figure(lab_page, lab_server):
    base, course, _ = lab_server
    _open(lab_page, base, f"notebooks/{STEPPER_NOTEBOOK}")
    _run_all(lab_page, course / "notebooks" / STEPPER_NOTEBOOK)
    assert not _errors_in_outputs(lab_page), _errors_in_outputs(lab_page)[:1]
    image = lab_page.locator(".widget-html img[src^='data:image/png']").first  # the stepper's picture, with its alt
    image.scroll_into_view_if_needed()
    lab_page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=image.element_handle())
    caption = lab_page.locator(".widget-html", has_text="stop 0 of").first
    assert caption.is_visible()
    before = image.get_attribute("src")
    _shot(lab_page, "browser-2-stepper-start.png")
    nxt = lab_page.locator("button.widget-button", has_text="next ▶").first
    for step in (1, 2, 3):
        nxt.click()
        lab_page.locator(".widget-html", has_text=f"stop {step} of").first.wait_for()
    # the HTML widget puts a new <img> in the page at each step: wait on the selector, not on the old element
    lab_page.wait_for_function(
        """old => { const img = document.querySelector(".widget-html img[src^='data:image/png']");
                    return img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 100; }""",
        arg=before)
    assert image.get_attribute("src") != before and "after event" in image.get_attribute("alt")
    _wait_idle(lab_page)
    _shot(lab_page, "browser-3-stepper-after-3-steps.png")
    _assert_clean_console(lab_page)


def test_browser_tictactoe_board_answers_each_click(lab_page, lab_server):
    base, course, _ = lab_server
    _open(lab_page, base, f"notebooks/{BOARD_NOTEBOOK}")
    _run_all(lab_page, course / "notebooks" / BOARD_NOTEBOOK)
    assert not _errors_in_outputs(lab_page), _errors_in_outputs(lab_page)[:1]
    squares = lab_page.locator("button.widget-button[title^='row ']")
    squares.first.scroll_into_view_if_needed()
    assert squares.count() == 9

    def marks() -> tuple[int, int]:
        texts = [t.strip() for t in squares.all_inner_texts()]
        return texts.count("X"), texts.count("O")

    assert marks() == (0, 0)
    for played, square in enumerate(["row 1, column 1", "row 0, column 1"], start=1):
        lab_page.locator(f"button.widget-button[title^='{square}:']").click()
        lab_page.wait_for_function(
            """n => { const t = [...document.querySelectorAll("button.widget-button[title^='row ']")]
                          .map(b => b.textContent.trim());
                      return t.filter(x => x === 'X').length === n && t.filter(x => x === 'O').length === n; }""",
            arg=played)
        assert lab_page.locator(f"button.widget-button[title^='{square}:']").inner_text().strip() == "X"
        assert lab_page.locator(".widget-html", has_text="Your move").count() >= 1
    assert marks() == (2, 2)
    _wait_idle(lab_page)
    _shot(lab_page, "browser-4-tictactoe-after-two-moves.png")
    _assert_clean_console(lab_page)


def test_browser_formgrader_lists_the_labs(lab_page, lab_server):
    base, course, _ = lab_server
    labs = sorted(p.name for p in (course / "source").iterdir() if p.is_dir())
    lab_page.goto(f"{base}/formgrader")
    for lab in labs:
        lab_page.get_by_text(lab, exact=True).first.wait_for()
    _shot(lab_page, "browser-5-formgrader.png")
    _assert_clean_console(lab_page)


def test_browser_formgrader_grades_a_written_answer_by_hand(lab_page, lab_server):
    """A submission autograded for real, then its written question graded by hand in formgrader."""
    from nbgrader.api import Gradebook

    base, course, lab = lab_server
    source = course / "source" / lab / f"{lab}.ipynb"
    written = written_answers(source)
    assert written, f"{lab} has no written question"
    grade_id = next(iter(written))
    student = "hand_graded"
    # Only the written answer: the code stays a stub, so its cells fail at once and grading is quick.
    build_submission(ROOT / "release" / lab / f"{lab}.ipynb", written,
                     course / "submitted" / student / lab / f"{lab}.ipynb")
    db = "sqlite:///" + str(course.parent / "gradebook.db")
    env = dict(os.environ, COURSE_DB_URL=db,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    graded = subprocess.run([sys.executable, "-m", "coursetools", "grade", lab, "--jobs", "1"],
                            cwd=course, env=env, capture_output=True, text=True, timeout=600)
    assert graded.returncode == 0, graded.stdout[-3000:] + graded.stderr[-3000:]
    with Gradebook(db, course_id="adversarial-search") as gb:
        answer = gb.find_grade(grade_id, lab, lab, student)
        assert answer.needs_manual_grade and answer.score == 0, "a written answer waits for a human"
        autograded = gb.find_submission(lab, student).score
        max_score = gb.find_assignment(lab).max_score
        assert answer.max_score == 2 and max_score == 2 + sum(g.max_score for g in gb.find_notebook(lab, lab).grade_cells
                                                             if g.cell_type == "code")
    assert autograded == 0, "stubs earn nothing"

    lab_page.goto(f"{base}/formgrader/gradebook/{lab}/{lab}")
    lab_page.locator("a[href*='/formgrader/submissions/']").first.click()
    score = lab_page.locator(f"input.score#{grade_id}")
    score.wait_for()
    # formgrader binds its inputs to the gradebook once it has fetched the grades and comments
    lab_page.wait_for_function("() => window.formgrader && formgrader.grades && formgrader.grades.loaded "
                               "&& formgrader.comments && formgrader.comments.loaded")
    comment_text = "Right about the deep nodes; say what b* measures (browser test)."
    with lab_page.expect_response(lambda r: "/api/grade/" in r.url and r.request.method == "PUT") as saved:
        score.fill("1.5")
        score.press("Tab")  # leaving the input saves it
    assert saved.value.ok
    comment = lab_page.locator(f"textarea#{grade_id}-comment")
    with lab_page.expect_response(lambda r: "/api/comment/" in r.url and r.request.method == "PUT") as saved:
        comment.fill(comment_text)
        comment.press("Tab")
    assert saved.value.ok
    _shot(lab_page, "browser-6-formgrader-written-answer.png")
    # formgrader's grading page fetches MathJax from a CDN, which this test blocks (no network here)
    assert all("mathjax" in url.lower() for url in lab_page.blocked), lab_page.blocked
    offline = {"Failed to load resource: net::ERR_FAILED", "uncaught: MathJax is not defined"}
    assert not [e for e in lab_page.console_errors if e not in offline], lab_page.console_errors

    exported = course / "grades.csv"
    run = subprocess.run([sys.executable, "-m", "nbgrader", "export", "--to", str(exported), "--log-level=ERROR"],
                         cwd=course, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    with open(exported, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["student_id"] == student and r["assignment"] == lab]
    assert len(rows) == 1, rows
    assert float(rows[0]["score"]) == autograded + 1.5 and float(rows[0]["max_score"]) == max_score, rows[0]
    run = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", lab, "--student", student,
                          "--force", "--log-level=ERROR"], cwd=course, env=env, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    feedback = (course / "feedback" / student / lab / f"{lab}.html").read_text()
    assert comment_text in feedback, "the comment reaches the student's feedback"
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", feedback))
    assert f"{autograded + 1.5:g} / {max_score:g}" in text, "the total with the hand-given score is in the feedback"


# -- nothing a student wrote runs in the instructor's or the student's browser (issue 22) --------

PROBE = "/xss-probe/"  # every payload asks the server for PROBE + its name, marks the top window and its title
HONEST_ANSWER = ("Alpha-beta with perfect ordering visits about $b^{d/2}$ nodes instead of $b^d$, "
                 "so the effective branching factor $b^* = \\sqrt{b}$.")


def _js(base: str, name: str) -> str:
    """JavaScript that leaves three traces if it runs: a request, a global on the top window, the title."""
    return (f"(top.__pwned = top.__pwned || []).push('{name}'); top.document.title = 'PWNED {name}'; "
            f"fetch('{base}{PROBE}{name}')")


def _attacks(base: str) -> tuple[str, str]:
    """(code run before a solution cell's own code, the written answer): the five payloads of issue 22."""
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" onload="{_js(base, "svg-onload")}">'
           f'<script>{_js(base, "svg-script")}</script><circle r="9"/></svg>')
    code = "\n".join([
        "from IPython.display import HTML, SVG, Javascript, display",
        f"display(HTML({'<script>' + _js(base, 'html-script') + '</script>'!r}))",
        f"display(HTML({'<img src=x onerror=' + chr(34) + _js(base, 'img-onerror') + chr(34) + '>'!r}))",
        f"display(Javascript({_js(base, 'javascript-output')!r}))",
        f"display(SVG({svg!r}))",
        "",
    ])
    answer = (f"{HONEST_ANSWER}\n\n<script>{_js(base, 'markdown-script')}</script>\n"
              f"<img src=x onerror=\"{_js(base, 'markdown-img')}\">\n")
    return code, answer


def _submit(course: Path, lab: str, student: str, code_prefix: str, answer: str) -> None:
    source = course / "source" / lab / f"{lab}.ipynb"
    answers = solution_answers(source)
    first = next(iter(answers))
    answers[first] = code_prefix + answers[first]
    answers.update({gid: answer for gid in written_answers(source)})
    build_submission(ROOT / "release" / lab / f"{lab}.ipynb", answers,
                     course / "submitted" / student / lab / f"{lab}.ipynb")


class _ActiveContent(HTMLParser):
    """Scripts, event handlers, javascript: URLs, iframes and forms in a piece of HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "iframe", "form", "object", "embed", "svg"):
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on") or re.sub(r"[\x00-\x20]", "", value or "").lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={(value or '')[:60]!r}>")


def _active(fragment: str) -> list[str]:
    parser = _ActiveContent()
    parser.feed(fragment)
    parser.close()
    return parser.found


def _no_trace(page, frame=None) -> None:
    where = frame or page
    assert where.evaluate("() => top.__pwned || []") == [], "a student's script ran"
    assert "PWNED" not in page.title()


def test_browser_no_script_of_a_student_runs_in_formgrader_or_the_feedback_page(lab_page, lab_server):
    """Five payloads graded by the real pipeline beside an honest student: none runs, figures and maths stay."""
    from nbgrader.api import Gradebook

    base, course, lab = lab_server
    code, answer = _attacks(base)
    _submit(course, lab, "attacker", code, answer)
    _submit(course, lab, "honest", "", HONEST_ANSWER)
    db = "sqlite:///" + str(course.parent / "gradebook.db")
    env = dict(os.environ, COURSE_DB_URL=db,
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    graded = subprocess.run([sys.executable, "-m", "coursetools", "grade", lab, "--jobs", "2"],
                            cwd=course, env=env, capture_output=True, text=True, timeout=900)
    assert graded.returncode == 0, graded.stdout[-3000:] + graded.stderr[-3000:]
    with Gradebook(db, course_id="adversarial-search") as gb:
        ids = {s: gb.find_submission_notebook(lab, lab, s).id for s in ("attacker", "honest")}
        assert gb.find_submission(lab, "attacker").score == gb.find_submission(lab, "honest").score > 0, \
            "the payloads change no score"
    feedback = subprocess.run([sys.executable, "-m", "nbgrader", "generate_feedback", lab, "--force",
                               "--log-level=ERROR"], cwd=course, env=env, capture_output=True, text=True, timeout=300)
    assert feedback.returncode == 0, feedback.stderr[-3000:]

    # An HTML parser finds nothing active in the autograded notebooks' outputs and markdown, nor in the pages.
    for student in ("attacker", "honest"):
        nb = nbformat.read(course / "autograded" / student / lab / f"{lab}.ipynb", as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                assert not _active(cell.source), (student, cell.source[:300])
            for out in cell.get("outputs", []):
                for mime, value in out.get("data", {}).items():
                    assert mime in ("text/plain", "text/html", "text/markdown", "text/latex", "image/png",
                                    "image/jpeg"), (student, mime)
                    if mime.startswith("text/") and mime != "text/plain":
                        assert not _active(value), (student, value[:300])
        page = (course / "feedback" / student / lab / f"{lab}.html").read_text()
        scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.S)
        assert not [s for s in scripts if PROBE in s or "__pwned" in s], student
        assert not [a for a in _active(page) if a != "<script>"], (student, _active(page))
    attacker_nb = nbformat.read(course / "autograded" / "attacker" / lab / f"{lab}.ipynb", as_version=4)
    pictures = [o for c in attacker_nb.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    assert pictures, "the lab's own figures stay in the attacking submission too"

    probes: list[str] = []
    lab_page.context.route(f"**{PROBE}**", lambda r: (probes.append(r.request.url), r.continue_()))

    def grading_view_loaded(where) -> None:
        where.locator(".cell").first.wait_for()
        where.locator("input.score").first.wait_for()
        where.wait_for_function("() => document.readyState === 'complete'")

    # 1. From JupyterLab's Nbgrader menu: the Formgrader panel, then Manual Grading > lab > notebook > submission.
    lab_page.goto(f"{base}/lab?reset")
    lab_page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Nbgrader$")).click()
    lab_page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Formgrader$")).click()
    frame_element = lab_page.locator("#formgrader iframe, .nbgrader-mainarea-widget iframe").first
    frame_element.wait_for()
    frame = frame_element.content_frame
    frame.locator("a[href$='/formgrader/gradebook']", has_text="Manual Grading").click()
    frame.locator(f"a[href$='/formgrader/gradebook/{lab}']").click()
    frame.locator(f"a[href$='/formgrader/gradebook/{lab}/{lab}']").click()
    frame.locator(f"a[href$='/formgrader/submissions/{ids['attacker']}']").first.click()
    inner = frame_element.element_handle().content_frame()
    inner.wait_for_url(re.compile(f"/formgrader/submissions/{ids['attacker']}/"))
    grading_view_loaded(inner)
    assert inner.evaluate("() => location.pathname").endswith(f"/formgrader/submissions/{ids['attacker']}/")
    assert "Alpha-beta with perfect ordering" in inner.content()
    _shot(lab_page, "browser-7-formgrader-attacker-from-menu.png")
    _no_trace(lab_page, inner)

    # 2. The same grading view by its URL, and the honest student's: figures decode, the maths are there.
    for student in ("attacker", "honest"):
        lab_page.goto(f"{base}/formgrader/submissions/{ids[student]}/?index=0")
        grading_view_loaded(lab_page)
        figure = lab_page.locator("img[src^='data:image/png']").first
        figure.scroll_into_view_if_needed()
        lab_page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=figure.element_handle())
        assert "$b^{d/2}$" in lab_page.content() and "$b^* = \\sqrt{b}$" in lab_page.content(), student
        _no_trace(lab_page)
        _shot(lab_page, f"browser-8-formgrader-{student}-by-url.png")

    # 3. The feedback pages, as the student opens them (a file, no server in between).
    # Their Content-Security-Policy refuses no script: the sanitiser left none, and MathJax's own two are allowed.
    for student in ("attacker", "honest"):
        lab_page.console_errors.clear()
        lab_page.goto((course / "feedback" / student / lab / f"{lab}.html").as_uri())
        lab_page.wait_for_function("() => document.readyState === 'complete'")
        figure = lab_page.locator("img[src^='data:image/png']").first
        figure.scroll_into_view_if_needed()
        lab_page.wait_for_function("img => img.complete && img.naturalWidth > 100", arg=figure.element_handle())
        assert "$b^{d/2}$" in lab_page.content(), student
        _no_trace(lab_page)
        refused = [e for e in lab_page.console_errors if "Content Security Policy" in e and "script" in e]
        assert not refused, refused  # (Bootstrap's glyphicons font, absent beside the page anyway, is refused)
        _shot(lab_page, f"browser-9-feedback-{student}.png")

    lab_page.goto(f"{base}/api/status?token={TOKEN}")  # a last round trip: every earlier request has landed
    assert probes == [], f"the student's scripts ran and asked for: {probes}"
    log = (course.parent / "server.log").read_text()
    assert PROBE not in log, [ln for ln in log.splitlines() if PROBE in ln]
