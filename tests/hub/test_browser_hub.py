"""A lab's whole round through the course server, in Chromium (Playwright with Debian's Chromium).

Two students log in with their passwords, fetch lab 01 from nbgrader's assignment list, work (ann answers every
question, bob leaves the stubs), run ``course_lib.check_online()`` in their notebook with no token set, and submit
from the assignment list. The teacher collects and grades in the course folder's terminal, scores ann's written
answer in formgrader (its own tab), writes and releases the feedback; each student fetches feedback and gets their
own page only, and neither can open the other's server. Screenshots go to ``test-artifacts/hub-*.png``.
"""

from __future__ import annotations

import json
import os
import pwd
import re
from pathlib import Path
from urllib.parse import quote, urlparse

import nbformat
import pytest
from hubtools import ANN, BOB, CHP, LAB, ROOT, TEACHER

from coursetools.course.labfiles import solution_answers, written_answers
from coursetools.quality.submission import build_submission

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
WRITTEN = "written_branching"
ARTIFACTS = ROOT / "test-artifacts"

pytestmark = [
    pytest.mark.long,
    pytest.mark.skipif(os.geteuid() != 0, reason="the Hub runs as root to start each user's server as that user"),
    pytest.mark.skipif(not CHP.exists(), reason="configurable-http-proxy is missing: make hub-deps"),
]


def teacher(hub, script: str) -> str:
    """Shell text in the teacher's terminal: in the course folder, the instructor's environment first on PATH."""
    env = {"PATH": f"{hub.instructor_env}/bin:/usr/bin:/bin", "JUPYTER_CONFIG_PATH": str(hub.folder / "teacher" /
                                                                                         "jupyter"),
           "JUPYTERHUB_SERVICE_PREFIX": f"/user/{TEACHER}/"}  # as the teacher's server gives its terminals
    proc = hub.as_user(TEACHER, ["bash", "-eo", "pipefail", "-c", script], env=env,
                       cwd=hub.folder / "teacher" / "course", timeout=900)
    assert proc.returncode == 0, f"{script}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    return proc.stdout


def lab_settings(user: str) -> None:
    """The user's JupyterLab settings for the test: every cell in the page (so the last one can be found), no news."""
    entry = pwd.getpwnam(user)
    settings = Path(entry.pw_dir) / ".jupyter" / "lab" / "user-settings" / "@jupyterlab"
    for name, value in (("notebook-extension/tracker", {"windowingMode": "none"}),
                        ("apputils-extension/notification", {"fetchNews": "false", "checkForUpdates": False})):
        path = settings / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    for path in [Path(entry.pw_dir) / ".jupyter", *(Path(entry.pw_dir) / ".jupyter").rglob("*")]:
        os.chown(path, entry.pw_uid, entry.pw_gid)


def log_in(browser, hub, user: str):
    lab_settings(user)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(240_000)
    context.route("**/*", lambda r: r.continue_() if urlparse(r.request.url).hostname in
                  ("127.0.0.1", "localhost", None) else r.abort())
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", hub.passwords[user])
    page.click("#login_submit")
    page.wait_for_url(re.compile(rf".*/user/{user}/lab.*"))
    page.wait_for_selector("#jp-MainMenu")
    return page


def assignment_list(page):
    """Nbgrader > Assignment List; the panel."""
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    page.locator(".lm-Menu-itemLabel", has_text="Assignment List").click()
    return page.locator("#assignments").first


def run_last_cell(page, user: str, path: str) -> str:
    page.goto(f"{page.url.split('/lab')[0]}/lab/tree/{path}?reset")
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")
    page.wait_for_function("() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]"
                           ".some(e => /\\|\\s*Idle/.test(e.textContent))")
    cells = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell")
    last = cells.nth(cells.count() - 1)
    last.scroll_into_view_if_needed()
    last.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    output = last.locator(".jp-OutputArea-output")
    try:
        output.filter(has_text=re.compile("test cells passed|check_online:")).wait_for(timeout=600_000)
    finally:
        last.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"hub-{user}-check.png"))
    return output.inner_text()


def work(hub, user: str, answers: dict[str, str] | None) -> Path:
    """The student's work in the fetched notebook (ann's answers, or bob's stubs), and a last cell that checks it."""
    path = Path(pwd.getpwnam(user).pw_dir) / LAB / f"{LAB}.ipynb"
    if answers:
        build_submission(path, answers, path)
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("import course_lib\ncourse_lib.check_online()"))
    nbformat.write(nb, path)
    entry = pwd.getpwnam(user)
    os.chown(path, entry.pw_uid, entry.pw_gid)
    return path


def wait_for(page, done, seconds: float = 120) -> None:
    """Wait (the page kept alive) until `done()` holds on the server's side."""
    for _ in range(int(seconds * 2)):
        if done():
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"not done within {seconds} s: {done}")


