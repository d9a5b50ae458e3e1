"""Accessibility in a real browser: text alternatives in JupyterLab's DOM, keyboard-only widgets, axe-core.

The server, the browser and the page come from test_browser.py. A lab with its solutions runs in
JupyterLab 4; every picture in its outputs must reach the page as an ``<img>`` with the alt text
course_lib wrote from the trace. The alpha-beta stepper and the Tic-Tac-Toe board are driven with
the keyboard alone (Tab, Enter, Space, arrow keys). axe-core (the copy bundled with
axe-playwright-python) checks the notebook panel, and the pages the project writes: a student's
feedback page and the class report of a lab graded for real, and the page of a real class
tournament; none may have a violation of serious or critical impact. The counts of every impact
are printed (``-s``) and saved in test-artifacts/axe-*.json.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_browser import (
    ARTIFACTS, BOARD_NOTEBOOK, ROOT, STEPPER_NOTEBOOK, _assert_clean_console, _errors_in_outputs, _open, _run_all,
    _shot, _wait_idle, chromium, lab_page, lab_server,
)

from coursetools.quality.bank import solution_answers
from coursetools.quality.submission import build_submission

__all__ = ["chromium", "lab_page", "lab_server"]  # fixtures shared with test_browser.py

pytestmark = pytest.mark.slow

PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# What the course puts into the panel: rendered markdown and every output (figures, widgets, text). JupyterLab's
# own parts of the panel (its CodeMirror editors, the cell list, the toolbar) have serious and critical violations
# that no notebook can change; they are counted (strict=False) and saved, not failed on.
CONTENT = {"include": [[f"{PANEL} .jp-MarkdownOutput"], [f"{PANEL} .jp-OutputArea"]]}
BLOCKING = ("serious", "critical")
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


def axe(page, name: str, context: str | dict | None = None, *, strict: bool = True) -> dict[str, int]:
    """Run axe-core on the page (or the elements `context` selects); save the violations; counts per impact.

    With `strict`, a violation of serious or critical impact fails the test.
    """
    page.evaluate(_axe_source())  # through the DevTools protocol: a page's Content-Security-Policy does not apply
    result = page.evaluate("ctx => axe.run(ctx || document, {resultTypes: ['violations']})", context)
    counts = {impact: 0 for impact in ("minor", "moderate", "serious", "critical")}
    for v in result["violations"]:
        counts[v["impact"]] = counts.get(v["impact"], 0) + len(v["nodes"])
    ARTIFACTS.mkdir(exist_ok=True)
    summary = [{"rule": v["id"], "impact": v["impact"], "help": v["help"], "nodes": len(v["nodes"]),
                "first": v["nodes"][0]["html"][:300], "why": v["nodes"][0]["failureSummary"][:500],
                "each": sorted({n["failureSummary"].split("\n")[1][:200] + " | " + n["html"][:120]
                                for n in v["nodes"]})[:20]}
               for v in result["violations"]]
    (ARTIFACTS / f"axe-{name}.json").write_text(json.dumps({"counts": counts, "violations": summary}, indent=1))
    print(f"axe {name}: {counts}")
    blocking = [s for s in summary if s["impact"] in BLOCKING]
    assert not (strict and blocking), f"axe-core on {name}: " + json.dumps(blocking, indent=1)
    return counts


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
    axe(lab_page, "lab-notebook-panel-all", PANEL, strict=False)
    axe(lab_page, "lab-notebook-panel", CONTENT)
    _assert_clean_console(lab_page)


def test_browser_a11y_stepper_works_from_the_keyboard_alone(lab_page, lab_server):
    base, course, _ = lab_server
    _open(lab_page, base, f"notebooks/{STEPPER_NOTEBOOK}")
    _run_all(lab_page, course / "notebooks" / STEPPER_NOTEBOOK)
    caption = lab_page.locator(".widget-html", has_text="stop 0 of").first
    caption.scroll_into_view_if_needed()
    nxt = lab_page.locator("button.widget-button", has_text="next ▶").first
    nxt.focus()
    for step, key in ((1, "Enter"), (2, "Space")):  # focus stays on the button: no click, no mouse
        lab_page.keyboard.press(key)
        lab_page.locator(".widget-html", has_text=f"stop {step} of").first.wait_for()
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
    axe(lab_page, "stepper-notebook-panel-all", PANEL, strict=False)
    axe(lab_page, "stepper-notebook-panel", CONTENT)
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
    axe(lab_page, "board-notebook-panel-all", PANEL, strict=False)
    axe(lab_page, "board-notebook-panel", CONTENT)
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
