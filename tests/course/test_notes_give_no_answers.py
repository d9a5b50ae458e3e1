"""The companion notes teach the searches without handing out the graded answers.

Each note's functions are taken from its code cells, adapted to a lab's graded function by
signature only (arguments bound by name, else by position; a missing `me`/`player` filled with the
player to move; a returned tuple also tried element by element) and graded through the lab's hidden
check groups, in this process. None may pass a group: whatever a student pastes from a note still
has to be written for the lab.

Lab 07 (Monte Carlo tree search) is read from its source notebook once it exists: its graded
functions and groups from the hidden cells' ``check("07_mcts", group, name=name, ...)`` lines, their
parameters and defaults from the solutions. Each function a group really calls (with a stub that
raises in its place, the group fails) is replaced by each note function in turn, the lab's own
solutions standing in for the others, so the note's function alone must make the group fail; the
solutions alone must pass (else the test could not fail). While the lab is absent those tests skip.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import math
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import nbformat
import pytest

from coursetools.hidden import check

ROOT = Path(__file__).resolve().parents[2]
NOTES = ROOT / "notebooks"

#: The graded functions of each lab, their parameters and the hidden groups that grade them.
LABS: dict[str, dict[str, tuple[list[str], list[str]]]] = {
    "02_minimax": {
        "minimax_value": (["game", "state"], ["value", "value_second_player", "value_trace"]),
        "minimax_decision": (["game", "state"], ["decision", "decision_second_player", "decision_ties",
                                                 "decision_trace"]),
        "quick_win_decision": (["game", "state"], ["quick_win"]),
    },
    "03_alphabeta": {
        "alphabeta_value": (["game", "state", "alpha", "beta"],
                            ["value", "children", "pruning", "equality", "deep", "window"]),
    },
    "04_move_ordering": {
        "ordered_alphabeta_value": (["game", "state", "key"], ["ordered_value", "ordered_trace"]),
        "perfect_ordering": (["tree"], ["perfect_ordering"]),
        "alphabeta_tt_value": (["game", "state", "table", "depth", "evaluate"], ["tt_trees", "tt_games", "tt_depth"]),
        "iterative_deepening_decision": (["game", "state", "max_depth", "evaluate", "clock"],
                                         ["iterative_deepening", "deepening_clock"]),
    },
    "05_heuristics": {
        "depth_limited_value": (["game", "state", "depth", "evaluate"], ["value_cutoff", "value_games"]),
        "depth_limited_decision": (["game", "state", "depth", "evaluate"], ["decision"]),
        "isolation_mobility": (["state", "player"], ["isolation_mobility"]),
        "isolation_improved": (["state", "player"], ["isolation_improved"]),
        "connect_four_windows": (["state", "player"], ["connect_four_windows"]),
        "food_grid_evaluate": (["state", "player"], ["food_grid_evaluate"]),
        "chess_material": (["fen", "player"], ["chess_material"]),
        "quiescence_value": (["game", "state", "depth", "evaluate"], ["quiescence"]),
    },
    "06_beyond_two_players": {
        "expectimax_value": (["game", "state"], ["expectimax_trees", "expectimax_dice"]),
        "maxn_value": (["game", "state"], ["maxn_trees", "maxn_turns"]),
        "maxn_shallow_value": (["game", "state", "max_sum"], ["maxn_shallow"]),
    },
}
DEFAULTS = {"alpha": -math.inf, "beta": math.inf, "depth": math.inf, "evaluate": None, "clock": None}

#: Which note functions could stand in for which graded function (every search or evaluation a
#: note defines, against every graded function of the same kind).
SEARCHES = {
    "01_games_and_trees": ["max_value", "min_value", "walk"],
    "02_tictactoe_minimax": ["minimax_search", "node_value", "root", "buggy_value"],
    "03_alphabeta_step_by_step": ["minimax", "alphabeta"],
    "04_move_ordering": ["alphabeta", "solved", "value_of"],
    "05_food_gathering": ["depth_limited_minimax", "depth_limited_alphabeta", "decide", "action_values"],
    "06_isolation_evaluation": ["search_value"],
    "07_chance_and_more_players": ["expectiminimax", "maxn"],
    "08_monte_carlo_tree_search": ["playout_reward", "exact_tables", "mcts_tree", "deepening_minimax_move",
                                   "mcts_move"],
}
#: Note 08's scoring helpers, candidates for lab 07's graded functions besides every search above.
MCTS_HELPERS = {"08_monte_carlo_tree_search": ["ucb_index", "pick_arm", "uct_child", "most_played", "reward"]}
EVALUATIONS = {
    "05_food_gathering": ["food_evaluation"],
    "06_isolation_evaluation": ["mobility", "difference", "aggressive", "material"],
}
CANDIDATES: dict[str, list[tuple[str, str]]] = {}
for _lab, _functions in LABS.items():
    for _name, (_params, _) in _functions.items():
        pool = EVALUATIONS if _params[0] in ("state", "fen") else SEARCHES
        if _name == "perfect_ordering":
            pool = {"04_move_ordering": ["reorder"]}
        CANDIDATES[_name] = [(stem, fn) for stem, fns in pool.items() for fn in fns]
PLAYER_NAMES = ("me", "player", "who", "side")


def _definitions(source: str) -> list[ast.stmt]:
    """Imports, functions, classes and constant assignments of a cell: what a student would paste."""
    keep = []
    for node in ast.parse(source).body:
        constant = isinstance(node, (ast.Assign, ast.AnnAssign)) and not any(
            isinstance(n, ast.Call) for n in ast.walk(node))
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)) or constant:
            keep.append(node)
    return keep


def _executed(path: Path, name: str) -> dict[str, Any]:
    """Every definition of the notebook at `path`, executed in order in a fresh namespace."""
    nb = nbformat.read(path, as_version=4)
    namespace: dict[str, Any] = {"__name__": name}
    for cell in nb.cells:
        if cell.cell_type == "code" and "colab-setup" not in cell.metadata.get("tags", []):
            for node in _definitions(cell.source):
                code = compile(ast.Module(body=[node], type_ignores=[]), path.stem, "exec")
                try:
                    exec(code, namespace)  # noqa: S102
                except (NameError, ArithmeticError, LookupError):
                    pass  # an assignment that needs what the notebook computed before: not a definition
    return namespace


@lru_cache(maxsize=None)
def note_namespace(stem: str) -> dict[str, Any]:
    """Every definition of a note, executed in order in a fresh namespace."""
    return _executed(NOTES / f"{stem}.ipynb", f"note_{stem}")


def adapt(fn: Callable, lab_params: list[str], pick: int | None, defaults: dict | None = None) -> Callable:
    """`fn` called with a graded function's arguments, bound by name, else by position."""
    sig = inspect.signature(fn)
    defaults = DEFAULTS if defaults is None else {**DEFAULTS, **defaults}

    def graded(*args: Any, **kwargs: Any) -> Any:
        given = dict(zip(lab_params, args))
        given.update(kwargs)
        for name in lab_params:
            given.setdefault(name, defaults.get(name))
        spare = [given[n] for n in lab_params if n not in sig.parameters]
        call = {}
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if p.name in given:
                call[p.name] = given[p.name]
            elif p.name in PLAYER_NAMES and "player" in given:
                call[p.name] = given["player"]
            elif p.name in PLAYER_NAMES and "game" in given and "state" in given:
                call[p.name] = given["game"].to_move(given["state"])
            elif spare:
                call[p.name] = spare.pop(0)
            elif p.default is p.empty:
                raise TypeError(f"{fn.__name__} needs {p.name!r}, which a lab call does not give")
        out = fn(**call)
        return out[pick] if pick is not None and isinstance(out, tuple) else out

    graded.__name__ = fn.__name__
    return graded


