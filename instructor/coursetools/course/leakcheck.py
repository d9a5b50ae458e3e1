"""Find solution and hidden-test text in files students see (release/, feedback/, the student edition)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import nbformat

BLOCKS = {
    "hidden": ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"),
    "solution": ("### BEGIN SOLUTION", "### END SOLUTION"),
}
MIN_LENGTH = 12  # shorter lines ("return v", "pass") are too common to mean anything


def private_lines(source_notebook: Path, kinds: tuple[str, ...] = ("hidden", "solution")) -> set[str]:
    """Stripped lines inside the `kinds` blocks of a source notebook that appear nowhere else in it."""
    nb = nbformat.read(source_notebook, as_version=4)
    inside: set[str] = set()
    outside: set[str] = set()
    for cell in nb.cells:
        block = None
        for line in cell.source.splitlines():
            s = line.strip()
            opened = [k for k, (begin, _) in BLOCKS.items() if s == begin]
            if opened:
                block = opened[0]
                continue
            if block and s == BLOCKS[block][1]:
                block = None
                continue
            (inside if block in kinds else outside).add(s)
    return {s for s in inside - outside if len(s) >= MIN_LENGTH}


def _strings(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def readable_text(path: Path) -> str:
    """What a reader of `path` sees: notebook strings, HTML without tags and entities, or the raw text."""
    raw = path.read_text(errors="replace")
    if path.suffix == ".ipynb":
        try:
            return "\n".join(_strings(json.loads(raw)))
        except ValueError:
            return raw
    if path.suffix in (".html", ".htm"):
        return raw + "\n" + html.unescape(re.sub(r"<[^>]+>", "", raw))
    return raw


def find_leaks(folder: Path, lines: set[str]) -> list[str]:
    """``"file: line"`` for every private line that is a whole line of a text file under `folder`."""
    leaks = []
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file()):
        if path.suffix in (".png", ".jpg", ".gif", ".pyc", ".db", ".zip"):
            continue
        seen = {line.strip() for line in readable_text(path).splitlines()}
        leaks.extend(f"{path}: {line}" for line in sorted(lines & seen))
    return leaks
