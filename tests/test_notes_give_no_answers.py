"""The companion notes teach the searches without handing out the graded answers.

Each note's functions are taken from its code cells, adapted to a lab's graded function by
signature only (arguments bound by name, else by position; a missing `me`/`player` filled with the
player to move; a returned tuple also tried element by element) and graded through the lab's hidden
check groups, in this process. None may pass a group: whatever a student pastes from a note still
has to be written for the lab.
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

ROOT = Path(__file__).resolve().parents[1]
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
        "iterative_deepening_decision": (["game", "state", "max_depth", "evaluate"], ["iterative_deepening"]),
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
DEFAULTS = {"alpha": -math.inf, "beta": math.inf, "depth": math.inf, "evaluate": None}

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
}
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


@lru_cache(maxsize=None)
def note_namespace(stem: str) -> dict[str, Any]:
    """Every definition of a note, executed in order in a fresh namespace."""
    nb = nbformat.read(NOTES / f"{stem}.ipynb", as_version=4)
    namespace: dict[str, Any] = {"__name__": f"note_{stem}"}
    for cell in nb.cells:
        if cell.cell_type == "code" and "colab-setup" not in cell.metadata.get("tags", []):
            for node in _definitions(cell.source):
                code = compile(ast.Module(body=[node], type_ignores=[]), stem, "exec")
                try:
                    exec(code, namespace)  # noqa: S102
                except (NameError, ArithmeticError, LookupError):
                    pass  # an assignment that needs what the note computed before: not a definition
    return namespace


def adapt(fn: Callable, lab_params: list[str], pick: int | None) -> Callable:
    """`fn` called with a graded function's arguments, bound by name, else by position."""
    sig = inspect.signature(fn)

    def graded(*args: Any, **kwargs: Any) -> Any:
        given = dict(zip(lab_params, args))
        given.update(kwargs)
        for name in lab_params:
            given.setdefault(name, DEFAULTS.get(name))
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
    pools = [SEARCHES, EVALUATIONS, {"04_move_ordering": ["reorder"]}]
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