def _cases() -> list[tuple[str, str, str, str, str]]:
    out = []
    for lab, functions in LABS.items():
        for name, (_params, groups) in functions.items():
            for (stem, fn), group in itertools.product(CANDIDATES[name], groups):
                out.append((lab, name, group, stem, fn))
    return out


def _passes(lab: str, group: str, graded: dict[str, Callable]) -> bool:
    try:
        check(lab, group, **graded)
    except BaseException as exc:  # a failed check, or the note's code failing on the lab's cases
        if isinstance(exc, KeyboardInterrupt):
            raise
        return False
    return True


def test_every_listed_note_function_exists():
    """A renamed function must be listed again, or the test below would skip it."""
    pools = [SEARCHES, EVALUATIONS, {"04_move_ordering": ["reorder"]}, MCTS_HELPERS]
    missing = [(stem, n) for pool in pools for stem, names in pool.items() for n in names
               if not callable(note_namespace(stem).get(n))]
    assert not missing, missing


@pytest.mark.slow
@pytest.mark.parametrize("lab, name, group, stem, fn", _cases(),
                         ids=[f"{c[2]}-{c[0][:2]}-{c[3][:2]}.{c[4]}" for c in _cases()])
def test_no_note_function_passes_a_hidden_group(lab, name, group, stem, fn):
    namespace = note_namespace(stem)
    params = LABS[lab][name][0]
    for pick in (None, 0, 1):
        graded = {name: adapt(namespace[fn], params, pick)}
        assert not _passes(lab, group, graded), (
            f"note {stem}'s {fn}, adapted to {name} (result {pick}), passes the hidden group {lab}/{group}")


