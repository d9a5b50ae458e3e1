"""Every figure carries a text alternative whose numbers are the trace's: checked against the trace itself."""

import html
import re

from reference import alphabeta_value, minimax_value

from course_lib.charts import nodes_by_depth, ordering_bars, tournament_table
from course_lib.draw import draw_board, draw_tree
from course_lib.games import GameTree, RaceTo, TicTacToe
from course_lib.mcts_draw import draw_search_tree, match_picture, root_choice_chart
from course_lib.trace import Traced

SIXTEEN_LEAVES = [7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3]
TREE_ALT = re.compile(r"(?P<kind>MAX|MIN) to move, value (?P<value>\S+?); (?P<nodes>\d+) nodes, "
                      r"(?P<leaves>\d+) leaves; the search visited (?P<visited>\d+) of them and valued "
                      r"(?P<valued>\d+) leaves in the order (?P<order>[-\d ]+)"
                      r"(; alpha-beta pruned (?P<pruned>\d+) subtrees? \((?P<roots>[^)]*)\))?")


def _searched(search) -> tuple[Traced, object]:
    game = Traced(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    value = search(game, game.initial)
    return game, value


def _pruned_roots(game: Traced) -> list[str]:
    """Nodes never generated whose parent was: counted from the trace, not from the drawing."""
    tree = game.game
    seen = {tree.initial} | {e.node for e in game.trace.events("generate")}
    roots = []
    for parent in seen:
        if not tree.is_terminal(parent):
            roots += [tree.result(parent, a) for a in tree.actions(parent) if tree.result(parent, a) not in seen]
    return sorted(roots)


def test_tree_alt_numbers_are_the_alphabeta_trace():
    game, value = _searched(alphabeta_value)
    drawing = draw_tree(game)
    m = TREE_ALT.search(drawing.alt)
    assert m, drawing.alt
    assert m["kind"] == "MAX" and m["value"] == str(value) == "7"
    assert int(m["nodes"]) == 31 and int(m["leaves"]) == 16
    assert int(m["visited"]) == game.trace.nodes_visited() == 23
    assert [int(v) for v in m["order"].split()] == game.trace.leaf_values() == [7, 6, 2, 8, 7, 0, 7, 8, 8, 8]
    assert int(m["valued"]) == len(game.trace.leaf_values())
    roots = m["roots"].split(", ")
    assert int(m["pruned"]) == len(roots) and sorted(roots) == _pruned_roots(game)
    assert drawing.notes.chosen is not None and "best move at the root" in drawing.alt


def test_tree_alt_after_minimax_prunes_nothing():
    game, value = _searched(minimax_value)
    alt = draw_tree(game).alt
    m = TREE_ALT.search(alt)
    assert m and m["value"] == str(value) and m["pruned"] is None and "nothing pruned" in alt
    assert int(m["visited"]) == game.trace.nodes_visited() == 31
    assert [int(v) for v in m["order"].split()] == SIXTEEN_LEAVES


def test_tree_alt_of_a_game_names_it_and_its_root():
    game = Traced(RaceTo(n=4, k=2))
    value = minimax_value(game, game.initial)
    drawing = draw_tree(game, depth=None)
    m = TREE_ALT.search(drawing.alt)
    assert drawing.alt.startswith("Game tree of RaceTo(")
    assert m and m["value"] == str(value) and int(m["visited"]) == game.trace.nodes_visited()


def test_tree_alt_at_a_step_says_how_far():
    game, _ = _searched(alphabeta_value)
    drawing = draw_tree(game, step=5)
    assert f"after event 5 of {len(game.trace.events())}" in drawing.alt
    assert "of them" in drawing.alt


def test_picture_bundle_carries_alt_into_html_and_metadata():
    game, _ = _searched(alphabeta_value)
    drawing = draw_tree(game)
    data, metadata = drawing._repr_mimebundle_()
    assert data["image/png"].startswith(b"\x89PNG") and metadata["image/png"]["alt"] == drawing.alt
    assert data["text/html"].startswith('<img src="data:image/png;base64,')
    assert f'alt="{html.escape(drawing.alt)}"' in data["text/html"] and data["text/plain"] == drawing.alt


def test_board_alt_reads_every_square():
    alt = draw_board(TicTacToe().state_from(["X.O", ".X.", "..."])).alt
    assert alt == ("Tic-Tac-Toe board, 3 rows by 3 columns: row 0: X, empty, O; row 1: empty, X, empty; "
                   "row 2: empty, empty, empty.")


def test_chart_alts_carry_every_number():
    lines = nodes_by_depth({"minimax": [9, 72, 504], "alpha-beta": {1: 9, 2: 41, 3: 150}})
    assert "minimax: depth 1: 9, depth 2: 72, depth 3: 504; alpha-beta: depth 1: 9, depth 2: 41, depth 3: 150" \
        in lines.alt
    bars = ordering_bars({"row-major": 18297, "centre first": 7300}, baseline="row-major")
    assert "row-major: 18,297; centre first: 7,300 (40%)" in bars.alt
    table = tournament_table({"random": {"greedy": 0.1}, "greedy": {"random": 0.9}})
    assert "random against greedy: 0.1; greedy against random: 0.9" in table.alt


def test_mcts_alts_carry_visits_and_shares():
    class N:
        def __init__(self, action=None, visits=0, total=0, children=()):
            self.action, self.visits, self.total, self.children = action, visits, total, list(children)

    root = N(None, 5, 0, [N(0, 3, 2), N(1, 2, -1, [N(0, 1, 1)])])
    alt = draw_search_tree(root, chosen=0).alt
    assert "after 5 iterations, 4 nodes" in alt and "0: 3 visits, mean reward +0.67 (chosen); 1: 2 visits" in alt
    shares = root_choice_chart({10: [("a", 6), ("b", 4)], 20: [("a", 8), ("b", 12)]}).alt
    assert "after 10: a with 60%; after 20: b with 60%" in shares
    from course_lib.games import ConnectFour
    match = match_picture(ConnectFour().play([3, 3]), [("A", 3, 10, "it=2"), ("B", 3, 12, "d=1")]).alt
    assert "move 1 by A: 3, 10 states (it=2); move 2 by B: 3, 12 states (d=1)" in match
    assert "Connect Four board, 6 rows by 7 columns" in match
