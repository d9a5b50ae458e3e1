"""Checks on the notebooks: committed ones carry no outputs or execution counts; run ones show no picture without
a text alternative."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat


def notebooks_under(*folders: Path) -> list[Path]:
    """Every .ipynb below `folders`, skipping checkpoints, sorted."""
    out = []
    for folder in folders:
        if folder.is_dir():
            out.extend(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    return sorted(out)


def dirty_cells(path: Path) -> list[str]:
    """Descriptions of the code cells of `path` that carry outputs or execution counts."""
    nb = nbformat.read(path, as_version=4)
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if cell.get("outputs"):
            problems.append(f"{path}: cell {i} has outputs")
        if cell.get("execution_count") is not None:
            problems.append(f"{path}: cell {i} has an execution count")
    return problems


_ALT = re.compile(r"<img\b[^>]*\balt=\"([^\"]*)\"", re.IGNORECASE)


def pictures_without_alt(nb: nbformat.NotebookNode) -> list[str]:
    """Each image output of a run notebook that carries no text alternative: neither an ``alt`` in the image's
    metadata (what nbconvert reads) nor an ``<img alt=...>`` beside it (what JupyterLab, Notebook 7, VS Code and
    Colab put in the page), as ``cell N``."""
    missing = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            images = [mime for mime in data if mime.startswith("image/")]
            if not images:
                continue
            meta = out.get("metadata", {})
            in_meta = all(str(meta.get(mime, {}).get("alt", "")).strip() for mime in images)
            in_html = any(alt.strip() for alt in _ALT.findall(str(data.get("text/html", ""))))
            if not (in_meta and in_html):
                missing.append(f"cell {i}")
    return missing
