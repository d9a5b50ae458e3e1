"""play(): the widget board driven from code, typed moves through a real kernel and through stdin, the clock.

The browser half (a click on the board in JupyterLab and in Notebook 7) is in test_browser_play.py.
"""

from __future__ import annotations

import math
import os
import queue
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from course_lib.clock import NodeBudget, WallClock
from course_lib.games import ConnectFour, Isolation, TicTacToe
from course_lib.play import (
    GRADING_NOTE, BadDecision, PlayBoard, choose_front, computer_move, deepening, play, play_text, takes_clock,
)

ROOT = Path(__file__).resolve().parents[2]


def first_legal(game, state):
    return game.actions(state)[0]


def searched_to(game, state, depth, player=None):
    """Depth-limited alpha-beta value (0 at the cut-off), from the point of view of `player`."""
    player = game.to_move(state) if player is None else player

    def value(s, d, alpha, beta):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return 0
        mine = game.to_move(s) == player
        v = -math.inf if mine else math.inf
        for a in game.actions(s):
            w = value(game.result(s, a), d - 1, alpha, beta)
            if mine:
                v = max(v, w)
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    return v
                beta = min(beta, v)
        return v

    return value(state, depth, -math.inf, math.inf)


def depth_decision(game, state, depth):
    """The first action with the best depth-limited value."""
    best, best_action = -math.inf, None
    for a in game.actions(state):
        v = searched_to(game, game.result(state, a), depth - 1, game.to_move(state))
        if v > best:
            best, best_action = v, a
    return best_action


# -- which decide takes a clock, and the clock itself ----------------------------------------

def test_takes_clock_reads_the_signature():
    def with_clock(game, state, clock):
        return None

    def with_depth(game, state, depth=4):
        return None

    assert takes_clock(with_clock) and takes_clock(lambda game, state, *, clock: None)
    assert not takes_clock(first_legal) and not takes_clock(with_depth) and not takes_clock(len)
    assert takes_clock(deepening(depth_decision))


def test_computer_move_gives_a_fresh_clock_each_move_and_checks_legality():
    clocks = []

    def decide(game, state, clock):
        clocks.append(clock)
        return game.actions(state)[0]

    game = TicTacToe()
    template = NodeBudget(7)
    assert computer_move(game, game.initial, decide, template).action == (0, 0)
    computer_move(game, game.initial, decide, template)
    assert len(clocks) == 2 and clocks[0] is not clocks[1] and clocks[0] is not template and clocks[1].nodes == 7
    with pytest.raises(BadDecision, match=r"returned \(5, 5\), which is not a legal move here; legal moves: \[\(0, 0\)"):
        computer_move(game, game.initial, lambda g, s: (5, 5))
    with pytest.raises(BadDecision, match="decide raised ZeroDivisionError"):
        computer_move(game, game.initial, lambda g, s: 1 / 0)
    with pytest.raises(ValueError, match="clock must be seconds"):
        computer_move(game, game.initial, first_legal, "soon")


def test_a_slow_decide_without_a_clock_is_told_it_overran():
    def slow(game, state):
        time.sleep(0.7)
        return game.actions(state)[0]

    move = computer_move(TicTacToe(), TicTacToe().initial, slow, clock=0.1)
    assert move.seconds >= 0.7 and "over its 0.1 s clock: give decide a clock argument" in move.note


def test_deepening_answers_within_its_wall_clock_with_the_last_finished_depth():
    game = ConnectFour()
    state = game.play([3, 3, 2])
    depths = []

    def to_depth(g, s, depth):
        action = depth_decision(g, s, depth)
        depths.append(depth)
        return action

    decide = deepening(to_depth)
    started = time.monotonic()
    move = computer_move(game, state, decide, clock=0.5)
    took = time.monotonic() - started
    assert took < 0.5 + 0.4, f"{took:.2f} s for a 0.5 s clock"
    assert depths and depths[0] == 1 and depths == list(range(1, len(depths) + 1)) and len(depths) >= 2
    assert move.action == depth_decision(game, state, depths[-1]), "the move of the last depth that finished"
    assert move.note == ""


