"""The companion notebooks and the cells the stamp tool writes.

- every notebook in notebooks/ runs top to bottom in a fresh kernel, without an error, in time,
  and shows its figures as images;
- every notebook of notebooks/, source/ and release/ starts with the stamped set-up cell;
- the committed notebooks equal what `python -m coursetools stamp` writes (set-up cells, Colab
  badges, navigation links, course map), and the tool itself behaves (idempotent, placeholder,
  insertion, refusals);
- the set-up cell does nothing where course_lib is installed.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from coursetools.course.notebooks import pictures_without_alt
from coursetools.course.stamp import (
    COURSE_MAP, NAV_TAG, SETUP_TAG, companion_notebooks, config_problems, lab_sources, load_config, map_source,
    setup_code, stamp_all, stamp_companion, stamp_setup,
)

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = companion_notebooks(ROOT)
# The companion notebooks aim at about 20 s each on 2 cores; the limit leaves room for a busy machine.
TIME_LIMIT_S = 90
TIMINGS: dict[str, float] = {}


def _code_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code"]


# -- running the companion notebooks -----------------------------------------------------

def test_companion_notebooks_exist():
    names = [p.name for p in NOTEBOOKS]
    assert COURSE_MAP in names and len(names) >= 8, names


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_companion_notebook_runs_top_to_bottom_in_a_fresh_kernel(path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=TIME_LIMIT_S, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    start = time.perf_counter()
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    TIMINGS[path.name] = seconds = time.perf_counter() - start
    print(f"{path.name}: {seconds:.1f} s")
    assert seconds < TIME_LIMIT_S, f"{path.name} took {seconds:.0f} s"
    outputs = [o for c in _code_cells(nb) for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shows = ("draw_tree(", "ordering_bars(", "nodes_by_depth(", "tournament_table(", "stepper", "board")
    cells_drawing = [c for c in _code_cells(nb) if c.source.strip().splitlines()[-1].startswith(shows)]
    assert cells_drawing or path.name == COURSE_MAP, f"{path.name} shows no figure"
    for cell in cells_drawing:
        assert any("image/png" in o.get("data", {}) for o in cell.outputs), \
            f"{path.name}: a cell that draws shows no image:\n{cell.source[:200]}"
    assert not pictures_without_alt(nb), f"{path.name}: pictures without a text alternative"


def test_companion_notebooks_write_their_algorithms_out():
    """course_lib holds no search (a test in test_project.py says so): the notes define their own."""
    searches = {"02_tictactoe_minimax": "def minimax_search", "03_alphabeta_step_by_step": "def alphabeta",
                "04_move_ordering": "def alphabeta", "05_food_gathering": "def depth_limited_alphabeta",
                "06_isolation_evaluation": "def search_value", "07_chance_and_more_players": "def expectiminimax"}
    for stem, definition in searches.items():
        source = "\n".join(c.source for c in _code_cells(nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", 4)))
        assert definition in source, f"{stem} should define its search in a cell ({definition!r})"
    for path in NOTEBOOKS:
        source = "\n".join(c.source for c in _code_cells(nbformat.read(path, 4)))
        assert not re.search(r"^\s*(from|import)\s+coursetools", source, re.MULTILINE), \
            f"{path.name}: students do not have the instructor's tools"


# -- the set-up cell -----------------------------------------------------------------------

def _all_course_notebooks() -> list[Path]:
    release = sorted(p for p in (ROOT / "release").glob("*/*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    return NOTEBOOKS + lab_sources(ROOT) + release


@pytest.mark.parametrize("path", _all_course_notebooks(), ids=lambda p: str(p.relative_to(ROOT)))
def test_notebook_starts_with_the_stamped_setup_cell(path):
    nb = nbformat.read(path, as_version=4)
    first = _code_cells(nb)[0]
    assert SETUP_TAG in first.metadata.get("tags", []), f"{path}: the first code cell lacks the tag {SETUP_TAG!r}"
    assert first.source == setup_code(load_config(ROOT)), \
        f"{path}: set-up cell differs from the tool's: run `python -m coursetools stamp` (then `make release`)"
    assert sum(SETUP_TAG in c.metadata.get("tags", []) for c in nb.cells) == 1


def test_committed_notebooks_equal_the_stamp_tool_output():
    differ = stamp_all(ROOT, check=True)
    assert not differ, ("run `python -m coursetools stamp` (and regenerate release/): "
                        f"{[str(p.relative_to(ROOT)) for p in differ]}")


def test_setup_cell_does_nothing_where_course_lib_is_installed(tmp_path):
    code = setup_code(load_config(ROOT))
    # A source pip could not install: if the cell tried, it would fail.
    env = {"COURSE_LIB_SOURCE": str(tmp_path / "no-such-package"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code + "\nimport course_lib; print('ok', course_lib.__version__)"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok") and "installed" not in done.stdout


def test_setup_cell_reports_a_failed_install_in_plain_words(tmp_path):
    """Without course_lib and with a source pip cannot use, the cell says what happened and what to do."""
    code = setup_code(load_config(ROOT)).replace('find_spec("course_lib")', 'find_spec("course_lib_not_here")')
    env = {"COURSE_LIB_SOURCE": str(tmp_path / "no-such-package"), "PATH": "/usr/bin:/bin",
           "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr  # no traceback
    lines = done.stdout.splitlines()
    assert lines[0] == "course_lib, the course's helper package, could not be installed:"
    assert lines[1] == "  - from COURSE_LIB_SOURCE (set in this environment): that file or folder does not exist"
    assert "What to do: install course_lib from a file" in done.stdout and "%pip install /path/to/" in done.stdout


def test_setup_cell_pins_the_package_then_the_repository_tag():
    cfg = load_config(ROOT)
    code = setup_code(cfg)
    assert repr(f"{cfg.package}=={cfg.version}") in code
    assert code.index(repr(cfg.pinned)) < code.index(f"git+{cfg.repository}@{cfg.ref}")
    assert "--no-deps" in code and cfg.source_env in code
    for module, requirement in cfg.light_deps:
        assert repr(requirement) in code and repr(module) in code
    compile(code, "setup-cell", "exec")


# -- the published addresses ------------------------------------------------------------------

def test_configured_addresses_are_real_and_match_the_package():
    cfg = load_config(ROOT)
    import course_lib

    assert config_problems(cfg) == []
    assert cfg.version == course_lib.__version__ and cfg.ref == f"v{course_lib.__version__}"
    assert cfg.repository.rstrip("/").endswith("/" + cfg.package)


@pytest.mark.parametrize("change, complaint", [
    ({"repository": "https://github.com/OWNER/adversarial-search-labs"}, "owner 'OWNER' is a placeholder"),
    ({"repository": "https://github.com/example-org/adversarial-search-labs"}, "placeholder"),
    ({"repository": "https://github.com/adversarial-search-course/adversarial-search"},
     "must be named like the package"),
    ({"ref": "v0.0.9"}, "must be the tag of this version, 'v0.1.0'"),
    ({"ref": "main"}, "must be the tag of this version"),
    ({"repository": "https://gitlab.com/a/adversarial-search-labs"}, "must be https://github.com/OWNER/NAME"),
    ({"package": "your-package"}, "package name 'your-package' is a placeholder"),
])
def test_placeholders_and_mismatched_addresses_are_refused(change, complaint):
    cfg = dataclasses.replace(load_config(ROOT), version="0.1.0", **change)
    problems = config_problems(cfg)
    assert any(complaint in p for p in problems), problems


def test_stamp_and_release_refuse_a_placeholder_with_a_clear_message(tmp_path):
    """The real commands, on a copy of the course whose pyproject.toml still holds a placeholder."""
    course = tmp_path / "course"
    course.mkdir()
    for name in ("pyproject.toml", "nbgrader_config.py"):
        shutil.copy(ROOT / name, course / name)
    shutil.copytree(ROOT / "course_lib", course / "course_lib", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "notebooks", course / "notebooks")
    (course / "source").mkdir()
    text = (course / "pyproject.toml").read_text()
    cfg = load_config(ROOT)
    (course / "pyproject.toml").write_text(text.replace(f'repository = "{cfg.repository}"',
                                                        'repository = "https://github.com/OWNER/REPO"'))
    before = {p: p.read_bytes() for p in (course / "notebooks").iterdir()}
    for command in ("stamp", "release"):
        done = subprocess.run([sys.executable, "-m", "coursetools", command], cwd=course, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"coursetools {command} refused" in done.stderr and "Traceback" not in done.stderr
        assert "the owner 'OWNER' is a placeholder" in done.stderr and "docs/publishing.md" in done.stderr
    assert {p: p.read_bytes() for p in (course / "notebooks").iterdir()} == before


# -- the stamp tool on made-up notebooks -----------------------------------------------------

def _nb(*cells) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    for kind, source in cells:
        cell = (nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell)(source)
        nb.cells.append(cell)
    return nb


def test_stamp_fills_the_placeholder_cell_in_place():
    cfg = load_config(ROOT)
    nb = _nb(("md", "# Lab"), ("code", "# colab-setup"), ("code", "x = 1"))
    stamp_setup(nb, cfg)
    assert len(nb.cells) == 3
    assert nb.cells[1].source == setup_code(cfg) and nb.cells[1].metadata["tags"] == [SETUP_TAG]
    again = copy.deepcopy(nb)
    stamp_setup(again, cfg)
    assert again == nb  # idempotent


def test_stamp_inserts_a_setup_cell_before_the_first_code_cell():
    cfg = load_config(ROOT)
    nb = _nb(("md", "# Notes"), ("md", "intro"), ("code", "x = 1"))
    stamp_setup(nb, cfg)
    assert [c.cell_type for c in nb.cells] == ["markdown", "markdown", "code", "code"]
    assert nb.cells[2].source == setup_code(cfg) and nb.cells[3].source == "x = 1"


def test_stamp_refuses_a_graded_setup_cell_or_a_misplaced_tag():
    cfg = load_config(ROOT)
    graded = _nb(("code", "# colab-setup"))
    graded.cells[0].metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": "t", "points": 1}
    with pytest.raises(ValueError, match="graded"):
        stamp_setup(graded, cfg)
    misplaced = _nb(("code", "x = 1"), ("code", "pass"))
    misplaced.cells[1].metadata["tags"] = [SETUP_TAG]
    with pytest.raises(ValueError, match="first code cell"):
        stamp_setup(misplaced, cfg)


def test_stamp_writes_badges_and_links_from_the_configuration(tmp_path):
    cfg = load_config(ROOT)
    folder = tmp_path / "notebooks"
    folder.mkdir()
    paths = []
    for name, title in [("00_course_map", "Map"), ("01_a", "First"), ("02_b", "Second")]:
        nb = _nb(("md", f"# {title}"), ("code", "# colab-setup"), ("code", "1"))
        if name == "00_course_map":
            nb.cells.insert(1, nbformat.v4.new_markdown_cell("table", metadata={"tags": ["course-map"]}))
        nbformat.write(nb, folder / f"{name}.ipynb")
        paths.append(folder / f"{name}.ipynb")
    (tmp_path / "source").mkdir()
    nb = nbformat.read(paths[1], as_version=4)
    stamp_companion(nb, cfg, paths, 1, tmp_path)
    nav = [c.source for c in nb.cells if NAV_TAG in c.metadata.get("tags", [])]
    assert len(nav) == 2
    assert cfg.colab_url("notebooks/01_a.ipynb") in nav[0]
    assert "[Map](00_course_map.ipynb)" in nav[0] and "[Second](02_b.ipynb)" in nav[0]
    assert "[Second](02_b.ipynb)" in nav[1] and "colab" not in nav[1]
    table = map_source(cfg, tmp_path)
    assert "First" in table and "Second" in table and cfg.colab_url("notebooks/02_b.ipynb") in table
    assert "00_course_map" not in table


def test_course_map_lists_every_lab_and_notebook():
    cfg = load_config(ROOT)
    table = map_source(cfg, ROOT)
    for path in lab_sources(ROOT):
        assert cfg.colab_url(f"release/{path.parent.name}/{path.name}") in table
    for path in NOTEBOOKS:
        if path.name != COURSE_MAP:
            assert cfg.colab_url(f"notebooks/{path.name}") in table
