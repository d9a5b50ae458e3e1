"""What a student wrote is inert in every page built from a graded notebook (coursetools.grading.sanitize).

A notebook with the five payloads of issue 22 (a script in an HTML output, an ``<img onerror>``, a
JavaScript output, raw HTML in a markdown answer, an SVG with ``onload`` and a script) beside an honest
PNG figure and maths goes through the sanitiser, then through nbconvert with the course's feedback
template and with formgrader's own template; an HTML parser finds no script of the student's, no
event handler, no ``javascript:`` URL, no iframe and no form in either page, and the figure and the
maths are still there. The pages the project writes itself carry a Content-Security-Policy that
allows exactly the scripts they ship. The browser test (tests/course/test_browser.py) runs the same
payloads through the real grading pipeline in Chromium.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import os
import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from nbconvert import HTMLExporter
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

import coursetools.grading
from coursetools.grading import report
from coursetools.grading.sanitize import PAGE_CSP, sanitize_markdown, sanitize_notebook

PNG = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005"
    "0001ff0d0a2db40000000049454e44ae426082")).decode()
SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="window.x=1"><script>window.x=2</script><circle r="4"/></svg>'
ANSWER = "Alpha-beta visits $O(b^{d/2})$ nodes <script>window.x=3</script><img src=x onerror='window.x=4'>."
HONEST = "With perfect ordering alpha-beta visits about $b^{d/2}$ nodes, so $b^* = \\sqrt{b}$ and `v <= alpha` cuts."
FORMGRADER = os.path.join(os.path.dirname(__import__("nbgrader").__file__), "server_extensions", "formgrader")


def _payload_notebook() -> nbformat.NotebookNode:
    code = new_code_cell("display(...)", outputs=[
        new_output("display_data", data={"text/html": "<b>hi</b><script>window.x=5</script>",
                                          "text/plain": "<IPython.core.display.HTML object>"}),
        new_output("display_data", data={"text/html": "<img src=x onerror=\"fetch('/api/contents')\">"}),
        new_output("display_data", data={"application/javascript": "window.x=6", "text/plain": "<Javascript>"}),
        new_output("display_data", data={"image/svg+xml": SVG, "text/plain": "<SVG>"}),
        new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"},
                   metadata={"image/png": {"width": "1 onerror=alert(1)", "height": 20}}),
        new_output("execute_result", data={"text/latex": "$x</div><script>window.x=7</script>$",
                                            "text/markdown": "[a](javascript:alert(1)) <iframe src=/api></iframe>",
                                            "text/plain": "x"}, execution_count=1),
        new_output("stream", name="stdout", text="<script>window.x=8</script>\n"),
    ])
    form = new_markdown_cell('<form action="/api/contents"><button>go</button></form> <a href=" javascript:x">y</a>')
    return new_notebook(cells=[new_markdown_cell(ANSWER), code, form, new_markdown_cell(HONEST)])


class _Page(HTMLParser):
    """The scripts, event handlers, URLs and active tags of a page, as found by Python's HTML parser."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict, str]] = []
        self.bad: list[str] = []
        self.images: list[str] = []
        self._script: dict | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self._script, self._text = attrs, []
        if tag in ("iframe", "form", "object", "embed", "svg", "frame", "base", "input", "button"):
            self.bad.append(tag)
        for name, value in attrs.items():
            if name.startswith("on"):
                self.bad.append(f"{tag} {name}")
            if value and re.sub(r"[\x00-\x20]", "", value).lower().startswith(("javascript:", "vbscript:")):
                self.bad.append(f"{tag} {name}={value}")
        if tag == "img":
            self.images.append(attrs.get("src") or "")

    def handle_data(self, data):
        if self._script is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._text)))
            self._script = None


def _parse(page: str) -> _Page:
    parsed = _Page()
    parsed.feed(page)
    parsed.close()
    return parsed


def _render(nb: nbformat.NotebookNode, template: str) -> str:
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)
    exporter = HTMLExporter(
        template_name=template,
        extra_template_basedirs=[os.path.join(os.path.dirname(coursetools.grading.__file__), "feedback_templates"),
                                 os.path.join(FORMGRADER, "templates")],
        extra_template_paths=[os.path.join(FORMGRADER, "static", "node_modules", "bootstrap", "dist", "css")])
    resources = {"nbgrader": {"notebook": "lab", "score": 1, "max_score": 2, "late_penalty": 0},
                 "base_url": "", "index": 0, "total": 1, "mathjax_url": "", "notebook_id": "lab", "assignment_id": "lab",
                 "student": "s", "submission_id": "x"}
    return exporter.from_notebook_node(nb, resources=resources)[0]


def test_sanitised_notebook_shows_no_script_in_the_feedback_page_or_formgrader():
    raw = _payload_notebook()
    before = _parse(_render(nbformat.from_dict(raw), "feedback"))
    assert before.bad and len(before.scripts) > 2, "the payloads are live without the sanitiser"

    nb = sanitize_notebook(nbformat.from_dict(raw))
    nbformat.validate(nb)
    buffer = io.StringIO()
    nbformat.write(nb, buffer)  # the autograded notebook still writes
    for template in ("feedback", "formgrade"):
        page = _render(nbformat.from_dict(nb), template)
        parsed = _parse(page)
        own = _parse(_render(new_notebook(cells=[new_markdown_cell("x"), new_code_cell("y")]), template)).bad
        assert not [b for b in parsed.bad if b not in own], (template, parsed.bad)  # formgrader's own buttons
        student_scripts = [t for _a, t in parsed.scripts if "window.x" in t or "fetch(" in t]
        assert not student_scripts, (template, student_scripts)
        assert f"data:image/png;base64,{PNG}" in parsed.images, "the figure stays"
        assert all(src.startswith("data:image/png") for src in parsed.images if src), parsed.images
        assert "$b^{d/2}$" in page and "$b^* = \\sqrt{b}$" in page, "the maths stay"
        assert "v &lt;= alpha" in page
    outputs = nb.cells[1].outputs
    assert "application/javascript" not in outputs[2].data and "removed by the grader" in outputs[2].data["text/plain"]
    assert "image/svg+xml" not in outputs[3].data
    assert outputs[4].metadata == {"image/png": {"height": 20}}, "a size that is not a number is dropped"
    assert outputs[6].text == "<script>window.x=8</script>\n", "streams stay as text (pages escape them)"


