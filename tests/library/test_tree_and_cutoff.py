"""GameTree's named actions, evaluations at internal nodes and plain-words errors; CutOff in course_lib;
Reversi with and without the null move.

Searches are the grader's reference searches (course_lib ships none), run on real games.
"""

from __future__ import annotations

import pytest

from coursetools.checks.lab06.reference import expectimax_value
from coursetools.checks.reference import minimax_decision, minimax_value
from course_lib.games import PASS, CutOff, GameTree, IllegalMoveError, PigRace, RaceTo, Reversi, TicTacToe
from course_lib.trace import Traced

# A tree as another course writes it: actions named Left and Right, and a guess at each internal node.
NAMED = {
    "A": ("MAX", {"Left": "B", "Right": "C"}, 4),
    "B": ("MIN", {"Left": "D", "Right": "E"}, 3),
    "C": ("MIN", {"Left": "F", "Right": "G"}, 6),
    "D": 3, "E": 12, "F": 2, "G": 8,
}


def test_named_actions_are_the_tree_actions():
    tree = GameTree.from_mapping(NAMED, root="A")
    assert tree.actions("A") == ["Left", "Right"]
    assert tree.result("C", "Right") == "G"
    assert minimax_value(tree, "A") == 3 and minimax_decision(tree, "A") == "Left"
    with pytest.raises(IllegalMoveError, match=r"(?s)'Up'.*\['Left', 'Right'\]"):
        tree.result("A", "Up")
    with pytest.raises(IllegalMoveError):
        tree.result("A", 0)  # a tree with named actions takes only its names
    traced = Traced(tree)
    minimax_value(traced, traced.initial)
    assert traced.trace.leaves() == ["D", "E", "F", "G"]


def test_evaluations_at_internal_nodes_serve_a_depth_limited_search():
    tree = GameTree.from_mapping(NAMED, root="A")
    assert [tree.evaluation(n, "MAX") for n in "ABC"] == [4, 3, 6]
    assert tree.evaluation("C", "MIN") == -6
    one_ply = CutOff(tree, 1, tree.evaluation)
    assert minimax_value(one_ply, one_ply.initial) == 6, "one ply deep, B looks worth 3 and C 6"
    assert minimax_decision(one_ply, one_ply.initial) == "Right"
    assert minimax_value(CutOff(tree, 2, tree.evaluation), one_ply.initial) == 3
    with pytest.raises(ValueError, match="leaf"):
        tree.evaluation("D", "MAX")
    plain = GameTree.from_mapping({"A": ("MAX", ["B"]), "B": 1}, root="A")
    with pytest.raises(ValueError, match="no evaluation is written at node 'A'"):
        plain.evaluation("A", "MAX")


@pytest.mark.parametrize("nodes, says", [
    ({"A": ("MAX", ["B"]), "B": 1, "Z": 5}, r"\['Z'\] cannot be reached from the root 'A'"),
    ({"A": ("MAX", ["B", "C"]), "B": 1}, "node 'A' has child 'C', which is not defined"),
    ({"A": ("MAX", ["B"]), "B": ("MIN", ["C"]), "C": 1, "X": ("MIN", ["Y"]), "Y": 2},
     r"\['X', 'Y'\] cannot be reached"),
    ({"A": ("MAX", {"L": "B"}), "B": 1, "C": 2}, r"\['C'\] cannot be reached"),
    ({"A": ("MAX", ["B"], 1, 2), "B": 1}, "node 'A': expected a value"),
])
def test_from_mapping_names_the_node_that_is_wrong(nodes, says):
    with pytest.raises(ValueError, match=says):
        GameTree.from_mapping(nodes, root="A")


def test_from_mapping_refuses_an_undefined_root():
    with pytest.raises(ValueError, match="root 'R' is not a node"):
        GameTree.from_mapping({"A": 1}, root="R")


def test_a_chance_node_has_no_point_of_view():
    tree = GameTree.from_mapping({"C": ("CHANCE", [("x", 0.5), ("y", 0.5)]), "x": 2, "y": 4}, root="C")
    with pytest.raises(ValueError, match="a chance node has no point of view"):
        tree.utility("x", tree.to_move("C"))


def test_cutoff_keeps_true_utilities_and_cuts_at_the_depth():
    race = RaceTo(10, 3)
    assert minimax_value(CutOff(race, 20), CutOff(race, 20).initial) == minimax_value(race, race.initial) == 1
    shallow = CutOff(race, 2, lambda state, player: 0.5)
    cut = shallow.result(shallow.result(shallow.initial, 3), 3)
    assert shallow.is_terminal(cut) and shallow.actions(cut) == [] and shallow.utility(cut, "P1") == 0.5
    with pytest.raises(IllegalMoveError):
        shallow.result(cut, 1)
    with pytest.raises(ValueError, match="only defined for terminal states"):
        shallow.utility(shallow.initial, "P1")
    ttt = TicTacToe()
    won = ttt.state_from(["XXX", "OO.", "..."], "O")
    assert CutOff(ttt, 0).utility(CutOff(ttt, 0).start(won), "X") == 1, "a finished game keeps its utility at depth 0"


