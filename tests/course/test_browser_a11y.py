"""Accessibility in a real browser: text alternatives in JupyterLab's and Notebook 7's DOM, keyboard-only
widgets whose captions are live regions, axe-core.

The server, the browser and the page come from test_browser.py. A lab with its solutions runs in
JupyterLab 4, and again in Notebook 7 (`jupyter notebook`, a second server on the same private copy
of the course); every picture in its outputs must
reach the page as an ``<img>`` with the alt text course_lib wrote from the trace. The alpha-beta
stepper and the Tic-Tac-Toe board are driven with the keyboard alone (Tab, Enter, Space, arrow keys),
and after a step the stepper's live region (role="status", aria-live="polite") holds the new stop's
line, the same as course_lib's stepper built in this process from the same trace. axe-core (the copy
bundled with axe-playwright-python) checks the notebook panel, and the pages the project writes: a
student's feedback page and the class report of a lab graded for real, and the page of a real class
tournament. In the pages and in the cells' outputs no violation of serious or critical impact may
remain; JupyterLab's own parts of the panel are reported, not failed on (see `axe_panel`). The
counts of every impact are printed (``-s``) and saved in test-artifacts/axe-*.json.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat

import pytest
from test_browser import (
    ARTIFACTS, BOARD_NOTEBOOK, ROOT, STEPPER_NOTEBOOK, TOKEN, _assert_clean_console, _errors_in_outputs,
    _open, _run_all, _shot, _wait_idle, _write_json, chromium, lab_page, lab_server,
)

from coursetools.quality.bank import solution_answers
from coursetools.quality.submission import build_submission
from coursetools.quality.processes import answering, free_port, stop, wait_until

__all__ = ["chromium", "lab_page", "lab_server"]  # fixtures shared with test_browser.py

pytestmark = pytest.mark.slow

PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# What the course puts into the panel: each output of a cell (figures, widgets, text) and the rendered markdown.
# The rest of the panel is JupyterLab's (its CodeMirror editors, prompts, cell list and toolbar): it has serious and
# critical violations that no notebook can change, so they are reported and saved, not failed on.
OURS = ".jp-OutputArea-output, .jp-MarkdownOutput"
BLOCKING = ("serious", "critical")
LIVE = "[role='status'][aria-live='polite']"
TOURNAMENT_LAB = "05_heuristics"
# the root's mover, the sizes and the leaves (or, after a search, its record), as course_lib writes them
TREE_ALT = re.compile(r"Game tree.*?: (MAX|MIN) to move(, value -?[\d.]+)?; \d+ nodes, \d+ leaves; "
                      r"(leaves from left to right: (-?[\d.]+ ?)+|the search visited \d+)")


def _axe_source() -> str:
    """axe-core's script, from the copy axe-playwright-python ships (installed by `make setup`, from `.[dev]`)."""
    try:
        import axe_playwright_python
    except ImportError:
        pytest.fail("axe-playwright-python is missing: `make setup` (pip install -e '.[dev]') installs it")
    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def _axe_violations(page, context: str | None) -> list[dict]:
    """axe-core's violations on the page (or in the element `context` selects); each node marked `ours` when it
    lies inside a cell's output or rendered markdown."""
    page.evaluate(_axe_source())  # through the DevTools protocol: a page's Content-Security-Policy does not apply
    return page.evaluate("""async ([ctx, ours]) => {
        const result = await axe.run(ctx || document, {resultTypes: ['violations']});
        for (const v of result.violations) {
            for (const n of v.nodes) {
                const el = n.target.length === 1 && typeof n.target[0] === 'string'
                    ? document.querySelector(n.target[0]) : null;  // an element in a frame is not ours
                n.ours = !!(el && el.closest(ours));
            }
        }
        return result.violations;
    }""", [context, OURS])


def _summary(violations: list[dict]) -> tuple[dict[str, int], list[dict]]:
    counts = {impact: 0 for impact in ("minor", "moderate", "serious", "critical")}
    for v in violations:
        counts[v["impact"]] = counts.get(v["impact"], 0) + len(v["nodes"])
    summary = [{"rule": v["id"], "impact": v["impact"], "help": v["help"], "nodes": len(v["nodes"]),
                "first": v["nodes"][0]["html"][:300], "why": v["nodes"][0]["failureSummary"][:500],
                "each": sorted({n["failureSummary"].split("\n")[1][:200] + " | " + n["html"][:120]
                                for n in v["nodes"]})[:20]}
               for v in violations if v["nodes"]]
    return counts, summary