# -- lab 07, read from its source notebook once it exists ------------------------------------------------

LAB07 = "07_mcts"
LAB07_SOURCE = ROOT / "source" / LAB07 / f"{LAB07}.ipynb"
needs_lab07 = pytest.mark.skipif(not LAB07_SOURCE.exists(), reason=f"{LAB07_SOURCE.relative_to(ROOT)} is not written yet")


@lru_cache(maxsize=None)
def lab07_groups() -> dict[str, list[str]]:
    """group -> the names its hidden cell passes, from ``check("07_mcts", group, name=name, ...)``."""
    groups: dict[str, list[str]] = {}
    for cell in nbformat.read(LAB07_SOURCE, as_version=4).cells:
        if cell.cell_type != "code" or "check(" not in cell.source:
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check" and len(node.args) >= 2
                    and all(isinstance(a, ast.Constant) for a in node.args[:2]) and node.args[0].value == LAB07):
                groups[node.args[1].value] = [k.arg for k in node.keywords]
    return groups


@lru_cache(maxsize=None)
def lab07_solutions() -> dict[str, Any]:
    """The definitions of lab 07's source notebook (solutions included), executed in order."""
    return _executed(LAB07_SOURCE, "lab07_source")


def _stub(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("not written")


@lru_cache(maxsize=None)
def lab07_calls(group: str) -> tuple[str, ...]:
    """The functions `group` really calls: with a stub that raises in its place, the group fails."""
    solutions = lab07_solutions()
    names = lab07_groups()[group]
    return tuple(n for n in names if not _passes(LAB07, group, {**{m: solutions[m] for m in names}, n: _stub}))


def _lab07_cases() -> list[tuple[str, str, str, str]]:
    if not LAB07_SOURCE.exists():
        return []
    pool = {**SEARCHES, **{stem: SEARCHES.get(stem, []) + fns for stem, fns in MCTS_HELPERS.items()}}
    return [(group, name, stem, fn) for group, names in lab07_groups().items() for name in names
            for stem, fns in pool.items() for fn in fns]


@needs_lab07
def test_lab07_hidden_groups_are_found_and_the_solutions_pass_them():
    """The parsing above finds lab 07's groups, and its own solutions pass each: a note failing means something."""
    groups = lab07_groups()
    assert groups and all(groups.values()), groups
    solutions = lab07_solutions()
    failed = [group for group, names in groups.items()
              if not _passes(LAB07, group, {n: solutions[n] for n in names})]
    assert not failed, f"lab 07's own solutions fail the hidden groups {failed}"
    idle = [group for group in groups if not lab07_calls(group)]
    assert not idle, f"these groups pass whatever function they are given: {idle}"


@pytest.mark.slow
@needs_lab07
@pytest.mark.parametrize("group, name, stem, fn", _lab07_cases() or [("-", "-", "-", "-")],
                         ids=[f"{c[0]}-{c[1]}-{c[2][:2]}.{c[3]}" for c in _lab07_cases()] or ["lab07-absent"])
def test_no_note_function_passes_a_lab07_group(group, name, stem, fn):
    if name not in lab07_calls(group):
        pytest.skip(f"{LAB07}/{group} takes {name} but never calls it")
    solutions = lab07_solutions()
    graded_fn = solutions[name]
    sig = inspect.signature(graded_fn)
    params = list(sig.parameters)
    defaults = {p.name: p.default for p in sig.parameters.values() if p.default is not p.empty}
    others = {n: solutions[n] for n in lab07_groups()[group] if n != name}
    for pick in (None, 0, 1):
        graded = {**others, name: adapt(note_namespace(stem)[fn], params, pick, defaults)}
        assert not _passes(LAB07, group, graded), (
            f"note {stem}'s {fn}, adapted to {name} (result {pick}), passes the hidden group {LAB07}/{group}")
