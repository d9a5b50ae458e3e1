"""``make student-edition``: the folder students may see, and nothing else: the published repository.

It holds exactly ``release/`` (the labs without solutions or hidden tests), ``notebooks/``
(companion notebooks), ``course_lib/`` with a ``pyproject.toml`` that builds the package
students install (the instructor's tool settings left out), the licence, a ``.gitignore``
and a README written for students, with an "Open in Colab" badge for every notebook.
Everything private stays behind: ``source/``, the gradebook, ``submitted/``,
``autograded/``, ``feedback/``, ``instructor/`` (hidden-test checks), the bug bank and the
demo class. The folder is ready to push as the repository ``[tool.course]`` names; where
`out` is a clone of that repository its ``.git`` is kept, so the next version is one
commit and one tag on top of the last.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from coursetools.course.leakcheck import find_leaks, private_lines
from coursetools.course.stamp import checked_config, notebook_title

CONTENTS = ("release", "notebooks", "course_lib", "pyproject.toml", "LICENSE", "README.md", ".gitignore")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.egg-info", ".pytest_cache")
# The tables of pyproject.toml the package needs; the rest configures the instructor's tools.
PACKAGE_TABLES = ("build-system", "project", "project.urls", "project.optional-dependencies", "tool.setuptools")
GITIGNORE = ".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\nbuild/\ndist/\n"
BADGE = "[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]"

STUDENT_README = """\
# Adversarial search: the labs

Jupyter labs on game trees, minimax, alpha-beta, move ordering, heuristics and games
with chance or more players. You write the searches yourself; every lab checks your
code with visible tests and then draws what *your* code did.

## Start

- **Google Colab**: press a notebook's "Open in Colab" badge below. Its first cell installs
  `course_lib`, the helper package of the labs (`pip install {pinned}`); then run the
  cells in order. Save your own copy with *File > Save a copy in Drive*.
- **Your machine** (Python 3.10+): in this folder, `python -m venv .venv`, activate it, then
  `pip install -e ".[lab]"` and `jupyter lab`. (`pip install {pinned}` alone gives
  `course_lib` without JupyterLab.)

## The labs

{labs}

Each lab lists its graded functions and their points at the top. Write your code where
it says `YOUR CODE HERE`, run the tests below it, and keep the test cells as they are.
When you are done, restart the kernel and run everything once more, then hand in the
notebook as your course asks (nbgrader's *Submit* button, or upload the `.ipynb` file).
Your grade also counts tests you do not see; their results come back in your feedback.

## Companion notebooks

Read each one before the lab it prepares; `notebooks/00_course_map.ipynb` gives the order.

{notebooks}

## What is here

| folder | what it holds |
|---|---|
| `release/` | the labs |
| `notebooks/` | companion notebooks from the lectures |
| `course_lib/` | the games and the search traces the labs use (`pip install -e .`) |

Licence: MIT (`LICENSE`).
"""


def package_pyproject(text: str) -> str:
    """`text` (the course's pyproject.toml) with only the tables that build the package, and no dev extra.

    A table keeps the comment lines right above its header.
    """
    tables: list[tuple[str, list[str]]] = [("", [])]
    comments: list[str] = []
    for line in text.splitlines(keepends=True):
        header = re.match(r"\[([^\]]+)\]", line)
        if header:
            tables.append((header.group(1), comments + [line]))
            comments = []
        elif line.startswith("#"):
            comments.append(line)
        else:
            tables[-1][1].extend(comments + [line])
            comments = []
    out = "".join("".join(lines) for name, lines in tables
                  if name in PACKAGE_TABLES or name.startswith("tool.setuptools."))
    return re.sub(r"(?ms)^dev = \[.*?^\]\n", "", out)


def _listing(cfg, root: Path, rels: list[str]) -> str:
    rows = []
    for rel in rels:
        title = notebook_title(root / rel)
        rows.append(f"- {BADGE}({cfg.colab_url(rel)}) `{rel}`: {title}")
    return "\n".join(rows) or "- (none yet)"


def _check_emptiable(out: Path, root: Path) -> None:
    """Refuse to empty a folder that is not an earlier student edition (or a clone of one)."""
    if not out.exists():
        return
    if out.resolve() in (root.resolve(), *root.resolve().parents):
        raise ValueError(f"refusing to write the student edition into {out}: it holds the course itself")
    entries = {p.name for p in out.iterdir()} - {".git"}
    readme = out / "README.md"
    title = STUDENT_README.splitlines()[0]
    if entries and not (readme.is_file() and readme.read_text().startswith(title)):
        raise ValueError(f"refusing to empty {out}: it is not a student edition (its README.md does not start "
                         f"with {title!r}); give an empty folder or a clone of the published edition")


def build_student_edition(root: Path, out: Path | None = None) -> Path:
    """Write the student edition of the course at `root` into `out` (default build/student-edition)."""
    root = Path(root)
    cfg = checked_config(root)
    out = Path(out) if out else root / "build" / "student-edition"
    _check_emptiable(out, root)
    out.mkdir(parents=True, exist_ok=True)
    for entry in out.iterdir():  # a clone of the published repository keeps its history
        if entry.name != ".git":
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    for name in ("release", "notebooks", "course_lib"):
        if (root / name).is_dir():
            shutil.copytree(root / name, out / name, ignore=IGNORE)
        else:
            (out / name).mkdir()
    (out / "pyproject.toml").write_text(package_pyproject((root / "pyproject.toml").read_text()))
    shutil.copy(root / "LICENSE", out / "LICENSE")
    (out / ".gitignore").write_text(GITIGNORE)
    labs = sorted(p.relative_to(out).as_posix() for p in (out / "release").glob("*/*.ipynb"))
    notes = sorted(p.relative_to(out).as_posix() for p in (out / "notebooks").glob("*.ipynb"))
    (out / "README.md").write_text(STUDENT_README.format(
        pinned=cfg.pinned, labs=_listing(cfg, out, labs), notebooks=_listing(cfg, out, notes)))
    sources = sorted((root / "source").rglob("*.ipynb"))
    # hidden tests are distinctive: none of their lines may appear anywhere; solution lines are
    # checked in the labs (course_lib legitimately shares generic lines such as "return state.to_move")
    leaks = [leak for nb in sources for leak in find_leaks(out, private_lines(nb, kinds=("hidden",)))]
    # (each lab against its own solutions: a later lab may hand out an earlier lab's answer)
    leaks += [leak for nb in sources if (out / "release" / nb.parent.name).is_dir()
              for leak in find_leaks(out / "release" / nb.parent.name, private_lines(nb, kinds=("solution",)))]
    if leaks:
        for entry in out.iterdir():
            if entry.name != ".git":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        raise RuntimeError("solution or hidden-test text would reach students:\n" + "\n".join(leaks[:20]))
    return out
