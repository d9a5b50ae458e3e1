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


class ConfigError(ValueError):
    """``[tool.course]`` or ``[project]`` would ship an address or version students cannot use."""


# Words that mark an address nobody filled in (whole OWNER or NAME parts, or inside them).
PLACEHOLDER_PARTS = {"owner", "org", "user", "username", "name", "repo", "repository", "package", "project"}
PLACEHOLDER_WORDS = re.compile(r"example|placeholder|change-?me|your[-_]|my[-_]org|todo|xxx|[<>{}]", re.IGNORECASE)


@dataclass(frozen=True)
class CourseConfig:
    """What the stamped cells need to know, read from ``[project]`` and ``[tool.course]``."""

    package: str             # the distribution name on the package index (``pip install <package>``)
    version: str             # course_lib.__version__, the one place the version lives
    repository: str          # https://github.com/OWNER/NAME of the published student edition
    ref: str                 # the tag of this version there ("v" + version): badges open it, set-up falls back to it
    source_env: str          # the environment variable that overrides the install source
    light_deps: tuple        # ((module, requirement), ...) installed only when missing

    @property
    def github_path(self) -> str:
        """``OWNER/NAME`` of the repository."""
        m = re.fullmatch(r"https://github\.com/([^/]+/[^/]+?)(?:\.git)?/?", self.repository)
        if not m:
            raise ConfigError(f"[tool.course] repository must be https://github.com/OWNER/NAME, not {self.repository!r}")
        return m.group(1)

    @property
    def pinned(self) -> str:
        """The pip requirement of this version on the package index."""
        return f"{self.package}=={self.version}"

    @property
    def install_source(self) -> str:
        """The pip requirement of this version from the student edition's tag (the fallback)."""
        return f"{self.package} @ git+{self.repository.rstrip('/')}@{self.ref}"

    def colab_url(self, relpath: str) -> str:
        """The Colab address that opens `relpath` (relative to the repository root) at the pinned ref."""
        return f"https://colab.research.google.com/github/{self.github_path}/blob/{self.ref}/{relpath}"


