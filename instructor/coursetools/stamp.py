"""``python -m coursetools stamp``: write the generated cells of every notebook.

Three kinds of cells are written here and nowhere else, from one configuration place,
the ``[tool.course]`` table of the course's ``pyproject.toml`` (repository address,
pinned tag, the light dependencies a fresh environment may lack):

- the **set-up cell**, the first code cell of every notebook in ``source/`` (hence in
  ``release/``) and ``notebooks/``, tagged ``colab-setup``. Where ``course_lib`` is
  missing (Google Colab, a fresh environment) it installs the pinned version from the
  repository with ``--no-deps``, then only those light dependencies that are missing;
  where ``course_lib`` is present it does nothing. ``COURSE_LIB_SOURCE`` overrides
  where it comes from (a path or any pip requirement), so tests can point it at the
  local checkout.
- the **navigation cells** of the companion notebooks (tag ``course-nav``): an "Open in
  Colab" badge and links to the previous and next notebook.
- the **course map table** in ``notebooks/00_course_map.ipynb`` (tag ``course-map``):
  every lab and companion notebook in order, with its title and Colab badge.

A lab author marks where the set-up goes with a first code cell holding the
placeholder comment ``# colab-setup`` (or the tag); a notebook with neither gets a new
set-up cell before its first code cell. Stamping is idempotent, and
``python -m coursetools stamp --check`` fails when a committed notebook differs from
what the tool writes. After stamping ``source/``, regenerate ``release/``.
"""

from __future__ import annotations

import copy
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

SETUP_TAG = "colab-setup"
NAV_TAG = "course-nav"
MAP_TAG = "course-map"
PLACEHOLDER = "# colab-setup"
COURSE_MAP = "00_course_map.ipynb"
BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"


@dataclass(frozen=True)
class CourseConfig:
    """What the stamped cells need to know, read from ``[tool.course]``."""

    repository: str          # https://github.com/OWNER/NAME
    ref: str                 # the tag (or commit) fresh environments install and badges open
    source_env: str          # the environment variable that overrides the install source
    light_deps: tuple        # ((module, requirement), ...) installed only when missing

    @property
    def github_path(self) -> str:
        """``OWNER/NAME`` of the repository."""
        m = re.fullmatch(r"https://github\.com/([^/]+/[^/]+?)(?:\.git)?/?", self.repository)
        if not m:
            raise ValueError(f"[tool.course] repository must be https://github.com/OWNER/NAME, not {self.repository!r}")
        return m.group(1)

    @property
    def install_source(self) -> str:
        """The pip requirement of the pinned course_lib."""
        return f"course-lib @ git+{self.repository.rstrip('/')}@{self.ref}"

    def colab_url(self, relpath: str) -> str:
        """The Colab address that opens `relpath` (relative to the repository root) at the pinned ref."""
        return f"https://colab.research.google.com/github/{self.github_path}/blob/{self.ref}/{relpath}"