def _save(name: str, **parts: object) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps(parts, indent=1))


def axe(page, name: str) -> dict[str, int]:
    """Run axe-core on a whole page the project writes; save the violations; fail on a serious or critical one."""
    counts, summary = _summary(_axe_violations(page, None))
    _save(name, counts=counts, violations=summary)
    print(f"axe {name}: {counts}")
    blocking = [s for s in summary if s["impact"] in BLOCKING]
    assert not blocking, f"axe-core on {name}: " + json.dumps(blocking, indent=1)
    return counts


def axe_panel(page, name: str, *, strict: bool = True) -> list[dict]:
    """Run axe-core on the notebook panel; fail on a serious or critical violation inside the cells' outputs.

    One run over the whole panel, then each violating element is sorted by where it lies. Inside an output
    (or rendered markdown) it is the course's: course_lib's figures, widgets and text, which the course can
    and must fix, so a serious or critical one fails the test. Elsewhere it is JupyterLab's own chrome (the
    code editors, prompts, cell list, toolbar), which no notebook can change: it is counted and saved in
    test-artifacts/axe-<name>.json, never failed on. Returns the course's blocking violations (`strict`
    False: for the check that a planted fault is caught).
    """
    violations = _axe_violations(page, PANEL)
    ours = [dict(v, nodes=[n for n in v["nodes"] if n["ours"]]) for v in violations]
    theirs = [dict(v, nodes=[n for n in v["nodes"] if not n["ours"]]) for v in violations]
    (our_counts, our_summary), (their_counts, their_summary) = _summary(ours), _summary(theirs)
    _save(name, outputs={"counts": our_counts, "violations": our_summary},
          jupyterlab={"counts": their_counts, "violations": their_summary})
    print(f"axe {name}: cells' outputs {our_counts}; JupyterLab's own parts (not failed on) {their_counts}")
    blocking = [s for s in our_summary if s["impact"] in BLOCKING]
    assert not (strict and blocking), f"axe-core on {name}'s outputs: " + json.dumps(blocking, indent=1)
    return blocking


def _alts(page, selector: str) -> list[str | None]:
    return page.locator(selector).evaluate_all("imgs => imgs.map(i => i.getAttribute('alt'))")


def _focused_title(page) -> str:
    return page.evaluate("() => document.activeElement && document.activeElement.getAttribute('title') || ''")


# -- the notebook panel ----------------------------------------------------------------------

def test_browser_a11y_lab_figures_have_their_alt_in_jupyterlab_and_axe_passes(lab_page, lab_server):
    base, course, lab = lab_server
    _open(lab_page, base, f"work/{lab}/{lab}.ipynb")
    _run_all(lab_page, course / "work" / lab / f"{lab}.ipynb")
    assert not _errors_in_outputs(lab_page), _errors_in_outputs(lab_page)[:1]
    images = f"{PANEL} .jp-OutputArea-output img"
    lab_page.locator(images).first.scroll_into_view_if_needed()
    alts = _alts(lab_page, images)
    assert alts and all(alt and alt.strip() for alt in alts), f"pictures without a text alternative: {alts}"
    trees = [alt for alt in alts if TREE_ALT.search(alt)]
    assert trees, f"no tree figure's alt carries its numbers: {alts}"
    # the alt in the DOM is the one course_lib wrote: the output's text/plain says the same words
    plain = lab_page.locator(f"{PANEL} .jp-OutputArea-output img[alt^='Game tree']").first
    assert plain.is_visible() and plain.evaluate("i => i.complete && i.naturalWidth > 100")
    _shot(lab_page, "browser-a11y-1-lab.png")
    # the check can fail: a picture without alt planted in a cell's output is caught, and is the only thing caught
    lab_page.evaluate(f"""() => {{
        const img = document.createElement('img');
        img.id = 'planted-no-alt';
        img.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
        document.querySelector("{PANEL} .jp-OutputArea-output").appendChild(img);
    }}""")
    caught = axe_panel(lab_page, "lab-notebook-panel-planted", strict=False)
    assert [c["rule"] for c in caught] == ["image-alt"] and "planted-no-alt" in caught[0]["first"], caught
    lab_page.evaluate("() => document.getElementById('planted-no-alt').remove()")
    axe_panel(lab_page, "lab-notebook-panel")
    _assert_clean_console(lab_page)


