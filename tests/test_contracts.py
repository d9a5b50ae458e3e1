"""Contracts between the course's parts that no single module checks: the one list of labs against
the folders, dotted paths written as strings (nbgrader's configuration, the shards' generated
configuration), every hidden ``check(...)`` of source/ against the checks, and imports that go one
way between the subsystems of `coursetools`, with no circle between its modules and no private name reached
from another module."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import nbformat
import pytest
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

import coursetools
from coursetools.grading.autograde import Grader
from coursetools.grading.checker import parse_hidden, split_hidden
from coursetools.grading.scratch import write_config
from coursetools.hidden import load_group
from coursetools.labs import LABS, checks_module, labs_in, release_notebook, source_notebook

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(coursetools.__file__).parent


def _dotted_strings(value: object) -> list[str]:
    """Every string of a configuration value that names something in coursetools."""
    if isinstance(value, str):
        return [value] if value.startswith("coursetools.") else []
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _dotted_strings(v)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _dotted_strings(v)]
    return []


def _config_strings(cfg: Config) -> list[str]:
    out = []
    for section in cfg.values():
        if isinstance(section, Config):
            out += [s for v in section.values() for s in _dotted_strings(v)]
    return out


def _resolve(dotted: str) -> object:
    """Import the longest module prefix of `dotted`, then follow the rest as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(dotted)


def test_the_labs_folders_follow_the_one_list():
    assert labs_in(ROOT) == list(LABS)
    for lab in LABS:
        assert source_notebook(ROOT, lab).is_file(), lab
        assert release_notebook(ROOT, lab).is_file(), lab
        assert (ROOT / "bank" / lab / "expected.csv").is_file(), lab
        assert importlib.import_module(checks_module(lab)) is not None
    rooms = sorted(p.name for p in (PACKAGE / "checks").iterdir() if p.is_dir() and p.name.startswith("lab"))
    assert rooms == [f"lab{lab[:2]}" for lab in LABS]
    assert sorted(p.name for p in (ROOT / "release").iterdir() if p.is_dir()) == list(LABS)


def test_every_dotted_path_of_the_course_configuration_imports():
    cfg = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    found = _config_strings(cfg)
    assert "coursetools.sandbox.manager.SandboxKernelManager" in found
    assert len(found) >= 4
    for dotted in found:
        assert _resolve(dotted) is not None, dotted


def test_every_dotted_path_of_a_shards_configuration_imports(tmp_path):
    """The configuration a grading shard runs with, written by the real code, then loaded as nbgrader would."""
    grader = Grader(ROOT, LABS[0], progress=None)  # building one starts nothing
    write_config(tmp_path, ROOT, what="a test", shard=grader.shard_config(tmp_path / "ipc"))
    cfg = PyFileConfigLoader("nbgrader_config.py", path=str(tmp_path)).load_config()
    found = _config_strings(cfg)
    assert {"coursetools.grading.autograde.hook_started", "coursetools.grading.autograde.hook_finished"} <= set(found)
    for dotted in found:
        assert callable(_resolve(dotted)) or inspect.isclass(_resolve(dotted)), dotted


def test_the_students_nbgrader_configuration_names_classes_of_the_students_server_package(tmp_path, monkeypatch):
    """Each class the students' nbgrader configuration names imports from the students' server package alone."""
    from coursetools.course.exchange_layout import Layout, students_config

    package = ROOT / "instructor" / "labextensions" / "course-save-queue"
    monkeypatch.syspath_prepend(str(package))
    (tmp_path / "nbgrader_config.py").write_text(students_config(Layout(tmp_path / "exchange", "c", "root")))
    cfg = PyFileConfigLoader("nbgrader_config.py", path=str(tmp_path)).load_config()
    found = sorted(cfg.ExchangeFactory.values())
    assert len(found) == 3 and all(d.startswith("course_student_server.exchange.") for d in found), found
    for dotted in found:
        cls = _resolve(dotted)
        assert inspect.isclass(cls) and Path(inspect.getfile(cls)).is_relative_to(package), dotted