def test_deepening_stops_once_the_whole_tree_is_searched():
    game = TicTacToe()
    state = game.state_from(["XOX", "OXO", "..."])  # three empty squares: depth 3 sees everything
    depths = []

    def to_depth(g, s, depth):
        depths.append(depth)
        return depth_decision(g, s, depth)

    assert deepening(to_depth)(game, state, WallClock(60)) == (2, 0)
    assert depths == [1, 2, 3, 4], "depth 4 generates no state more than depth 3: it stops there"


# -- the widget board, driven from code ------------------------------------------------------

def test_board_tictactoe_click_and_clocked_reply():
    board = PlayBoard(TicTacToe(), deepening(depth_decision), clock=0.3)
    assert board.uses_clock and len(board.squares) == 9
    board.squares[(1, 1)].click()
    assert board.state.board.count("X") == 1 and board.state.board.count("O") == 1
    assert len(board.moves) == 1 and board.moves[0].seconds < 0.3 + 0.4
    assert board.squares[(1, 1)].description == "X"
    assert "The computer played" in board.message.value and "Your move" in board.message.value


def test_board_illegal_click_names_the_legal_moves():
    board = PlayBoard(TicTacToe(), first_legal)
    board.click((1, 1))  # the computer answers (0, 0)
    board.click((0, 0))
    assert "(0, 0) is not a legal move here. Legal moves: (0, 1), (0, 2), (1, 0)" in board.message.value
    assert board.state.board.count("X") == 1


def test_board_connect_four_columns():
    board = PlayBoard(ConnectFour(), first_legal, clock=1)
    board.squares[3].click()
    assert board.state.heights == (1, 0, 0, 1, 0, 0, 0)
    assert "The computer played 0" in board.message.value


def test_board_isolation_is_a_grid_of_squares_and_refuses_unreachable_ones():
    game = Isolation(start=((0, 0), (4, 4)))
    board = PlayBoard(game, first_legal)
    assert board.kind == "squares" and sorted(board.squares) == [(r, c) for r in range(5) for c in range(5)]
    assert board.squares[(0, 0)].description == "1" and board.squares[(4, 4)].description == "2"
    legal = game.actions(game.initial)
    assert {a for a, b in board.squares.items() if b.button_style == "success"} == set(legal)
    board.click((1, 2))  # a knight's jump: not a queen move
    assert "(1, 2) is not a legal move here. Legal moves: (0, 1)" in board.message.value
    board.squares[(2, 2)].click()
    assert board.state.positions[0] == 12 and board.squares[(0, 0)].description == "■"
    assert board.state.positions[1] != 24 and board.squares[(4, 4)].description == "■", "the computer moved"


def test_board_computer_starts_when_the_human_plays_second():
    board = PlayBoard(TicTacToe(), first_legal, computer_starts=True)
    assert board.human == "O" and board.state.board.startswith("X")


def test_board_static_bundle_says_how_to_play_without_widgets():
    board = PlayBoard(TicTacToe(), first_legal)
    bundle, _ = board._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle and bundle["image/png"].startswith(b"\x89PNG")
    assert 'play(game, decide, front="text")' in bundle["text/plain"]
    iso = PlayBoard(Isolation(), first_legal)
    assert iso._repr_mimebundle_()[0]["image/png"].startswith(b"\x89PNG")


def test_choose_front():
    assert choose_front("text") == ("text", "asked for")
    assert choose_front("auto") == ("text", "not in a Jupyter kernel")  # pytest is no kernel
    assert choose_front("widgets")[0] == "widgets"
    with pytest.raises(ValueError, match="front must be one of"):
        choose_front("html")


# -- typed moves -----------------------------------------------------------------------------

