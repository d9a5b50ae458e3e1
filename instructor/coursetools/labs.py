"""The course's labs: the one list, in the order students meet them.

Everything that needs the labs reads them here (release, stamp, golden traces, banks, mutants, the
demo, the benchmarks and the tests). A lab ``NN_name`` has its notebook at
``source/NN_name/NN_name.ipynb`` (its student version under ``release/``), its hidden checks in
``coursetools/checks/labNN/`` and its bug bank in ``bank/NN_name/``; `tests/test_contracts.py` holds
the folders to this list. Scratch courses made by the tests (`coursetools.quality.toycourse`) hold
labs of their own: `labs_in` lists what a course folder has.

>>> LABS[0], LABS[-1]
('01_game_trees', '08_learning')
>>> checks_module("03_alphabeta")
'coursetools.checks.lab03'
"""

from __future__ import annotations

from pathlib import Path

LABS: tuple[str, ...] = (
    "01_game_trees",
    "02_minimax",
    "03_alphabeta",
    "04_move_ordering",
    "05_heuristics",
    "06_beyond_two_players",
    "07_mcts",
    "08_learning",
)


def checks_module(lab: str) -> str:
    """The dotted name of `lab`'s hidden checks: ``coursetools.checks.labNN`` for ``NN_name``."""
    return f"coursetools.checks.lab{lab[:2]}"


def source_notebook(root: Path, lab: str) -> Path:
    """The nbgrader source of `lab` in the course folder `root`."""
    return root / "source" / lab / f"{lab}.ipynb"


def release_notebook(root: Path, lab: str) -> Path:
    """The student version of `lab` in the course folder `root`."""
    return root / "release" / lab / f"{lab}.ipynb"


def labs_in(root: Path) -> list[str]:
    """The labs whose source notebook is in `root`: the course's in `LABS` order, then any others
    (a scratch course's own) by name."""
    source = root / "source"
    present = sorted(p.name for p in source.iterdir() if p.is_dir() and any(p.glob("*.ipynb"))) \
        if source.is_dir() else []
    return [lab for lab in LABS if lab in present] + [lab for lab in present if lab not in LABS]