def test_cutoff_passes_chance_through_for_expectimax():
    pig = PigRace()
    state = pig.state(2, 3, 0, "A", 1)
    deep = CutOff(pig, 50)
    assert deep.to_move(deep.start(pig.result(state, "roll"))) == "CHANCE"
    assert deep.outcomes(deep.start(pig.result(state, "roll"))) == pig.outcomes(pig.result(state, "roll"))
    air = pig.result(state, "roll")
    assert [deep.probability(deep.start(air), face) for face, _ in pig.outcomes(air)] == \
        [pig.probability(air, face) for face, _ in pig.outcomes(air)], "probability passes through as outcomes does"
    assert expectimax_value(deep, deep.start(state)) == pytest.approx(expectimax_value(pig, state))
    cut = CutOff(pig, 1, lambda s, player: 0.25)
    assert expectimax_value(cut, cut.start(state)) == pytest.approx(0.25), "every branch cut after one ply"


def strict_turns_decision(game, state):
    """A decision that assumes the players alternate with each ply (AIMA's two functions)."""
    me = game.to_move(state)

    def value(s, mine):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a), not mine) for a in game.actions(s)]
        return max(values) if mine else min(values)

    scores = [value(game.result(state, a), False) for a in game.actions(state)]
    return game.actions(state)[scores.index(max(scores))]


def test_a_skipped_player_breaks_a_search_that_assumes_alternation():
    rows = [".WB.", "BWBW", ".WBB", ".WWW"]  # lab 02's test_decision: Black's (0, 3) leaves White no move
    with_pass, skip = Reversi(4), Reversi(4, null_move=False)
    after = with_pass.result(with_pass.state_from(rows), (0, 3))
    assert with_pass.actions(after) == [PASS] and with_pass.to_move(with_pass.result(after, PASS)) == "B"
    assert skip.to_move(skip.result(skip.state_from(rows), (0, 3))) == "B", "White is skipped: Black moves again"
    assert minimax_decision(skip, skip.state_from(rows)) == (0, 3)
    assert strict_turns_decision(skip, skip.state_from(rows)) == (0, 0), "alternation lets White choose after (0, 3)"
    assert strict_turns_decision(with_pass, with_pass.state_from(rows)) == (0, 3), "with the null move turns alternate"
    assert minimax_value(skip, skip.state_from(rows)) == minimax_value(with_pass, with_pass.state_from(rows)) == 1


def test_maxn_figure_marks_only_the_entry_a_cut_node_bounds():
    """Shallow pruning (the grader's reference) on lab 06's tree: the root's vector is exact, the cut
    node's bound is on its own player's entry, each player has a colour, a vector leaf gets its own box."""
    import matplotlib

    matplotlib.use("Agg")
    from coursetools.checks.lab06.reference import maxn_shallow_value
    from course_lib.annotations import search_annotations
    from course_lib.ascii import ascii_tree
    from course_lib.draw import draw_tree

    shares = GameTree.from_nested(
        [[(5, 3, 2), (4, 5, 1)], [(2, 7, 1), (2, 1, 7), (8, 1, 1)], [(6, 4, 0), (5, 5, 0)]])
    game = Traced(shares)
    assert maxn_shallow_value(game, game.initial, 10) == (5, 5, 0)
    notes = search_annotations(shares, game.trace)
    assert [notes.text(n) for n in ("P1.0", "P2.0", "P2.1", "P2.2")] == [
        "(5, 5, 0)", "(4, 5, 1)", "(2, ≥7, 1)", "(5, 5, 0)"]
    assert "P2.1 P2 (2, ≥7, 1)" in ascii_tree(shares, game.trace)
    drawing = draw_tree(game)
    faces = {gid.split(":")[1]: drawing.find(gid).get_markerfacecolor() for gid in drawing.gids("node:P")}
    assert len({faces["P1.0"], faces["P2.0"]}) == 2, "each player has a colour of its own"
    leaf = drawing.find("leaf:L.0")
    assert leaf.get_bbox_patch() is not None and drawing.find("node:L.0:visited").get_alpha() == 0.0
    assert "≥ on an entry: a bound" in [t.get_text() for t in drawing.ax.get_legend().get_texts()]
