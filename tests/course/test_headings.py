"""One heading order in every lab and note: a single title, then no level skipped (screen readers navigate by it)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADING = re.compile(r"^(#{1,6})\s+(\S.*)")
HTML_HEADING = re.compile(r"<h([1-6])\b", re.IGNORECASE)
NOTEBOOKS = sorted(p for folder in ("source", "release", "notebooks") for p in (ROOT / folder).rglob("*.ipynb")
                   if ".ipynb_checkpoints" not in p.parts)


def headings(path: Path) -> list[tuple[int, int, str]]:
    """``(cell index, level, text)`` of the markdown headings, outside fenced code."""
    found = []
    for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
        if cell.cell_type != "markdown":
            continue
        fenced = False
        for line in cell.source.splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            elif not fenced and (m := HEADING.match(line)):
                found.append((index, len(m.group(1)), m.group(2)))
            elif not fenced and (h := HTML_HEADING.search(line)):
                found.append((index, int(h.group(1)), line.strip()))
    return found


def order_problems(found: list[tuple[int, int, str]]) -> list[str]:
    """What breaks the order: no title or several, a first heading below the title, a skipped level."""
    problems = []
    titles = [h for h in found if h[1] == 1]
    if len(titles) != 1:
        problems.append(f"{len(titles)} level-1 titles (cells {[h[0] for h in titles]}), one expected")
    if found and found[0][1] != 1:
        problems.append(f"cell {found[0][0]}: the first heading is level {found[0][1]}, not the title")
    for (_, before, _), (index, level, text) in zip(found, found[1:]):
        if level > before + 1:
            problems.append(f"cell {index}: level {before} then {level} ({text[:50]!r}) skips a level")
    return problems


def test_the_checker_sees_a_skip_and_a_second_title():
    assert order_problems([(0, 1, "Lab"), (1, 2, "Goals"), (2, 4, "Detail")]) == [
        "cell 2: level 2 then 4 ('Detail') skips a level"]
    assert order_problems([(0, 2, "Goals"), (1, 1, "Lab"), (2, 1, "Again")])[:2] == [
        "2 level-1 titles (cells [1, 2]), one expected", "cell 0: the first heading is level 2, not the title"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_has_one_title_and_no_skipped_level(path):
    found = headings(path)
    assert found, f"{path.relative_to(ROOT)} has no heading at all"
    assert not order_problems(found), f"{path.relative_to(ROOT)}: " + "; ".join(order_problems(found))
