"""Lab 05's grader on its own: the source's solutions pass every hidden group, fast and the
same way twice; the fixed positions the checks rely on say what their descriptions say.

(test_labs.py runs the notebooks and the bug bank through nbgrader; these are the quick checks.)
"""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pytest

from coursetools.checks import lab05
from coursetools.checks import reference_heuristics as ref
from coursetools.hidden import check

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "source" / "05_heuristics" / "05_heuristics.ipynb"
SKIP = ("tournament(", "draw_tree(", "PLAY", "### BEGIN HIDDEN TESTS")

GROUPS = {
    "value_cutoff": ["depth_limited_value"],
    "value_games": ["depth_limited_value"],
    "decision": ["depth_limited_decision"],
    "isolation_mobility": ["isolation_mobility"],
    "isolation_improved": ["isolation_improved"],
    "connect_four_windows": ["connect_four_windows"],
    "food_grid_evaluate": ["food_grid_evaluate"],
    "chess_material": ["chess_material"],
}


@pytest.fixture(scope="module")
def solution() -> dict:
    """The namespace of the source notebook's set-up and solution cells (no tests, figures or tournaments)."""
    nb = nbformat.read(SOURCE, as_version=4)
    namespace: dict = {"display": lambda *args, **kwargs: None}
    for cell in nb.cells:
        if cell.cell_type != "code" or any(s in cell.source for s in SKIP):
            continue
        source = "\n".join(line for line in cell.source.splitlines()
                           if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
        exec(compile(source, "05_heuristics", "exec"), namespace)
    return namespace


def test_lab05_solution_passes_every_hidden_group_within_budget(solution, capsys):
    start = time.process_time()
    for group, names in GROUPS.items():
        check("05_heuristics", group, **{n: solution[n] for n in names})
    used = time.process_time() - start
    out = capsys.readouterr().out
    assert all(f"'{group}': all" in out for group in GROUPS), out
    assert used < 10, f"the hidden tests took {used:.1f} s of CPU (budget: 20 s in all, aim: 6 s)"


def test_lab05_tournaments_are_deterministic(solution):
    openings = lab05.isolation_openings("determinism", count=2)

    def run() -> list:
        rows = ref.tournament(openings, lambda game: ref.searcher(2, solution["isolation_improved"]),
                              lab05.isolation_baselines(2), tag="determinism")
        return [(r.wins, r.draws, r.losses, tuple(r.lost_games)) for r in rows]

    assert run() == run()


def test_lab05_ranking_series_are_what_they_claim():
    iso = lab05.ISOLATION
    for series, player in lab05.isolation_series():
        other = iso.opponent(player)
        diffs = [iso.mobility(s, player) - iso.mobility(s, other) for _, s in series]
        assert diffs == sorted(set(diffs)), diffs
        assert not any(iso.is_terminal(s) for _, s in series)
    game, series = lab05.food_series()
    keys = []
    for _, s in series:
        assert not game.is_terminal(s)
        r, c = divmod(s.positions[0], s.width)
        food = [divmod(i, s.width) for i in range(s.width * s.height) if s.food >> i & 1]
        nearest = min(abs(r - fr) + abs(c - fc) for fr, fc in food)
        keys.append((s.scores[0] - s.scores[1], -nearest))
    assert keys == sorted(set(keys))
    c4 = lab05.connect_four_series()
    assert [s.board.count("X") for _, s in c4] == list(range(len(c4)))
    assert len({s.board.count("O") for _, s in c4}) == 1


def test_lab05_reference_search_follows_the_conventions():
    tree = lab05._nested([[3, [1, 2]], [[4, 5], 7]])
    estimates = {n: 0 for n in tree.nodes()}
    estimates.update({"P1.1": 6, "P1.2": 2})
    evaluate = lab05.tree_evaluation(tree, estimates)
    assert ref.depth_limited_value(tree, tree.initial, 0, evaluate) == 0
    assert ref.depth_limited_value(tree, tree.initial, 2, evaluate) == 3  # L.0 is terminal: utility 3
    assert ref.depth_limited_value(tree, tree.initial, 3, evaluate) == 5  # every leaf reached
    assert ref.depth_limited_decision(tree, tree.initial, 1, evaluate) == 0  # both children 0: the first


@pytest.mark.parametrize("fen, white", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0),
    ("4k3/8/8/8/8/8/8/4K2R b K - 0 1", 5),
    ("4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1", 27),
])
def test_lab05_reference_material(fen, white):
    assert lab05.material(fen, "w") == white and lab05.material(fen, "b") == -white
