"""Charts are plain functions of measured numbers; check what they draw."""

import pytest
from reference import alphabeta_value, minimax_value

from course_lib.charts import nodes_by_depth, ordering_bars, tournament_table, tournament_text
from course_lib.games import GameTree
from course_lib.trace import Traced


def test_nodes_by_depth_plots_measured_counts_on_a_log_scale():
    counts = {"minimax": [], "alpha-beta": []}
    for depth in (1, 2, 3):
        leaves = list(range(3 ** depth))
        for name, search in (("minimax", minimax_value), ("alpha-beta", alphabeta_value)):
            game = Traced(GameTree.from_leaves(leaves, branching=3))
            search(game, game.initial)
            counts[name].append(game.trace.nodes_visited())
    picture = nodes_by_depth(counts, depths=[1, 2, 3], title="a uniform tree")
    assert picture.ax.get_yscale() == "log"
    line = picture.find("line:minimax")
    assert list(line.get_xdata()) == [1, 2, 3] and list(line.get_ydata()) == [4, 13, 40]
    assert list(picture.find("line:alpha-beta").get_ydata()) == counts["alpha-beta"]
    assert [t.get_text() for t in picture.ax.get_legend().get_texts()] == ["minimax", "alpha-beta"]


def test_nodes_by_depth_rejects_bad_input():
    with pytest.raises(ValueError, match="positive"):
        nodes_by_depth({"x": [0, 1]})
    with pytest.raises(ValueError, match="depths"):
        nodes_by_depth({"x": [1, 2]}, depths=[1])


def test_ordering_bars_single_and_grouped():
    picture = ordering_bars({"row-major": 18297, "centre-corners-edges": 7300}, baseline="row-major")
    assert picture.find("bar:row-major").get_height() == 18297
    assert picture.texts("count")["centre-corners-edges"] == "7,300 (40%)"
    grouped = ordering_bars({"empty board": {"a": 10, "b": 5}, "midgame": {"a": 4, "b": 2}})
    assert grouped.find("bar:midgame:b").get_height() == 2
    assert [t.get_text() for t in grouped.ax.get_xticklabels()] == ["empty board", "midgame"]


def test_tournament_heat_map_and_text():
    scores = {"random": {"greedy": 0.2, "alpha-beta": 0.0}, "greedy": {"random": 0.8, "alpha-beta": 0.1},
              "alpha-beta": {"random": 1.0, "greedy": 0.9}}
    picture = tournament_table(scores, title="wins")
    assert picture.texts("cell")["alpha-beta:greedy"] == "0.9" and "random:random" not in picture.texts("cell")
    image = picture.ax.get_images()[0]
    assert image.get_array().shape == (3, 3)
    text = tournament_text(scores).splitlines()
    assert text[0].split() == ["row", "\\", "col", "random", "greedy", "alpha-beta", "total"]
    assert text[3].split()[-1] == "1.9"


def test_figures_command_counts_and_centre_first_order(root):
    from coursetools.quality.figures import CentreFirst, tictactoe_counts

    from course_lib.games import TicTacToe

    # importing coursetools.cli loads nbformat (seconds): read the command table instead
    assert '"figures": cmd_figures' in (root / "instructor" / "coursetools" / "cli.py").read_text()
    assert CentreFirst(TicTacToe()).actions(TicTacToe().initial)[:5] == [(1, 1), (0, 0), (0, 2), (2, 0), (2, 2)]
    counts = tictactoe_counts(range(1, 4))
    assert counts["minimax"] == [10, 82, 586]
    assert all(a <= m for a, m in zip(counts["alpha-beta (row-major)"], counts["minimax"]))
