"""Checks on the committed notebooks: no outputs, no execution counts."""

from __future__ import annotations

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