def _toml(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: jupyterlab depends on tomli there
        import tomli as tomllib
    return tomllib.loads(path.read_text())


def normalize(name: str) -> str:
    """A distribution name as the package index compares it (PEP 503).

    >>> normalize("Adversarial_Search.Labs")
    'adversarial-search-labs'
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def package_version(root: Path) -> str:
    """``__version__`` of ``root/course_lib/__init__.py``, read without importing it."""
    init = root / "course_lib" / "__init__.py"
    m = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', init.read_text(), re.MULTILINE)
    if not m:
        raise ConfigError(f"{init} must set __version__ = \"X.Y.Z\" (the one place the version lives)")
    return m.group(1)


def load_config(root: Path) -> CourseConfig:
    """The ``[tool.course]`` table of ``root/pyproject.toml``, with name, version and requirements from ``[project]``."""
    data = _toml(root / "pyproject.toml")
    table = data.get("tool", {}).get("course")
    if not table:
        raise ConfigError(f"{root / 'pyproject.toml'} has no [tool.course] table")
    project = data["project"]
    declared = {}
    for req in project["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.\-]+", req).group(0)
        declared[normalize(name)] = req
    deps = []
    for module in table["light-deps"]:
        dist = normalize(module)
        if dist not in declared:
            raise ConfigError(f"[tool.course] light-deps names {module!r}, which [project] dependencies do not declare")
        deps.append((module, declared[dist]))
    return CourseConfig(project["name"], package_version(root), table["repository"], table["ref"],
                        table.get("source-env", "COURSE_LIB_SOURCE"), tuple(deps))


def config_problems(cfg: CourseConfig, urls: dict | None = None) -> list[str]:
    """What would make the published addresses wrong: placeholders, or a repository or tag unlike the package."""
    problems = []
    try:
        owner, name = cfg.github_path.split("/")
    except ConfigError as exc:
        return [str(exc)]
    for label, part in (("owner", owner), ("repository name", name), ("package name", cfg.package)):
        if part.lower() in PLACEHOLDER_PARTS or PLACEHOLDER_WORDS.search(part):
            problems.append(f"the {label} {part!r} is a placeholder: put the real one")
    if normalize(name) != normalize(cfg.package):
        problems.append(f"the repository {cfg.repository} must be named like the package {cfg.package!r} "
                        f"(https://github.com/{owner}/{cfg.package})")
    if cfg.ref != f"v{cfg.version}":
        problems.append(f"ref {cfg.ref!r} must be the tag of this version, 'v{cfg.version}' "
                        "(course_lib/__init__.py sets the version)")
    if not re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?", cfg.version):
        problems.append(f"course_lib.__version__ {cfg.version!r} is not a release version such as 0.1.0")
    source = (urls or {}).get("Source")
    if source is not None and source.rstrip("/") != cfg.repository.rstrip("/"):
        problems.append(f"[project.urls] Source {source!r} must be the repository {cfg.repository!r}")
    return problems


def checked_config(root: Path) -> CourseConfig:
    """`load_config`, refusing an address students could not use (`ConfigError` says what to change)."""
    cfg = load_config(root)
    urls = _toml(root / "pyproject.toml")["project"].get("urls", {})
    problems = config_problems(cfg, urls)
    if problems:
        raise ConfigError(f"{root / 'pyproject.toml'}: the published addresses are not usable:\n  - "
                          + "\n  - ".join(problems)
                          + "\nChange [project] name, [tool.course] repository and ref, and course_lib/__init__.py "
                            "as docs/publishing.md says, then run make stamp and make release.")
    return cfg


# -- the cells ---------------------------------------------------------------------------

SETUP_TEMPLATE = """\
# Set-up. Where course_lib is missing (Google Colab, a fresh environment) this installs the
# course's version of it: from its wheel if one lies beside this notebook, else from the
# Python Package Index, else from the course's repository. Where course_lib is installed
# already it checks that it is not older than the version this notebook was released with.
# Written by `python -m coursetools stamp` from pyproject.toml; do not edit by hand.
def _install_course_lib():
    import glob
    import importlib
    import importlib.util
    import os
    import re
    import subprocess
    import sys

    released = @VERSION@  # the version of course_lib this notebook was released with
    wheel = @WHEEL@

    def version_key(version):
        numbers = re.match(r"\\d+(\\.\\d+)*", str(version))
        return tuple(int(n) for n in numbers.group(0).split(".")) if numbers else ()

    if importlib.util.find_spec("course_lib") is not None:
        import course_lib

        installed = getattr(course_lib, "__version__", "of an unknown version")
        if version_key(installed) < version_key(released):
            print(f"This notebook was released with course_lib {released}, but the course_lib installed here is "
                  f"{installed}, an older one: some cells of this notebook use parts it does not have yet.",
                  "What to do: update course_lib, restart the kernel (on Colab: Runtime > Restart session), and run",
                  "this cell again. Any one of these updates it:",
                  "  - run   %pip install --upgrade " + @PINNED@ + "   (this needs the internet);",
                  "  - put the course's wheel, " + wheel + ", beside this notebook and run",
                  "    %pip install --upgrade " + wheel + "   (your teacher hands it out).", sep="\\n")
        return
    beside = sorted(glob.glob(@WHEELGLOB@))[-1:]  # this version's wheel, if one is here
    sources = [(path, "the wheel beside this notebook") for path in beside] + [
        (@PINNED@, "the Python Package Index"),
        (@TAGGED@, @WHERE@),
    ]
    light = [
@LIGHT@
    ]
    if os.environ.get(@ENV@):
        sources = [(os.environ[@ENV@], "@ENVNAME@")]

    def pip_install(*args):
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *args],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              env=dict(os.environ, GIT_TERMINAL_PROMPT="0"))  # git never waits for a password
        return done.returncode == 0, done.stdout + done.stderr

    def why(log):
        # What went wrong, in plain words, from pip's and git's output (never pip's own boilerplate).
        text = log.lower()
        if "no module named pip" in text:
            return "pip is not available in this Python"
        if "cannot find command 'git'" in text or "git: not found" in text:
            return "git is not installed here"
        if any(s in text for s in ("failed to establish a new connection", "connection refused", "name resolution",
                                   "network is unreachable", "could not resolve host", "failed to connect to",
                                   "couldn't connect to server", "timed out", "max retries exceeded")):
            return "no network: it could not be reached"
        if any(s in text for s in ("repository not found", "could not read username", "not found: did you run git",
                                   "does not appear to be a git repository", "unknown revision",
                                   "did not match any file", "couldn't find remote ref", "authentication failed")) \\
                or ("fatal: repository" in text and "not found" in text):
            return "the repository or tag does not exist (yet)"
        if "does not exist" in text or "no such file or directory" in text:
            return "that file or folder does not exist"
        if "(from versions: none)" in text:
            return "the package is not published yet"
        if "no matching distribution" in text or "could not find a version" in text:
            return "this version of the package is not published yet"
        errors = [line.strip()[6:].strip() for line in log.splitlines() if line.strip().startswith("ERROR:")
                  and "originates from a subprocess" not in line and "subprocess-exited-with-error" not in line]
        return "pip said: " + (errors[-1] if errors else (log.strip().splitlines() or ["no output"])[-1])

    failed = []
    for source, where in sources:
        ok, log = pip_install("--no-deps", source)  # Colab already has the heavy dependencies
        if ok:
            break
        failed.append((where, why(log)))
    else:
        offline = any(reason.startswith("no network") for _, reason in failed)
        print("course_lib, the course's helper package, could not be installed:",
              *[f"  - from {where}: {reason}" for where, reason in failed],
              "Until it is installed, the cells that use course_lib fail with ModuleNotFoundError.",
              *(["What to do: connect this runtime to the internet and run this cell again, or",
                 "install course_lib from a file: the course's wheel, " + wheel + ","] if offline else
                ["What to do: install course_lib from a file: the course's wheel, " + wheel + ","]),
              "or the folder of its student edition, as your teacher hands them out. Any one of these works:",
              "  - put the wheel beside this notebook (on Colab: upload it in the Files pane), run this cell again;",
              "  - run   %pip install /path/to/" + wheel + "   then run this cell again;",
              "  - set " + @ENV@ + "=/path/to/" + wheel + " (or to the folder)",
              "    in the environment, restart the kernel and run this cell again.", sep="\\n")
        return
    missing = [req for module, req in light if importlib.util.find_spec(module) is None]
    if missing:
        ok, log = pip_install(*missing)
        if not ok:
            print(f"course_lib is installed, but {', '.join(missing)} could not be: {why(log)}.",
                  f"What to do: install it yourself with   %pip install {' '.join(missing)}   and run this cell again.",
                  sep="\\n")
            return
    importlib.invalidate_caches()
    print(*[f"  - from {where}: {reason}" for where, reason in failed], f"installed course_lib from {where} ({source})",
          sep="\\n")