def _toml(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: jupyterlab depends on tomli there
        import tomli as tomllib
    return tomllib.loads(path.read_text())


def load_config(root: Path) -> CourseConfig:
    """The ``[tool.course]`` table of ``root/pyproject.toml``, with requirements from ``[project]``."""
    data = _toml(root / "pyproject.toml")
    table = data.get("tool", {}).get("course")
    if not table:
        raise KeyError(f"{root / 'pyproject.toml'} has no [tool.course] table")
    declared = {}
    for req in data["project"]["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.\-]+", req).group(0).lower().replace("_", "-")
        declared[name] = req
    deps = []
    for module in table["light-deps"]:
        dist = module.lower().replace("_", "-")
        if dist not in declared:
            raise KeyError(f"[tool.course] light-deps names {module!r}, which [project] dependencies do not declare")
        deps.append((module, declared[dist]))
    return CourseConfig(table["repository"], table["ref"], table.get("source-env", "COURSE_LIB_SOURCE"), tuple(deps))


# -- the cells ---------------------------------------------------------------------------

def setup_code(cfg: CourseConfig) -> str:
    """The source of the set-up cell."""
    deps = ",\n".join(f"        ({m!r}, {r!r})" for m, r in cfg.light_deps)
    return f'''\
# Set-up. Where course_lib is missing (Google Colab, a fresh environment) this installs
# the course's pinned version; where it is installed already it does nothing.
# Written by `python -m coursetools stamp` from pyproject.toml; do not edit by hand.
def _install_course_lib():
    import importlib
    import importlib.util
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("course_lib") is not None:
        return

    def pip_install(*args):
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *args],
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError("pip install failed:\\n" + done.stdout + done.stderr)

    source = os.environ.get({cfg.source_env!r}) or {cfg.install_source!r}
    pip_install("--no-deps", source)  # Colab already has the heavy dependencies it needs
    light = [
{deps},
    ]
    missing = [req for module, req in light if importlib.util.find_spec(module) is None]
    if missing:
        pip_install(*missing)
    importlib.invalidate_caches()
    print("installed course_lib from", source)
    if "google.colab" in sys.modules:
        print("On Colab the widgets may show a static figure with a note instead; nothing else changes.")


_install_course_lib()
del _install_course_lib'''


def _badge(cfg: CourseConfig, relpath: str) -> str:
    return f"[![Open In Colab]({BADGE_IMAGE})]({cfg.colab_url(relpath)})"


def notebook_title(path: Path) -> str:
    """The first ``# `` heading of a notebook, or its file name."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return path.stem


def nav_source(cfg: CourseConfig, order: list[Path], i: int, root: Path, top: bool) -> str:
    """The navigation line of the i-th companion notebook."""
    here = order[i]
    parts = []
    if top:
        parts.append(_badge(cfg, here.relative_to(root).as_posix()))
    if i > 0:
        parts.append(f"← previous: [{notebook_title(order[i - 1])}]({order[i - 1].name})")
    if i + 1 < len(order):
        parts.append(f"next: [{notebook_title(order[i + 1])}]({order[i + 1].name}) →")
    return " · ".join(parts) if top else "---\n" + " · ".join(parts)


def map_source(cfg: CourseConfig, root: Path) -> str:
    """The course map table: labs, then companion notebooks, each with a Colab badge."""
    rows = ["| | notebook | title | open |", "|---|---|---|---|"]
    for path in lab_sources(root):
        lab = path.parent.name
        rel = f"release/{lab}/{path.name}"
        rows.append(f"| lab | [`{lab}`](../{rel}) | {notebook_title(path)} | {_badge(cfg, rel)} |")
    for path in companion_notebooks(root):
        if path.name == COURSE_MAP:
            continue
        rel = path.relative_to(root).as_posix()
        rows.append(f"| notes | [`{path.stem}`]({path.name}) | {notebook_title(path)} | {_badge(cfg, rel)} |")
    return "\n".join(rows)


# -- which notebooks ---------------------------------------------------------------------

def lab_sources(root: Path) -> list[Path]:
    """The nbgrader source notebooks, ``source/<lab>/<lab>.ipynb``, in lab order."""
    return sorted(p for p in (root / "source").glob("*/*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def companion_notebooks(root: Path) -> list[Path]:
    """The companion notebooks in reading order (by file name)."""
    return sorted(p for p in (root / "notebooks").glob("*.ipynb"))


# -- stamping one notebook ---------------------------------------------------------------

def _tags(cell: dict) -> list:
    return cell.get("metadata", {}).get("tags", [])


def _new_cell(kind: str, source: str, tag: str, cell_id: str, nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    maker = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
    cell = maker(source=source, metadata={"tags": [tag]})
    taken = {c.get("id") for c in nb.cells}
    cell["id"] = cell_id if cell_id not in taken else f"{cell_id}-{len(nb.cells)}"
    return cell


def _tag(cell: dict, tag: str) -> None:
    tags = cell.setdefault("metadata", {}).setdefault("tags", [])
    if tag not in tags:
        tags.append(tag)


def stamp_setup(nb: nbformat.NotebookNode, cfg: CourseConfig, name: str = "notebook") -> None:
    """Write the set-up cell of `nb` (in place): it becomes the first code cell, tagged."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    tagged = [c for c in code if SETUP_TAG in _tags(c)]
    if len(tagged) > 1:
        raise ValueError(f"{name}: {len(tagged)} cells carry the tag {SETUP_TAG!r}; one is allowed")
    if tagged and tagged[0] is not code[0]:
        raise ValueError(f"{name}: the cell tagged {SETUP_TAG!r} must be the first code cell")
    if tagged:
        cell = tagged[0]
    elif code and code[0].source.lstrip().startswith(PLACEHOLDER):
        cell = code[0]
        _tag(cell, SETUP_TAG)
    else:
        cell = _new_cell("code", "", SETUP_TAG, SETUP_TAG, nb)
        at = nb.cells.index(code[0]) if code else len(nb.cells)
        nb.cells.insert(at, cell)
    grading = cell.get("metadata", {}).get("nbgrader", {})
    if grading.get("solution") or grading.get("grade"):
        raise ValueError(f"{name}: the set-up cell must not be a graded or solution cell")
    cell.source = setup_code(cfg)
    cell.outputs, cell.execution_count = [], None


def _stamp_markdown(nb: nbformat.NotebookNode, tag: str, source: str, where: int, cell_id: str) -> None:
    """Set the markdown cell tagged `tag`, or insert one at `where` (negative: from the end)."""
    for cell in nb.cells:
        if tag in _tags(cell) and cell.cell_type == "markdown":
            cell.source = source
            return
    cell = _new_cell("markdown", source, tag, cell_id, nb)
    nb.cells.insert(where if where >= 0 else len(nb.cells) + 1 + where, cell)


def stamp_companion(nb: nbformat.NotebookNode, cfg: CourseConfig, order: list[Path], i: int, root: Path) -> None:
    """Navigation cells (top and bottom), set-up cell and, for the map, the table."""
    stamp_setup(nb, cfg, order[i].name)
    tops = [c for c in nb.cells if NAV_TAG in _tags(c)]
    top_src, bottom_src = nav_source(cfg, order, i, root, True), nav_source(cfg, order, i, root, False)
    if len(tops) == 2:
        tops[0].source, tops[1].source = top_src, bottom_src
    elif not tops:
        nb.cells.insert(0, _new_cell("markdown", top_src, NAV_TAG, "course-nav-top", nb))
        nb.cells.append(_new_cell("markdown", bottom_src, NAV_TAG, "course-nav-bottom", nb))
    else:
        raise ValueError(f"{order[i].name}: expected 0 or 2 cells tagged {NAV_TAG!r}, found {len(tops)}")
    if order[i].name == COURSE_MAP:
        _stamp_markdown(nb, MAP_TAG, map_source(cfg, root), -1, MAP_TAG)


# -- the whole course --------------------------------------------------------------------

def stamped(root: Path) -> dict[Path, tuple[nbformat.NotebookNode, nbformat.NotebookNode]]:
    """``{path: (as committed, as the tool writes it)}`` for every notebook the tool owns cells of."""
    cfg = load_config(root)
    out = {}
    for path in lab_sources(root):
        nb = nbformat.read(path, as_version=4)
        new = copy.deepcopy(nb)
        stamp_setup(new, cfg, str(path.relative_to(root)))
        out[path] = (nb, new)
    order = companion_notebooks(root)
    for i, path in enumerate(order):
        nb = nbformat.read(path, as_version=4)
        new = copy.deepcopy(nb)
        stamp_companion(new, cfg, order, i, root)
        out[path] = (nb, new)
    return out


def stamp_all(root: Path, check: bool = False, only: list[Path] | None = None) -> list[Path]:
    """Stamp every notebook (or, with `check`, only report); returns the paths that differ(ed).

    `only` limits the work to notebooks below those folders.
    """
    changed = []
    for path, (old, new) in stamped(root).items():
        if only and not any(path.resolve().is_relative_to(f.resolve()) for f in only):
            continue
        if old != new:
            changed.append(path)
            if not check:
                nbformat.write(new, path)
    return changed


def cmd_stamp(args) -> int:
    """Write the set-up cells, Colab badges, navigation links and course map of every notebook."""
    from . import course_root

    root = course_root()
    only = [Path(f) for f in getattr(args, "folders", None) or []]
    changed = stamp_all(root, check=args.check, only=only)
    for path in changed:
        verb = "differs from the tool's output" if args.check else "stamped"
        print(f"{path.relative_to(root)}: {verb}", file=sys.stderr if args.check else sys.stdout)
    if args.check and changed:
        print("run `python -m coursetools stamp`, then regenerate release/ (make release)", file=sys.stderr)
        return 1
    if not args.check and any(p.is_relative_to(root / "source") for p in changed):
        print("source/ changed: regenerate the student versions (make release)")
    print(f"{len(changed)} notebook(s) {'to stamp' if args.check else 'stamped'}")
    return 0
