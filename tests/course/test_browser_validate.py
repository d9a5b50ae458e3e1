"""nbgrader's Validate button in a real browser, on the largest lab: save, then Validate, several times.

The server, the browser and the page come from test_browser.py. Lab 07 with its solutions filled in
and every output present (the notebook a student has when done) is opened in JupyterLab; each try
edits a solution cell, saves with Ctrl+S and clicks Validate at once, as a student does before
submitting. Each try must end in the "Validation Results" dialog, never in JupyterLab's "File
Changed" dialog (which asks the student to Revert or Overwrite their own work).

Why it appeared (6 of 10 tries here without the fix): nbgrader's Validate button saves the notebook
itself, then validates it (the server only reads the file). JupyterLab checks before each save that
the file on disk has the hash of its own last save, and learns the new hash only when a save ends;
Ctrl+S then Validate starts a second save while the first is still writing, which finds the first
one's file and asks. The fix is the course-save-queue JupyterLab extension
(instructor/labextensions/, installed by `make setup`): saves of one notebook run one after the other.
COURSE_VALIDATE_TRIES sets the number of tries (6).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from test_browser import ROOT, _assert_clean_console, _open, _shot, chromium, lab_page, lab_server

from coursetools.quality.bank import solution_answers
from coursetools.quality.submission import build_submission

__all__ = ["chromium", "lab_page", "lab_server"]  # fixtures shared with test_browser.py

pytestmark = pytest.mark.slow

LAB = "07_mcts"
TRIES = int(os.environ.get("COURSE_VALIDATE_TRIES", "6"))
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def _completed_lab(course) -> str:
    """work/07_mcts/07_mcts.ipynb: the release with the solutions, run top to bottom; its path in the server."""
    work = course / "work" / LAB
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(ROOT / "release" / LAB, work)
    notebook = work / f"{LAB}.ipynb"
    build_submission(ROOT / "release" / LAB / f"{LAB}.ipynb", solution_answers(ROOT / "source" / LAB / f"{LAB}.ipynb"),
                     notebook)
    nb = nbformat.read(notebook, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(work)}}).execute()
    nbformat.write(nb, notebook)
    return f"work/{LAB}/{LAB}.ipynb"


@pytest.mark.skipif(not (ROOT / "release" / LAB).is_dir(), reason="lab 07 is not released")
def test_browser_save_then_validate_never_asks_to_revert_or_overwrite(lab_page, lab_server):
    base, course, _ = lab_server
    path = _completed_lab(course)
    size = (course / path).stat().st_size
    clashes = []  # JupyterLab's own words when a save finds a file it did not write
    lab_page.on("console", lambda m: clashes.append(m.text) if m.type == "warning" and (
        "Different hash found" in m.text or "Last saving performed" in m.text) else None)
    _open(lab_page, base, path)
    assert lab_page.evaluate("() => Boolean(window._JUPYTERLAB && window._JUPYTERLAB['course-save-queue'])"), \
        "the course-save-queue JupyterLab extension is not installed: run `make setup`"
    code = [c for c in nbformat.read(course / path, as_version=4).cells if c.cell_type == "code"]
    first_answer = next(i for i, c in enumerate(code) if c.metadata.get("nbgrader", {}).get("solution"))
    solution = lab_page.locator(f"{PANEL} .jp-CodeCell").nth(first_answer)
    button = lab_page.locator(f"{PANEL} .validate-button")
    button.wait_for()
    seen = []
    for i in range(TRIES):
        solution.locator(".cm-content").click()
        lab_page.keyboard.press("Control+End")
        lab_page.keyboard.type(f"\n# try {i}")
        start = time.monotonic()
        lab_page.keyboard.press("Control+s")
        button.click()
        dialog = lab_page.locator(".jp-Dialog-header").filter(has_text="Validation Results").or_(
            lab_page.locator(".jp-Dialog-header").filter(has_text="File Changed"))
        dialog.first.wait_for(timeout=240_000)
        title = dialog.first.inner_text().strip()
        seen.append((title, round(time.monotonic() - start, 1)))
        if title != "Validation Results":
            _shot(lab_page, f"browser-validate-{i}-file-changed.png")
            lab_page.locator(".jp-Dialog-button").filter(has_text="Overwrite").click()
            lab_page.locator(".jp-Dialog-header").filter(has_text="Validation Results").wait_for(timeout=240_000)
        lab_page.locator(".jp-Dialog-button").filter(has_text="Ok").click()
        lab_page.locator(".jp-Dialog").wait_for(state="detached")
    print(f"\n{LAB}.ipynb: {size / 1e6:.1f} MB; tries (dialog, seconds): {seen}; clashes: {clashes}")
    assert [t for t, _ in seen] == ["Validation Results"] * TRIES, seen
    assert not clashes, clashes
    assert _saved_text(course / path, [f"# try {i}" for i in range(TRIES)]), "every edit was saved"
    _assert_clean_console(lab_page)


def _saved_text(path: Path, wanted: list[str], seconds: float = 60.0) -> bool:
    """Whether the notebook on disk holds every text of `wanted`, waiting for a save still being written (the
    file is empty or cut short while the server writes it) for up to `seconds`."""
    end = time.monotonic() + seconds
    while True:
        try:
            text = "".join(c.source for c in nbformat.read(path, as_version=4).cells)
            if all(w in text for w in wanted):
                return True
        except (ValueError, OSError):  # nbformat's NotJSONError is a ValueError: a save is under way
            pass
        if time.monotonic() > end:
            return False
        time.sleep(0.5)