_install_course_lib()
del _install_course_lib"""


def setup_code(cfg: CourseConfig) -> str:
    """The source of the set-up cell."""
    light = ",\n".join(f"        ({m!r}, {r!r})" for m, r in cfg.light_deps)
    stem = f"{cfg.package.replace('-', '_')}-{cfg.version}"
    values = {"@VERSION@": repr(cfg.version), "@PINNED@": repr(cfg.pinned), "@TAGGED@": repr(cfg.install_source),
              "@WHERE@": repr(f"the course's repository at tag {cfg.ref}"), "@LIGHT@": light,
              "@ENV@": repr(cfg.source_env), "@ENVNAME@": f"{cfg.source_env} (set in this environment)",
              "@WHEEL@": repr(f"{stem}-py3-none-any.whl"), "@WHEELGLOB@": repr(f"{stem}-*.whl")}
    code = SETUP_TEMPLATE
    for marker, value in values.items():
        code = code.replace(marker, value)
    return code


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
    from coursetools.labs import labs_in, source_notebook

    return [source_notebook(root, lab) for lab in labs_in(root)]


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
    """``{path: (as committed, as the tool writes it)}`` for every notebook the tool owns cells of.

    Raises `ConfigError` when the configured addresses are placeholders or unlike the package.
    """
    cfg = checked_config(root)
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
    from coursetools import course_root

    root = course_root()
    only = [Path(f) for f in getattr(args, "folders", None) or []]
    try:
        changed = stamp_all(root, check=args.check, only=only)
    except ConfigError as exc:
        print(f"coursetools stamp refused: {exc}", file=sys.stderr)
        return 2
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