def test_markdown_without_html_is_left_as_it_is():
    for text in (HONEST, "> a quote\n\n| a | b |\n|---|---|\n| 1 < 2 | $x>y$ |", "See [AIMA](https://aima.cs.berkeley.edu).",
                 "<b>bold</b> and <details><summary>hint</summary>more</details>"):
        assert sanitize_markdown(text) == text
    cleaned = sanitize_markdown(ANSWER)
    assert "$O(b^{d/2})$" in cleaned and "script" not in cleaned and "onerror" not in cleaned


def _csp(page: str) -> dict[str, list[str]]:
    found = re.search(r"""<meta[^>]*http-equiv=["']Content-Security-Policy["'][^>]*>""", page)
    assert found, "the page has a Content-Security-Policy"
    content = re.search(r'content="([^"]*)"', found.group(0)).group(1)
    return {d.split()[0]: d.split()[1:] for d in content.split(";") if d.strip()}


def test_feedback_page_allows_exactly_the_scripts_it_ships():
    page = _render(sanitize_notebook(_payload_notebook()), "feedback")
    csp = _csp(page)
    assert csp["default-src"] == ["'none'"] and csp["img-src"] == ["data:"] and "'unsafe-inline'" not in csp["script-src"]
    allowed = set(csp["script-src"])
    for attrs, text in _parse(page).scripts:
        if attrs.get("src"):
            assert attrs["src"] in allowed, attrs["src"]
        else:
            digest = "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
            assert digest in allowed, f"inline script not allowed by its hash: {text[:80]}"
    assert len(allowed) == 2, allowed


def test_class_report_page_runs_no_script():
    cmap = report.ClassMap(lab="01_game_trees", students=["<img src=x onerror=alert(1)>"], tests=[], mistakes=[],
                           links={"<img src=x onerror=alert(1)>": "javascript:alert(2)"})
    page = report.page(cmap, "map.png")
    csp = _csp(page)
    assert csp["default-src"] == ["'none'"] and "script-src" not in csp and csp["img-src"] == ["'self'", "data:"]
    assert " ".join(f"{k} {' '.join(v)}" for k, v in csp.items()) == PAGE_CSP.replace(";", "")
    assert not _parse(page).scripts


@pytest.mark.skipif(not Path("/usr/bin/bwrap").exists(), reason="bubblewrap is not installed")
def test_tournament_page_shows_a_fault_message_as_text_and_runs_no_script(tmp_path):
    """An agent whose exception message is HTML loses by a fault; the page shows the message as text."""
    from coursetools.course.labfiles import solution_answers
    from coursetools.quality.submission import build_submission
    from coursetools.tournament.runner import Tournament, write

    lab, root = "05_heuristics", Path(__file__).resolve().parents[2]
    solutions = solution_answers(root / "source" / lab / f"{lab}.ipynb")
    payload = "<script>window.x=1</script><img src=x onerror=alert(1)>"
    for student, extra in (("honest", ""), ("scripter", f"""
_mine = isolation_improved
def isolation_improved(state, player):
    if bin(state.blocked).count('1') >= 5:
        raise ValueError({payload!r})
    return _mine(state, player)
""")):
        answers = dict(solutions, isolation_improved=solutions["isolation_improved"].rstrip() + "\n" + extra)
        build_submission(root / "release" / lab / f"{lab}.ipynb", answers,
                         tmp_path / "submitted" / student / lab / f"{lab}.ipynb")
    t = Tournament(tmp_path, lab, seed="test", openings=1, budget=60, move_seconds=1.0, progress=None).run()
    assert next(p for p in t.players if p.key == "scripter").faults, "the agent lost by its exception"
    page = write(t)["html"].read_text()
    assert _csp(page)["default-src"] == ["'none'"] and "script-src" not in _csp(page)
    parsed = _parse(page)
    assert not parsed.scripts and not parsed.bad, (parsed.scripts, parsed.bad)
    assert html.escape(payload)[:40] in page, "the message is shown, escaped"


def _images(page: str) -> list[dict]:
    """The attributes of every <img> of a page."""
    found: list[dict] = []
    parser = HTMLParser()
    parser.handle_starttag = lambda tag, attrs: found.append(dict(attrs)) if tag == "img" else None
    parser.feed(page)
    return found


def test_a_pictures_alt_text_stays_and_reaches_the_page_escaped():
    """course_lib's figures carry `alt` in the PNG's metadata: it survives, and a hostile one stays text."""
    from coursetools.grading.sanitize import sanitize_output

    png = base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()
    for alt in ("Game tree: MAX to move, value 7; 31 nodes", 'x" onerror="alert(1)'):
        out = nbformat.v4.new_output("display_data", data={"image/png": png},
                                     metadata={"image/png": {"alt": alt, "width": 10, "onload": "x"}})
        clean = sanitize_output(out)
        assert clean.metadata["image/png"] == {"alt": alt, "width": 10}
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[clean])])
        page, _ = HTMLExporter(template_name="classic").from_notebook_node(nb)
        images = _images(page)
        assert [i["alt"] for i in images] == [alt], images
        assert not [k for i in images for k in i if k.startswith("on")], images
