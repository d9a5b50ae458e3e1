"""The trace records what a search did; the course's facts come out of it: the 16-leaf tree has
minimax value 7 (31 nodes) and alpha-beta value 7 (23 nodes, leaves 7 6 2 8 7 0 7 8 8 8); the 8-leaf
list has value 12 (alpha-beta evaluates 3 5 2 9 12 5 23); full minimax of Tic-Tac-Toe visits
549,946 nodes and the game is a draw."""

import pytest
from reference import alphabeta_value, minimax_value

from course_lib.games import ConnectFour, GameTree, TicTacToe
from course_lib.trace import Event, Traced

SIXTEEN = [7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3]
EIGHT = [3, 5, 2, 9, 12, 5, 23, 24]


def test_sixteen_leaf_tree_minimax_value_7_over_31_nodes():
    game = Traced(GameTree.from_leaves(SIXTEEN, branching=2))
    assert minimax_value(game, game.initial) == 7
    assert game.trace.nodes_visited() == 31
    assert game.trace.leaf_values() == SIXTEEN


def test_sixteen_leaf_tree_alphabeta_order_and_23_nodes():
    game = Traced(GameTree.from_leaves(SIXTEEN, branching=2))
    assert alphabeta_value(game, game.initial) == 7
    assert game.trace.leaf_values() == [7, 6, 2, 8, 7, 0, 7, 8, 8, 8]
    assert game.trace.nodes_visited() == 23
    leaves = game.trace.leaves()
    assert [game.value(n) for n in leaves] == game.trace.leaf_values()
    order = [game.leaves().index(n) for n in leaves]
    assert order == sorted(set(order)), "leaves are evaluated once each, left to right"


def test_eight_leaf_list_value_12_and_seven_leaves():
    game = Traced(GameTree.from_leaves(EIGHT, branching=2))
    assert alphabeta_value(game, game.initial) == 12
    assert game.trace.leaf_values() == [3, 5, 2, 9, 12, 5, 23]


@pytest.mark.slow
def test_tictactoe_full_minimax_549946_nodes_and_draw():
    game = Traced(TicTacToe(), keep_events=False)
    assert minimax_value(game, game.initial) == 0
    assert game.trace.nodes_visited() == 549_946


def test_tictactoe_alphabeta_18297_nodes_in_row_major_order():
    game = Traced(TicTacToe(), keep_events=False)
    assert alphabeta_value(game, game.initial) == 0
    assert game.trace.nodes_visited() == 18_297


def test_events_name_node_depth_parent_and_action():
    game = Traced(GameTree.from_leaves([3, 5, 2, 9], branching=2))
    minimax_value(game, game.initial)
    first = game.trace[0]
    assert first == Event("terminal_test", "P1.0", 0, None, None, False)
    gen = game.trace.events("generate")
    assert gen[0] == Event("generate", "P2.0", 1, "P1.0", 0, None)
    assert [e.depth for e in game.trace.events("utility")] == [2, 2, 2, 2]
    assert game.trace.expanded() == ["P1.0", "P2.0", "P2.1"]
    assert game.trace.edges()[:2] == [("P1.0", 0, "P2.0"), ("P2.0", 0, "L.0")]


def test_double_evaluation_and_double_generation_show():
    game = Traced(GameTree.from_leaves([3, 5], branching=2))
    leaf = game.result(game.initial, 0)
    game.result(game.initial, 0)
    game.utility(leaf, "MAX")
    game.utility(leaf, "MAX")
    assert game.trace.calls("L.0") == {"generate": 2, "utility": 2}
    assert game.trace.repeated("utility") == ["L.0"] and game.trace.repeated("generate") == ["L.0"]


def test_evaluator_is_recorded_at_its_depth():
    game = Traced(ConnectFour(4, 4))
    evaluate = game.evaluator(lambda state, player: 0.5)
    child = game.result(game.initial, 1)
    assert evaluate(child, "X") == 0.5
    assert game.trace.events("evaluate") == [Event("evaluate", child, 1, value=0.5, player="X")]
    assert game.trace.leaf_values() == [0.5]
    evaluate(child, player="O")  # the player passed by name is recorded too
    assert game.trace[-1].player == "O" and game.trace[-1].action is None


def test_utility_and_evaluate_events_carry_the_player_not_an_action():
    """The player a value was asked for has a field of its own; `action` belongs to generate events."""
    game = Traced(GameTree.from_leaves([3, 5], branching=2))
    leaf = game.result(game.initial, 1)
    game.utility(leaf, "MIN")
    game.utilities(leaf)
    gen, util, vector = game.trace.events("generate", "utility")
    assert (gen.action, gen.player) == (1, None)
    assert util == Event("utility", leaf, 1, value=-5, player="MIN") and util.action is None
    assert vector.player is None and vector.value == (5, -5)


def test_trace_cannot_be_reset_or_replaced_by_ordinary_calls():
    game = Traced(GameTree.from_leaves([3, 5], branching=2))
    game.actions(game.initial)
    with pytest.raises(AttributeError):
        game.trace = None
    with pytest.raises(AttributeError):
        game.trace.clear()
    assert not hasattr(game.trace, "reset")
    events = game.trace.events()
    events.clear()
    assert game.trace.count("expand") == 1 and len(game.trace) == 1


def test_traced_game_behaves_like_the_game():
    plain, traced = TicTacToe(), Traced(TicTacToe())
    assert traced.initial == plain.initial and traced.players == plain.players
    s = traced.result(traced.initial, (1, 1))
    assert s == plain.result(plain.initial, (1, 1)) and traced.actions(s) == plain.actions(s)
    assert str(traced.display(s)) == plain.display(s)


def test_counts_only_mode_keeps_counts_not_events():
    game = Traced(TicTacToe(), keep_events=False)
    game.actions(game.initial)
    assert game.trace.count("expand") == 1
    with pytest.raises(ValueError, match="keep_events=False"):
        game.trace.leaves()