def _stepper_in_this_process():
    """The stepper notebook's stepper, built here by its own cells (all but the set-up cell, up to the stepper)."""
    cells = [c.source for c in nbformat.read(ROOT / "notebooks" / STEPPER_NOTEBOOK, as_version=4).cells
             if c.cell_type == "code"]
    upto = next(i for i, source in enumerate(cells) if "TraceStepper(" in source)
    space: dict = {}
    for source in cells[1:upto + 1]:
        exec(compile(source, STEPPER_NOTEBOOK, "exec"), space)
    return space["stepper"]


@pytest.fixture(scope="module")
def notebook7_server(lab_server, tmp_path_factory):
    """`jupyter notebook` (Notebook 7) serving the same private course as `lab_server`; yields its base URL."""
    _, course, _ = lab_server
    tmp = tmp_path_factory.mktemp("notebook7")
    _write_json(tmp / "settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings",
                {"windowingMode": "none"})  # every cell stays in the page
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""),
               JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"))
    port = free_port()
    cmd = [sys.executable, "-m", "jupyter", "notebook", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={course}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    with open(tmp / "server.log", "w") as log:
        proc = subprocess.Popen(cmd, cwd=course, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: answering(base, f"/api/status?token={TOKEN}"), proc, tmp / "server.log",
                       "jupyter notebook", 90)
            yield base
        finally:
            stop(proc)  # the server shuts its kernel down


def _run_all_in_notebook7(page, notebook: Path) -> None:
    """Run All Cells from Notebook 7's Run menu; wait for every execution count, then for the kernel to be idle
    (Notebook 7 has no status bar: its toolbar names the kernel once it runs and shows its state)."""
    n_code = sum(c.cell_type == "code" for c in nbformat.read(notebook, as_version=4).cells)
    page.wait_for_function("() => !/No Kernel|starting/i.test(document.querySelector('.jp-KernelName').textContent)")
    # Notebook 7 (7.6) raises one error of its own while it starts, before any cell runs: its keyboard-shortcut
    # settings read the schema of a plugin not loaded yet ("reading 'schema'"). Reported here, not failed on;
    # from Run All on, the console must stay clean.
    print("Notebook 7's own start-up console errors:", page.console_errors)
    page.console_errors.clear()
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]')
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    page.wait_for_function(
        """n => { const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
                  return prompts.length === n && prompts.every(p => /\\[\\d+\\]/.test(p.textContent)); }""",
        arg=n_code, timeout=150_000)
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]', timeout=120_000)


def test_browser_a11y_lab_figures_have_their_alt_in_notebook7(lab_page, lab_server, notebook7_server):
    """Notebook 7 renders a picture's output with the same rendermime ranks as JupyterLab: the ``text/html`` form
    (an ``<img alt=...>``) wins over ``image/png``, whose renderer would drop the alt. A copy of the lab, so its
    kernel is its own and its cells start without execution counts."""
    _, course, lab = lab_server
    base = notebook7_server
    started = time.monotonic()
    copy = course / "work" / lab / f"{lab}-notebook7.ipynb"
    shutil.copy(course / "work" / lab / f"{lab}.ipynb", copy)
    failed: list[str] = []
    lab_page.on("response", lambda r: failed.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None)
    lab_page.goto(f"{base}/notebooks/work/{lab}/{copy.name}?token={TOKEN}")
    lab_page.wait_for_selector(".jp-Notebook .jp-Cell")
    app = lab_page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent).appName")
    assert app == "Jupyter Notebook", f"not Notebook 7's front end: {app}"
    _run_all_in_notebook7(lab_page, copy)
    assert not _errors_in_outputs(lab_page), _errors_in_outputs(lab_page)[:1]
    images = ".jp-OutputArea-output img"
    lab_page.locator(images).first.scroll_into_view_if_needed()
    alts = _alts(lab_page, images)
    assert alts and all(alt and alt.strip() for alt in alts), f"pictures without a text alternative: {alts}"
    assert any(TREE_ALT.search(alt) for alt in alts), f"no tree figure's alt carries its numbers: {alts}"
    tree = lab_page.locator(".jp-OutputArea-output[data-mime-type='text/html'] img[alt^='Game tree']").first
    assert tree.evaluate("i => i.complete && i.naturalWidth > 100"), "the tree figure is not drawn"
    _shot(lab_page, "browser-a11y-1b-notebook7.png")
    assert not failed, f"requests that failed: {failed}"
    _assert_clean_console(lab_page)
    print(f"Notebook 7: {len(alts)} pictures with their alt in {time.monotonic() - started:.1f} s")


