"""Widget model tests: driven from code, as a click or a slider move in the browser would."""

import sys

import pytest
from reference import alphabeta_value

from course_lib.games import ConnectFour, GameTree, RaceTo, TicTacToe
from course_lib.trace import Traced
from course_lib.widgets import (
    NO_IPYWIDGETS, STATIC_NOTE, VIEW_MIME, GameBoard, TraceStepper, live, parse_move, play_in_terminal, widget_view,
)

SIXTEEN_LEAVES = [7, 6, 2, 8, 8, 7, 1, 3, 0, 7, 7, 8, 8, 8, 2, 3]


def first_legal(game, state):
    """A decision function that plays the first legal action."""
    return game.actions(state)[0]


@pytest.fixture(scope="module")
def stepper():
    game = Traced(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    alphabeta_value(game, game.initial)
    return TraceStepper(game)


def test_stepper_slider_moves_through_the_events_and_redraws(stepper):
    assert stepper.slider.max == len(stepper.stops) - 1 == 22 + 10
    before = stepper.image.value
    assert stepper.drawing.styled("visited") == [] and len(stepper.drawing.styled("pending")) == 31
    stepper.slider.value = 5
    assert stepper.drawing.notes.step == stepper.stops[5]
    assert stepper.image.value != before and stepper.image.value.startswith('<img src="data:image/png;base64,')
    assert f'alt="{stepper.drawing.alt}"' in stepper.image.value and "after event" in stepper.drawing.alt
    assert len(stepper.drawing.styled("visited")) == 5  # root, P2.0, P1.1, P2.2, L.0
    assert stepper.drawing.texts("order") == {"L.0": "1"}
    assert "utility of L.0 = 7" in stepper.caption.value
    # the caption is a live region holding the stop's line, so a screen reader says it at each step
    assert stepper.caption.value == live(stepper.describe(5)) and 'role="status" aria-live="polite"' in live("")


def test_stepper_shows_pruning_only_once_it_happened(stepper):
    after_l2 = next(i for i, s in enumerate(stepper.stops) if s and stepper.events[s - 1].node == "L.2"
                    and stepper.events[s - 1].kind == "utility")
    stepper.go(after_l2)
    assert stepper.drawing.styled("pruned") == [] and "L.3" in stepper.drawing.styled("pending")
    assert stepper.drawing.texts("window")["P2.3"] == "α=6 β=2"
    stepper.go(after_l2 + 1)  # the next stop is generating P1.2: P2.3 has returned without L.3
    assert stepper.drawing.styled("pruned") == ["L.3"]
    assert stepper.drawing.edges("cut") == [("P2.3", "L.3")]


def test_stepper_buttons_and_last_stop_match_the_full_drawing(stepper):
    stepper.go(0)
    stepper.next.click()
    stepper.next.click()
    stepper.prev.click()
    assert stepper.slider.value == 1
    stepper.go(10_000)
    assert stepper.slider.value == stepper.slider.max
    assert sorted(stepper.drawing.styled("pruned")) == sorted(["L.3", "P2.5", "L.6", "L.7", "L.9", "P2.9", "L.14", "L.15"])
    assert stepper.drawing.edges("chosen") == [("P1.0", "P2.1")]


def test_stepper_falls_back_to_a_static_picture_with_a_note(stepper):
    bundle, _ = stepper._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["image/png"].startswith(b"\x89PNG") and bundle["text/plain"] == STATIC_NOTE
    assert f'alt="{STATIC_NOTE}. Game tree: MAX to move, value 7;' in bundle["text/html"], "the static one has an alt too"
    assert stepper.static().ax.get_title() == STATIC_NOTE


def test_stepper_view_names_its_own_widget_model(stepper):
    assert stepper.available and widget_view(stepper.box)[VIEW_MIME]["model_id"] == stepper.box.model_id
    assert widget_view(None) == {}


def test_stepper_without_ipywidgets_shows_the_picture_and_says_why(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # `import ipywidgets` now raises ImportError
    game = Traced(GameTree.from_leaves(SIXTEEN_LEAVES, branching=2))
    alphabeta_value(game, game.initial)
    bare = TraceStepper(game)
    assert not bare.available and bare.box is None
    bundle, _ = bare._repr_mimebundle_()
    assert VIEW_MIME not in bundle and bundle["text/plain"] == NO_IPYWIDGETS
    assert bundle["image/png"].startswith(b"\x89PNG") and bare.static().ax.get_title() == NO_IPYWIDGETS
    bare.go(5)
    assert bare.drawing.notes.step == bare.stops[5] and "utility of L.0 = 7" in bare.describe(5)


def test_stepper_needs_a_trace():
    with pytest.raises(ValueError, match="trace"):
        TraceStepper(GameTree.from_leaves([1, 2], branching=2))


def test_board_click_plays_the_square_and_the_computer_replies():
    board = GameBoard(TicTacToe(), first_legal)
    board.squares[(1, 1)].click()
    assert board.state.board == "O...X...."
    assert board.history == [("X", (1, 1)), ("O", (0, 0))]
    assert board.squares[(0, 0)].description == "O" and board.squares[(1, 1)].description == "X"
    assert "Your move" in board.message.value


def test_board_ignores_illegal_clicks_with_a_note():
    board = GameBoard(TicTacToe(), first_legal)
    board.squares[(1, 1)].click()
    board.squares[(1, 1)].click()
    assert board.state.board == "O...X...." and "taken" in board.message.value


def test_board_computer_starts_and_result_message():
    board = GameBoard(TicTacToe(), first_legal)
    board.computer_starts.click()
    assert board.human == "O" and board.state.board == "X........"
    for square in [(1, 0), (2, 0)]:  # X takes (0, 1) and then (0, 2): the top row
        board.squares[square].click()
    assert board.over() and board.message.value == live("<b>The computer wins.</b>")
    board.squares[(1, 1)].click()
    assert "game is over" in board.message.value
    board.new_game.click()
    assert board.state == TicTacToe().initial and board.human == "X"


def test_board_human_can_win():
    board = GameBoard(TicTacToe(), first_legal)
    for square in [(1, 1), (2, 0), (0, 2)]:
        board.squares[square].click()
    assert board.message.value == live("<b>You win!</b>")


def test_board_connect_four_columns_and_full_column():
    board = GameBoard(ConnectFour(4, 4), first_legal)
    board.squares[0].click()
    assert board.state.heights == (2, 0, 0, 0)
    board.squares[0].click()
    assert board.state.heights == (4, 0, 0, 0)
    board.squares[0].click()
    assert "full" in board.message.value and board.state.heights == (4, 0, 0, 0)


def test_board_reports_a_broken_decide_function():
    def broken(game, state):
        raise KeyError("oops")

    board = GameBoard(TicTacToe(), broken)
    board.squares[(0, 0)].click()
    assert "KeyError" in board.message.value and board.state.board == "X........"
    board2 = GameBoard(TicTacToe(), lambda game, state: (0, 0))
    board2.squares[(0, 0)].click()
    assert "not legal" in board2.message.value


def test_board_other_games_get_one_button_per_action():
    board = GameBoard(RaceTo(), first_legal)
    assert sorted(board.squares) == [1, 2, 3]
    board.squares[3].click()
    assert board.state.total == 4 and sorted(board.squares) == [1, 2, 3]


def test_board_static_fallback_has_the_board_and_a_note():
    board = GameBoard(TicTacToe(), first_legal)
    bundle, _ = board._repr_mimebundle_()
    assert bundle["image/png"].startswith(b"\x89PNG") and STATIC_NOTE in bundle["text/plain"]


def test_board_without_ipywidgets_still_plays_and_shows_a_static_board(monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    board = GameBoard(TicTacToe(), first_legal)
    assert board.box is None and board.squares == {}
    board.click((1, 1))
    assert board.state.board == "O...X...." and board.status() == "You play X. Your move."
    bundle, _ = board._repr_mimebundle_()
    assert VIEW_MIME not in bundle and bundle["image/png"].startswith(b"\x89PNG")
    assert "ipywidgets is not installed" in bundle["text/plain"] and "play_in_terminal" in bundle["text/plain"]


def test_parse_move_for_squares_columns_and_words():
    assert parse_move(TicTacToe(), TicTacToe().initial, "(2, 0)") == (2, 0)
    assert parse_move(ConnectFour(), ConnectFour().initial, "3") == 3
    assert parse_move(ConnectFour(), ConnectFour().initial, "x") is None


def test_play_in_terminal_reads_moves_and_reports_the_result():
    answers = iter(["1 1", "1 1", "2,0", "0 2"])
    said = []
    final = play_in_terminal(TicTacToe(), first_legal, ask=lambda prompt: next(answers), say=said.append)
    assert final.winner == "X" and said[-1] == "You win!"
    assert any("not a legal move" in s for s in said)


def test_play_in_terminal_never_asks_under_nbgrader(monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")

    def no_input(prompt):
        raise AssertionError("input() must not be called while grading")

    said = []
    assert play_in_terminal(TicTacToe(), first_legal, ask=no_input, say=said.append) is None
    assert "skipped while grading" in said[0]