def test_a_lab_round_through_the_hub_in_chromium(hub):
    playwright = pytest.importorskip("playwright.sync_api")
    ARTIFACTS.mkdir(exist_ok=True)
    teacher(hub, f"coursetools hand-out {LAB}")
    source = ROOT / "source" / LAB / f"{LAB}.ipynb"
    inbound = hub.folder / "exchange" / "adversarial-search" / "inbound"
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages, texts = {}, {}
        # ann answers every question, the written one too (so it waits for the teacher's grade); bob leaves the stubs
        answers_of = {ANN: {**solution_answers(source), **written_answers(source)}, BOB: None}
        for user, answers in answers_of.items():
            page = pages[user] = log_in(browser, hub, user)
            panel = assignment_list(page)
            panel.get_by_role("button", name="Fetch", exact=True).first.click()
            panel.get_by_role("button", name="Submit", exact=True).first.wait_for()
            work(hub, user, answers)
            texts[user] = run_last_cell(page, user, f"{LAB}/{LAB}.ipynb")
            panel = assignment_list(page)
            panel.get_by_role("button", name="Submit", exact=True).first.click()
            wait_for(page, lambda user=user: any(p.name.startswith(f"{user}+{LAB}+") for p in inbound.iterdir()))
            page.screenshot(path=str(ARTIFACTS / f"hub-{user}-submitted.png"))
        ann, bob = texts[ANN], texts[BOB]
        assert re.search(r"(\d+) of \1 test cells passed", ann), ann
        assert re.search(r"\b0 of \d+ test cells passed", bob), bob

        graded = teacher(hub, f"nbgrader collect {LAB}\ncoursetools grade {LAB} --jobs 2")
        assert f"1 written answer of 1 student to grade in formgrader (open it with the address /user/{TEACHER}/" \
               "formgrader on this Hub, in a tab of its own" in graded, graded
        grade_in_formgrader(log_in(browser, hub, TEACHER), hub)
        teacher(hub, f"coursetools feedback {LAB}\nnbgrader release_feedback {LAB}")

        seen = {}
        for user in (ANN, BOB):
            panel = assignment_list(pages[user])
            panel.get_by_role("button", name="Fetch Feedback", exact=True).first.click()
            feedback = Path(pwd.getpwnam(user).pw_dir) / LAB / "feedback"
            wait_for(pages[user], lambda feedback=feedback: any(feedback.rglob("*.html")))
            # the student opens the page fetched (in their own server's files) and reads it
            page = next(feedback.rglob("*.html"))
            assert page.stat().st_mode & 0o077 == 0, f"{page} is readable by others"
            home = Path(pwd.getpwnam(user).pw_dir)
            pages[user].goto(f"{hub.url}/user/{user}/files/{quote(str(page.relative_to(home)))}")
            seen[user] = pages[user].locator("body").inner_text()
            pages[user].screenshot(path=str(ARTIFACTS / f"hub-{user}-feedback.png"))
        # ann's page: every test and her written answer with the score given in formgrader; bob's: his stubs and
        # nothing of ann's.
        written = answers_of[ANN][WRITTEN].split("\n")[0]
        assert re.search(rf"{LAB}: 12(\.0)? / 12(\.0)? points", seen[ANN]), seen[ANN][:3000]
        assert written in " ".join(seen[ANN].split()), seen[ANN][:3000]
        assert re.search(rf"{LAB}: 0(\.0)? / 12(\.0)? points", seen[BOB]), seen[BOB][:3000]
        assert written not in " ".join(seen[BOB].split())
        # Neither student can open the other's server (the Hub refuses, whatever the path), nor read the other's
        # fetched page, nor list the released pages to find one.
        for user, other in ((BOB, ANN), (ANN, BOB)):
            response = pages[user].goto(f"{hub.url}/user/{other}/files/{LAB}/{LAB}.ipynb")
            assert response.status in (403, 404) or f"/user/{user}/" in pages[user].url, pages[user].url
            their_page = next((Path(pwd.getpwnam(other).pw_dir) / LAB / "feedback").rglob("*.html"))
            assert hub.as_user(user, ["cat", str(their_page)]).returncode != 0
            assert hub.as_user(user, ["ls", str(hub.folder / "exchange" / "adversarial-search" / "feedback")]
                               ).returncode != 0
        browser.close()


def grade_in_formgrader(lab, hub) -> None:
    """The teacher opens formgrader in a tab of its own, finds ann's notebook through Manage Students, gives her
    written answer 2 of 2 points, and sees her lab's score become 12 of 12."""
    grader = lab.context.new_page()
    grader.goto(f"{hub.url}/user/{TEACHER}/formgrader/manage_students")
    grader.locator(f"a[href$='/manage_students/{ANN}']").click()
    grader.locator(f"a[href$='/manage_students/{ANN}/{LAB}']").click()
    grader.locator("a[href*='/formgrader/submissions/']").first.click()
    # ready once formgrader has loaded the grades: the written answer then waits for a hand grade (autograded cells
    # show their score as a placeholder, so an empty value says nothing)
    score = grader.locator(f"input.score#{WRITTEN}.needs_manual_grade")
    score.scroll_into_view_if_needed()
    score.fill("2")
    score.evaluate("e => e.blur()")  # formgrader saves a score when it changes
    grader.locator(f"input.score#{WRITTEN}:not(.needs_manual_grade)").wait_for()
    grader.screenshot(path=str(ARTIFACTS / "hub-formgrader.png"))
    grader.goto(f"{hub.url}/user/{TEACHER}/formgrader/manage_students/{ANN}/{LAB}")
    row = grader.locator("tr", has_text=LAB).last
    row.filter(has_text=re.compile(r"12 / 12")).wait_for()
    assert re.search(r"2 / 2", row.inner_text()), row.inner_text()  # the written score
    grader.close()