def test_browser_a11y_stepper_works_from_the_keyboard_alone(lab_page, lab_server):
    base, course, _ = lab_server
    _open(lab_page, base, f"notebooks/{STEPPER_NOTEBOOK}")
    _run_all(lab_page, course / "notebooks" / STEPPER_NOTEBOOK)
    caption = lab_page.locator(".widget-html", has_text="stop 0 of").first
    caption.scroll_into_view_if_needed()
    live = lab_page.locator(f".widget-html {LIVE}").first
    stepper = _stepper_in_this_process()
    assert live.inner_text().strip() == stepper.describe(0)
    nxt = lab_page.locator("button.widget-button", has_text="next ▶").first
    nxt.focus()
    for step, key in ((1, "Enter"), (2, "Space")):  # focus stays on the button: no click, no mouse
        lab_page.keyboard.press(key)
        lab_page.locator(".widget-html", has_text=f"stop {step} of").first.wait_for()
        # what a screen reader is told: the stop's line with the trace's event numbers, in a polite live region
        assert live.inner_text().strip() == stepper.describe(step), (live.inner_text(), stepper.describe(step))
        assert f"(event {stepper.stops[step]} of {len(stepper.events)})" in live.inner_text()
    lab_page.keyboard.press("Shift+Tab")  # to "◀ previous"
    assert "previous" in lab_page.evaluate("() => document.activeElement.textContent")
    lab_page.keyboard.press("Enter")
    lab_page.locator(".widget-html", has_text="stop 1 of").first.wait_for()
    lab_page.keyboard.press("Tab")
    lab_page.keyboard.press("Tab")  # past "next ▶" to the stop number's box
    assert lab_page.evaluate("() => document.activeElement.tagName") == "INPUT"
    lab_page.keyboard.press("ArrowUp")
    lab_page.locator(".widget-html", has_text="stop 2 of").first.wait_for()
    lab_page.keyboard.press("Control+A")
    lab_page.keyboard.type("5")
    lab_page.keyboard.press("Enter")
    lab_page.locator(".widget-html", has_text="stop 5 of").first.wait_for()
    _wait_idle(lab_page)
    alt = lab_page.locator(".widget-html img[src^='data:image/png']").first.get_attribute("alt")
    assert alt and "after event" in alt and "Game tree" in alt, alt
    _shot(lab_page, "browser-a11y-2-stepper-keyboard.png")
    axe_panel(lab_page, "stepper-notebook-panel")
    _assert_clean_console(lab_page)


