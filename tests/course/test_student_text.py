"""Student-facing text stands on its own: it never points at documents the course does not ship.

Students read the release labs, the companion notebooks, `course_lib`'s docstrings and the messages
of the hidden checks. None of them may refer to "the origin lab", "the lab report", "the
assignment", "the binary-tree notes", "a popular notebook" and the like: a student cannot open
those. A claim that needs a source cites a public one by name (for example AIMA-python).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Phrases that point at a document the student never saw. Case-insensitive.
FORBIDDEN = [
    r"\borigin(?:al)?(?:'s)?\s+(?:lab|labs|notebook|notes|material|assignment|experiment|picture|pictures"
    r"|report|course|order|example|code|version|tree|diagrams?)\b",
    r"\b(?:an?|one|that|this)\s+origin\b",
    r"\borigin's\b",
    r"\blab\s+report\b",
    r"\b(?:the|that|this|an?|our|food-gathering)\s+assignment\b",
    r"\bassignment's\b",
    r"\bbinary-tree\s+(?:notes|notebook|lab)\b",
    r"\btic-tac-toe\s+lab\b",
    r"\b(?:a|one|another|some)\s+(?:popular|well-known|famous)\s+(?:notebook|course|lab|tutorial|blog)\b",
    r"\bthe\s+(?:popular|well-known)\s+notebook\b",
    r"\b(?:the|an?)\s+(?:source|background)\s+(?:material|document)s?\b",
]
PATTERN = re.compile("|".join(f"(?:{p})" for p in FORBIDDEN), re.IGNORECASE)

#: Sentences from earlier versions of the course: the list above must catch each of them.
CAUGHT_BEFORE = [
    "`return` inside the loop (the origin lab's bug).",
    "a return inside the loop over the rows (the origin lab's Tic-Tac-Toe bug)",
    "Below is the 16-leaf tree of the binary-tree notes: MAX (`P1.i`) at the root",
    "The fix of the Tic-Tac-Toe lab scores a terminal state by how soon it comes",
    "A popular notebook stored every value as exact.",
    "(the origin lab counted 18,297 nodes visited)",
    "The tree of the binary-tree notebook: leaves `7 6 2 8 8 7 1 3 0 7 7 8 8 8 2 3`",
    "The leaf list `3 5 2 9 12 5 23 24` of the lab report",
    "The food-gathering game of the assignment: two players",
    "The two-player grid game of the food-gathering assignment",
    "origin material's wrong pictures corrected",
    "from an origin assignment: two players walk on a grid",
    "The origin assignment's guess is 0",
    "a classic bug from an origin lab",
    "One origin lab's minimax had its `return` one indentation level too deep",
    "## 2. The origin experiment: Tic-Tac-Toe from the empty board",
    "the opposite of the origin's order",
    "as in the origin notebook; leaves are `L.0` to `L.15`.",
    "## 5. Three pictures of the origin material, corrected",
    "In one origin picture the MAX root carried 6",
    "labelled ``P1.i``/``P2.i`` like the origin notebook.",
]

#: Ordinary sentences that must stay allowed.
ALLOWED = [
    "The origin of the plot is the root.",
    "Each lab is an nbgrader assignment in `source/`.",
    "AIMA-python's transposition table stores a bound flag with each value.",
]


def student_texts() -> list[tuple[str, str]]:
    """(where, text) for every piece of text a student reads."""
    out: list[tuple[str, str]] = []
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "release").glob("*/*.ipynb"))
    notebooks += sorted((ROOT / "source").glob("*/*.ipynb"))  # the hidden tests' messages live here
    for path in notebooks:
        if ".ipynb_checkpoints" in path.parts:
            continue
        for i, cell in enumerate(nbformat.read(path, as_version=4).cells):
            out.append((f"{path.relative_to(ROOT)} cell {i}", cell.source))
    for path in sorted((ROOT / "course_lib").rglob("*.py")):
        out.append((str(path.relative_to(ROOT)), path.read_text()))
    for path in sorted((ROOT / "instructor" / "coursetools" / "checks").rglob("*.py")):
        out.append((str(path.relative_to(ROOT)), path.read_text()))  # hints, and the comments beside them
    return out


def references(text: str) -> list[str]:
    """The forbidden phrases in `text`, with a little context."""
    flat = re.sub(r"\s+", " ", text)
    return [flat[max(0, m.start() - 30):m.end() + 30] for m in PATTERN.finditer(flat)]


@pytest.mark.parametrize("sentence", CAUGHT_BEFORE)
def test_the_list_catches_the_old_references(sentence):
    assert references(sentence), f"not caught: {sentence!r}"


@pytest.mark.parametrize("sentence", ALLOWED)
def test_the_list_lets_ordinary_sentences_through(sentence):
    assert not references(sentence), references(sentence)


def test_student_texts_are_found():
    where = [w for w, _ in student_texts()]
    assert any(w.startswith("release/03_alphabeta") for w in where)
    assert any(w.startswith("notebooks/03_alphabeta_step_by_step") for w in where)
    assert any(w.startswith("course_lib/draw.py") for w in where)
    assert any(w.startswith("instructor/coursetools/checks/lab03/reference.py") for w in where)


def test_no_student_text_refers_to_material_the_course_does_not_ship():
    found = [f"{where}: ...{hit}..." for where, text in student_texts() for hit in references(text)]
    assert not found, "student-facing text refers to documents students never see:\n" + "\n".join(found)