@pytest.mark.parametrize("game, typed, expect", [
    (TicTacToe(), ["1 1", "1 1", "0 1", "q"], "1 1 is not a legal move here. Legal moves: (0, 1), (0, 2)"),
    (ConnectFour(), ["3", "9", "q"], "9 is not a legal move here. Legal moves: 0, 1, 2, 3, 4, 5, 6"),
    (Isolation(start=((0, 0), (4, 4))), ["1 2", "2 2", "q"], "1 2 is not a legal move here. Legal moves: (0, 1)"),
])
def test_play_text_names_the_legal_moves(game, typed, expect):
    answers, said = iter(typed), []
    prompts = []

    def ask(prompt):
        prompts.append(prompt)
        return next(answers)

    play_text(game, first_legal, ask=ask, say=said.append)
    assert any(line.startswith(expect) for line in said), said
    assert "The computer plays" in "\n".join(said) and said[-1] == "Stopped."
    assert "for example" in prompts[0]


def test_play_text_to_the_end():
    answers = iter(["0 0", "0 1", "0 2"])  # X takes the top row; the computer fills the column below
    said = []
    final = play_text(TicTacToe(), lambda g, s: [a for a in g.actions(s) if a[0] == 1][0],
                      ask=lambda _: next(answers), say=said.append)
    assert final.winner == "X" and said[-1] == "You win!"


def test_play_never_waits_while_graded(monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    play(TicTacToe(), first_legal, front="text")  # would read stdin otherwise
    assert capsys.readouterr().out.strip() == GRADING_NOTE


def test_play_in_a_terminal_reads_stdin():
    """A real Python process, not a kernel: play() chooses typed moves and reads them from stdin."""
    code = ("from course_lib.play import play\nfrom course_lib.games import TicTacToe\n"
            "play(TicTacToe(), lambda g, s: g.actions(s)[0], clock=1)\n")
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    done = subprocess.run([sys.executable, "-c", code], input="1 1\nx\n2 2\n", capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "x is not a legal move here. Legal moves: (0, 1), (0, 2)" in out
    assert out.count("The computer plays") == 2 and "Stopped." in out, out  # the input ended: stop


# -- typed moves through a real kernel ----------------------------------------------------------

@pytest.mark.slow
def test_play_text_through_a_real_kernel_without_ipywidgets():
    """In a kernel where ipywidgets cannot be imported, play() asks for moves with input() over stdin."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(ROOT),
                              env={k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"})
    try:
        code = textwrap.dedent("""
            import sys
            sys.modules["ipywidgets"] = None  # as if it were not installed
            from course_lib.play import choose_front, play
            from course_lib.games import TicTacToe
            print(choose_front())
            play(TicTacToe(), lambda g, s: g.actions(s)[0], human="O", clock=1)
        """)
        msg_id = kc.execute(code, allow_stdin=True)
        typed = iter(["2 2", "0 0", "2 1", "2 0", "q"])
        prompts, out = [], []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                request = kc.get_stdin_msg(timeout=0.2)
                prompts.append(request["content"]["prompt"])
                kc.input(next(typed))
            except queue.Empty:
                pass
            try:
                while True:
                    msg = kc.get_iopub_msg(timeout=0.05)
                    if msg["parent_header"].get("msg_id") != msg_id:
                        continue
                    if msg["msg_type"] == "stream":
                        out.append(msg["content"]["text"])
                    elif msg["msg_type"] == "error":
                        pytest.fail("\n".join(msg["content"]["traceback"]))
                    elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                        deadline = 0
                        break
            except queue.Empty:
                pass
        text = "".join(out)
        assert "('text', 'ipywidgets is not installed here" in text, text
        assert prompts[0].startswith("Your move as O (type row and column, for example"), prompts
        assert "0 0 is not a legal move here. Legal moves: (0, 2), (1, 0), (1, 1)" in text, text
        assert text.count("The computer plays") == 3 and text.rstrip().endswith("The computer wins."), text
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_deepening_works_on_a_game_that_delegates_like_traced():
    from course_lib.trace import Traced

    game = Traced(TicTacToe())
    state = game.initial
    decide = deepening(lambda g, s, depth: depth_decision(g, s, min(depth, 2)), max_depth=3)
    assert decide(game, state, WallClock(30)) == depth_decision(TicTacToe(), TicTacToe().initial, 2)
    assert game.trace.count("generate") > 0, "the searches ran on the traced game"