def test_course_lib_imports_nothing_of_nbgrader_nor_of_the_instructors_package():
    """course_lib runs on Colab, where neither is installed: it stays small and pure."""
    found = []
    for path in sorted((ROOT / "course_lib").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            found += [f"{path.name} imports {n}" for n in names
                      if n.split(".")[0] in ("nbgrader", "coursetools", "course_student_server", "jupyterhub")]
    assert not found, found


@pytest.mark.parametrize("lab", LABS)
def test_every_hidden_check_of_the_source_resolves(lab):
    nb = nbformat.read(source_notebook(ROOT, lab), as_version=4)
    calls = 0
    for cell in nb.cells:
        _, hidden = split_hidden(cell.source)
        if hidden is None:
            continue
        for call in parse_hidden(hidden):
            assert call.lab == lab, f"a hidden test of {lab} checks {call.lab}"
            group = load_group(call.lab, call.group)
            inspect.signature(group).bind(**call.names)  # the group takes the functions the cell names
            calls += 1
    assert calls, f"{lab} has no hidden check"


# --- imports go one way -------------------------------------------------------------------------------------
# A part may import from its own folder and from the parts below it, never from a part above.
LAYERS = {
    "__init__": 0, "hidden": 0, "labs": 0,
    "channel": 1, "sandbox": 1, "course": 1,
    "checks": 2,
    "grading": 3,
    "tournament": 4,
    "service": 4,
    "quality": 5,
    "hub": 6,
    "pipeline_cli": 6, "cli": 7, "__main__": 8,
}


def _part(module: str) -> str:
    """The part of ``coursetools.a.b``: its folder, or its own name for a module on top."""
    rest = module.split(".")[1:]
    return rest[0] if rest else "__init__"


def _imports(path: Path, module: str) -> list[str]:
    """Every coursetools module that `path` (module `module`) imports, wherever in the file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "coursetools"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] == "coursetools":
                out.append(target)
    return out


def test_imports_go_one_way_between_the_parts():
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(("coursetools", *path.relative_to(PACKAGE).with_suffix("").parts))
        module = module.removesuffix(".__init__") if path.name == "__init__.py" else module
        mine = _part(module) if path.parent != PACKAGE or path.name != "__init__.py" else "__init__"
        assert mine in LAYERS, f"{path}: a new part of coursetools; give it a layer in this test"
        for target in _imports(path, module):
            theirs = _part(target)
            if theirs != mine and LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(f"{module} imports {target} ({mine} must not depend on {theirs})")
    assert not wrong, "\n".join(wrong)


# --- no circles, no private names across modules ------------------------------------------------------------

def _modules() -> dict[str, Path]:
    """Every module of coursetools by its dotted name (a package by its own name)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(("coursetools", *path.relative_to(PACKAGE).with_suffix("").parts))
        out[module.removesuffix(".__init__")] = path
    return out


def _base(node: ast.ImportFrom, module: str, path: Path) -> str:
    """The module a ``from ... import`` names, its dots resolved against `module`."""
    if not node.level:
        return node.module or ""
    package = (module if path.name == "__init__.py" else module.rpartition(".")[0]).split(".")
    return ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))


def _module_names(tree: ast.AST, module: str, path: Path, modules: dict[str, Path]) -> dict[str, str]:
    """Each name the file binds to a coursetools module (``import coursetools.a as x``, ``from . import b``)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in modules and a.asname:
                    out[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom):
            base = _base(node, module, path)
            for a in node.names:
                if f"{base}.{a.name}" in modules:
                    out[a.asname or a.name] = f"{base}.{a.name}"
    return out


def _edges(module: str, path: Path, modules: dict[str, Path]) -> tuple[set[str], list[str]]:
    """The coursetools modules `module` imports (wherever in the file), and each private name it takes from
    another module (``from m import _x``, ``m._x``)."""
    tree = ast.parse(path.read_text())
    targets, private = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom):
            base = _base(node, module, path)
            if base.split(".")[0] != "coursetools":
                continue
            for a in node.names:
                if f"{base}.{a.name}" in modules:
                    targets.add(f"{base}.{a.name}")
                else:
                    targets.add(base)
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        private.append(f"{module}:{node.lineno} imports {base}.{a.name}")
    names = _module_names(tree, module, path, modules)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            private.append(f"{module}:{node.lineno} uses {names[node.value.id]}.{node.attr}")
    return targets - {module}, private


def _circle(graph: dict[str, set[str]], start: str) -> list[str] | None:
    """A way from `start` back to itself through the import graph, or None."""
    seen, todo = set(), [[start]]
    while todo:
        way = todo.pop()
        for nxt in sorted(graph[way[-1]]):
            if nxt == start:
                return way + [nxt]
            if nxt not in seen:
                seen.add(nxt)
                todo.append(way + [nxt])
    return None


def test_no_module_of_coursetools_imports_itself_through_others():
    modules = _modules()
    graph = {m: _edges(m, p, modules)[0] & set(modules) for m, p in modules.items()}
    circles = {" -> ".join(way) for m in graph if (way := _circle(graph, m))}
    assert not circles, "import circles:\n" + "\n".join(sorted(circles))


def test_no_module_of_coursetools_takes_a_private_name_of_another():
    modules = _modules()
    wrong = [line for m, p in modules.items() for line in _edges(m, p, modules)[1]]
    assert not wrong, ("a private name reached from another module (make it public and documented):\n"
                       + "\n".join(wrong))


def test_the_import_walk_finds_a_circle_and_a_private_name(tmp_path):
    """The two walks above, on a package made to hold what they refuse."""
    (tmp_path / "a.py").write_text("from coursetools import b\nfrom coursetools.b import _hidden\n")
    (tmp_path / "b.py").write_text("import coursetools.a as a\nx = a._secret\n")
    modules = {"coursetools.a": tmp_path / "a.py", "coursetools.b": tmp_path / "b.py"}
    graph = {m: _edges(m, p, modules)[0] for m, p in modules.items()}
    assert _circle(graph, "coursetools.a") == ["coursetools.a", "coursetools.b", "coursetools.a"]
    found = [line for m, p in modules.items() for line in _edges(m, p, modules)[1]]
    assert found == ["coursetools.a:2 imports coursetools.b._hidden", "coursetools.b:2 uses coursetools.a._secret"]
