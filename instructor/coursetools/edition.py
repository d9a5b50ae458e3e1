"""``make student-edition``: the folder students may see, and nothing else.

It holds exactly ``release/`` (the labs without solutions or hidden tests), ``notebooks/``
(companion notebooks), ``course_lib/`` with the ``pyproject.toml`` that installs it, and a
README written for students. Everything private stays behind: ``source/``, the
gradebook, ``submitted/``, ``autograded/``, ``feedback/``, ``instructor/`` (hidden-test
checks), the bug bank and the demo class.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .leakcheck import find_leaks, private_lines

CONTENTS = ("release", "notebooks", "course_lib", "pyproject.toml", "README.md")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.egg-info", ".pytest_cache")

STUDENT_README = """\
# Adversarial search: the labs

Jupyter labs on game trees, minimax, alpha-beta, move ordering, heuristics and games
with chance or more players. You write the searches yourself; every lab checks your
code with visible tests and then draws what *your* code did.

## Start

- **Google Colab**: open a notebook from `release/`; its first cell installs what it needs.
- **Your machine** (Python 3.10+): `python -m venv .venv`, activate it, then
  `pip install -e .` in this folder and `jupyter lab`.

## The labs

{labs}

Each lab lists its graded functions and their points at the top. Write your code where
it says `YOUR CODE HERE`, run the tests below it, and keep the test cells as they are.
When you are done, restart the kernel and run everything once more, then hand in the
notebook as your course asks (nbgrader's *Submit* button, or upload the `.ipynb` file).
Your grade also counts tests you do not see; their results come back in your feedback.

## What is here

| folder | what it holds |
|---|---|
| `release/` | the labs |
| `notebooks/` | companion notebooks from the lectures |
| `course_lib/` | the games and the search traces the labs use (`pip install -e .`) |
"""


def build_student_edition(root: Path, out: Path | None = None) -> Path:
    """Write the student edition of the course at `root` into `out` (default build/student-edition)."""
    root = Path(root)
    out = Path(out) if out else root / "build" / "student-edition"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in ("release", "notebooks", "course_lib"):
        if (root / name).is_dir():
            shutil.copytree(root / name, out / name, ignore=IGNORE)
        else:
            (out / name).mkdir()
    shutil.copy(root / "pyproject.toml", out / "pyproject.toml")
    labs = sorted(p for p in (out / "release").iterdir() if p.is_dir())
    listing = "\n".join(f"- `release/{p.name}/`" for p in labs) or "- (no lab released yet)"
    (out / "README.md").write_text(STUDENT_README.format(labs=listing))
    sources = sorted((root / "source").rglob("*.ipynb"))
    # hidden tests are distinctive: none of their lines may appear anywhere; solution lines are
    # checked in the labs (course_lib legitimately shares generic lines such as "return state.to_move")
    leaks = [leak for nb in sources for leak in find_leaks(out, private_lines(nb, kinds=("hidden",)))]
    # (each lab against its own solutions: a later lab may hand out an earlier lab's answer)
    leaks += [leak for nb in sources if (out / "release" / nb.parent.name).is_dir()
              for leak in find_leaks(out / "release" / nb.parent.name, private_lines(nb, kinds=("solution",)))]
    if leaks:
        shutil.rmtree(out)
        raise RuntimeError("solution or hidden-test text would reach students:\n" + "\n".join(leaks[:20]))
    return out