def test_browser_a11y_board_plays_from_the_keyboard_alone(lab_page, lab_server):
    base, course, _ = lab_server
    _open(lab_page, base, f"notebooks/{BOARD_NOTEBOOK}")
    _run_all(lab_page, course / "notebooks" / BOARD_NOTEBOOK)
    squares = lab_page.locator("button.widget-button[title^='row ']")
    squares.first.scroll_into_view_if_needed()
    assert squares.count() == 9
    lab_page.locator("button.widget-button[title='row 1, column 1: empty']").focus()
    lab_page.keyboard.press("Enter")
    lab_page.locator("button.widget-button[title='row 1, column 1: X']").wait_for()
    lab_page.wait_for_function("() => [...document.querySelectorAll(\"button.widget-button[title$=': O']\")].length == 1")
    assert _focused_title(lab_page) == "row 1, column 1: X", "focus stays on the square just played"
    message = lab_page.locator(f".widget-html {LIVE}").first  # the board's message is a polite live region
    assert message.inner_text().strip() == "You play X. Your move.", message.inner_text()
    for _ in range(9):  # Tab to the next empty square, then Space plays it
        lab_page.keyboard.press("Tab")
        if _focused_title(lab_page).endswith(": empty"):
            break
    square = _focused_title(lab_page)
    assert square.endswith(": empty"), square
    lab_page.keyboard.press("Space")
    lab_page.locator(f"button.widget-button[title='{square.replace(': empty', ': X')}']").wait_for()
    _wait_idle(lab_page)
    _shot(lab_page, "browser-a11y-3-board-keyboard.png")
    axe_panel(lab_page, "board-notebook-panel")
    _assert_clean_console(lab_page)


# -- the pages the project writes ------------------------------------------------------------

def _env(course: Path) -> dict:
    return dict(os.environ, COURSE_DB_URL="sqlite:///" + str(course.parent / "gradebook.db"),
                PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))


def _run(course: Path, *args: str, timeout: int = 900) -> None:
    done = subprocess.run([sys.executable, "-m", *args], cwd=course, env=_env(course), capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, " ".join(args) + "\n" + done.stdout[-3000:] + done.stderr[-3000:]


def _check_page(page, path: Path, name: str) -> dict[str, int]:
    page.goto(path.as_uri())
    page.wait_for_function("() => document.readyState === 'complete'")
    alts = _alts(page, "img")
    assert alts and all(alt and alt.strip() for alt in alts), f"{name}: pictures without a text alternative: {alts}"
    page.wait_for_function("() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    _shot(page, f"browser-a11y-{name}.png")
    return axe(page, name)


def test_browser_a11y_feedback_report_and_tournament_pages(lab_page, lab_server):
    """A class graded for real (feedback pages, class report) and a real tournament: alts everywhere, axe passes."""
    base, course, lab = lab_server
    source = course / "source" / lab / f"{lab}.ipynb"
    answers = solution_answers(source)
    first = next(iter(answers))
    wrong = dict(answers, **{first: answers[first] + "\n\nraise RuntimeError('not finished')\n"})
    for student, given in (("a11y_right", answers), ("a11y_wrong", wrong)):
        build_submission(ROOT / "release" / lab / f"{lab}.ipynb", given,
                         course / "submitted" / student / lab / f"{lab}.ipynb")
    _run(course, "coursetools", "grade", lab, "--jobs", "2")
    _run(course, "nbgrader", "generate_feedback", lab, "--force", "--log-level=ERROR", timeout=300)
    _run(course, "coursetools", "report", lab, timeout=300)
    t_source = ROOT / "source" / TOURNAMENT_LAB / f"{TOURNAMENT_LAB}.ipynb"
    for student in ("a11y_one", "a11y_two"):
        build_submission(ROOT / "release" / TOURNAMENT_LAB / f"{TOURNAMENT_LAB}.ipynb", solution_answers(t_source),
                         course / "submitted" / student / TOURNAMENT_LAB / f"{TOURNAMENT_LAB}.ipynb")
    _run(course, "coursetools", "tournament", TOURNAMENT_LAB, "--openings", "1", "--budget", "60",
         "--students", "a11y_one", "a11y_two")

    feedback = course / "feedback" / "a11y_right" / lab / f"{lab}.html"
    text = feedback.read_text()
    assert re.search(r'<img[^>]+alt="Game tree', text), "the feedback page's tree figure carries its alt"
    _check_page(lab_page, feedback, "feedback-page")
    _check_page(lab_page, course / "exports" / f"{lab}-misconceptions.html", "class-report")
    report_alt = lab_page.locator("img").first.get_attribute("alt")
    assert "students graded" in report_alt and "2 students graded" in report_alt, report_alt
    _check_page(lab_page, course / "exports" / f"{TOURNAMENT_LAB}-tournament.html", "tournament-page")
    assert "Elo ratings, best first: " in lab_page.locator("img").first.get_attribute("alt")
