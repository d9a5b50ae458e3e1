"""Rules of every game: legal moves, terminals, utilities, immutability, errors."""

import copy
import random

import pytest

from course_lib.games import (
    PASS, BoardFormatError, ConnectFour, FoodGrid, GameTree, IllegalMoveError, Isolation,
    RaceTo, Reversi, TicTacToe,
)

ALL_GAMES = [
    TicTacToe(), TicTacToe(4, 4, 3), ConnectFour(), ConnectFour(4, 4), RaceTo(), RaceTo(7, 2),
    Isolation(), Isolation(4, start=((0, 0), (3, 3))), Reversi(), Reversi(4),
    FoodGrid("5 5\n#####\n##* #\n##A*#\n# B##\n#####"),
    GameTree.from_leaves([7, 6, 2, 8, 8, 7, 1, 3], 2),
]


def random_playout(game, seed, limit=200):
    rng = random.Random(seed)
    state, seen = game.initial, [game.initial]
    for _ in range(limit):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.actions(state)))
        seen.append(state)
    return seen


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_result_never_mutates_and_states_hash(game):
    for seed in range(5):
        for state in random_playout(game, seed):
            hash(state)
            assert str(state)
            if game.is_terminal(state):
                continue
            before = copy.deepcopy(state)
            for a in game.actions(state):
                game.result(state, a)
            assert state == before, "result() changed the state it was given"


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_actions_deterministic_and_terminal_utilities_zero_sum(game):
    for seed in range(5):
        path = random_playout(game, seed, limit=500)
        for state in path:
            assert game.actions(state) == game.actions(copy.deepcopy(state))
        end = path[-1]
        if game.is_terminal(end):
            assert game.actions(end) == [], "a finished game has no legal action"
            values = [game.utility(end, p) for p in game.players]
            assert sum(values) == 0


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_illegal_move_names_move_and_legal_moves(game):
    state = game.initial
    with pytest.raises(IllegalMoveError) as err:
        game.result(state, "no-such-move")
    assert "no-such-move" in str(err.value)
    assert repr(game.actions(state)[0]) in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("game", [g for g in ALL_GAMES if not isinstance(g, GameTree)], ids=repr)
def test_utility_of_unfinished_game_is_an_error(game):
    with pytest.raises(ValueError, match="terminal"):
        game.utility(game.initial, game.players[0])


def test_tictactoe_rows_columns_diagonals_and_draw():
    g = TicTacToe()
    assert g.actions(g.initial)[:3] == [(0, 0), (0, 1), (0, 2)]
    for rows in (["XXX", "OO.", "..."], ["XO.", "XO.", "X.."], ["X.O", ".XO", "..X"], ["OOX", ".X.", "X.."]):
        s = g.state_from(rows, to_move="O")
        assert g.is_terminal(s) and g.utility(s, "X") == 1 and g.utility(s, "O") == -1
    draw = g.state_from(["XOX", "XOO", "OXX"])
    assert g.is_terminal(draw) and g.utility(draw, "X") == 0 and g.actions(draw) == []
    s = g.result(g.initial, (1, 1))
    with pytest.raises(IllegalMoveError, match=r"\(1, 1\)"):
        g.result(s, (1, 1))
    won = g.state_from(["XXX", "OO.", "..."], to_move="O")
    with pytest.raises(IllegalMoveError):
        g.result(won, (2, 2))


def test_tictactoe_winner_settled_in_result_matches_full_scan():
    g = TicTacToe(4, 5, 3)
    for state in random_playout(g, 3) + random_playout(g, 4):
        assert g.state_from(list(state.board), to_move=state.to_move).winner == state.winner


def test_tictactoe_prints_as_grid():
    text = str(TicTacToe().result(TicTacToe().initial, (0, 2)))
    assert text.splitlines()[1] == "0 . . X"


def test_connect_four_drops_to_bottom_and_detects_wins():
    g = ConnectFour(4, 4)
    s = g.play([0, 1, 0, 1, 0, 1, 0])
    assert g.is_terminal(s) and g.utility(s, "X") == 1
    s = g.play([0, 0, 0, 0])
    assert 0 not in g.actions(s)
    with pytest.raises(IllegalMoveError, match="legal moves: \\[1, 2, 3\\]"):
        g.result(s, 0)
    diag = g.play([0, 1, 1, 2, 2, 3, 2, 3, 3, 0, 3])
    assert diag.winner == "X"
    assert str(g.play([2])).splitlines()[-2] == "3 . . X ."


def test_race_to_reaching_exactly_n_wins_and_overshoot_is_illegal():
    g = RaceTo()
    s = g.initial
    for a in (3, 3, 2):
        s = g.result(s, a)
    assert s.total == 8 and g.actions(s) == [1, 2]
    with pytest.raises(IllegalMoveError, match="legal moves: \\[1, 2\\]"):
        g.result(s, 3)
    end = g.result(s, 2)
    assert g.is_terminal(end) and g.utility(end, "P2") == 1 and g.utility(end, "P1") == -1


def test_isolation_queen_moves_block_and_loss():
    g = Isolation(start=((0, 0), (4, 4)))
    assert len(g.actions(g.initial)) == 11  # 4 along the row, 4 down, 3 on the diagonal before P2
    s = g.result(g.initial, (0, 4))
    assert s.blocked == 1  # square (0, 0) is now blocked
    assert (0, 0) not in g.actions(g.result(s, (4, 0)))
    free = Isolation()
    assert len(free.actions(free.initial)) == 25
    stuck = Isolation(3, start=((0, 0), (2, 2)))
    state = stuck.initial._replace(blocked=0b000011010)  # squares 1, 3 and 4 blocked
    assert stuck.is_terminal(state) and stuck.utility(state, "P1") == -1 and stuck.utility(state, "P2") == 1


BOARD = "5 5\n#####\n##* #\n##A*#\n# B##\n#####"


def test_food_grid_moves_eat_and_block():
    g = FoodGrid(BOARD)
    assert g.actions(g.initial) == ["up", "right", "block"]  # down is B, left a wall
    s = g.result(g.initial, "right")
    assert g.to_move(s) == "B" and g.actions(s) == ["up", "left", "block"]
    s = g.result(g.result(g.initial, "up"), "block")  # A onto food, B walls its square
    assert g.actions(s) == ["down", "right", "eat"]
    s = g.result(s, "eat")
    assert s.scores == (1, 0) and "*" not in str(s).splitlines()[1]
    with pytest.raises(IllegalMoveError, match="(?s)'eat'.*legal moves: \\['up', 'right', 'block'\\]"):
        g.result(g.initial, "eat")


def test_food_grid_end_by_food_and_by_being_stuck():
    g = FoodGrid("3 1\nA*B")
    s = g.result(g.result(g.result(g.initial, "right"), "block"), "eat")
    assert g.is_terminal(s) and g.utility(s, "A") == 1 and g.utility(s, "B") == -1
    g = FoodGrid("4 1\n*#AB")
    s = g.result(g.result(g.initial, "block"), "block")
    assert g.actions(s) == [] and g.is_terminal(s)
    assert g.utility(s, "A") == -1 and g.utility(s, "B") == 1


def test_food_grid_reads_a_file(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(BOARD + "\n")
    assert FoodGrid.from_file(path).initial == FoodGrid(BOARD).initial
    assert FoodGrid(str(path)).initial == FoodGrid(BOARD).initial


@pytest.mark.parametrize("text, line, column, words", [
    ("5\n#####", 1, None, "width height"),
    ("x 5\n#####", 1, None, "width height"),
    ("5 3\n#####\n#A B#", 3, None, "promises 3 rows"),
    ("5 3\n#####\n#A B\n#####", 3, 5, "4 characters, expected 5"),
    ("5 3\n#####\n#A*##\n#####", 4, None, "no start square 'B'"),
    ("5 3\n#AA##\n#B*##\n#####", 2, 3, "a second 'A'"),
    ("5 3\n#####\n#A?B#\n#####", 3, 3, "unknown character '?'"),
])
def test_food_grid_malformed_boards_name_line_and_column(text, line, column, words):
    with pytest.raises(BoardFormatError) as err:
        FoodGrid(text)
    assert err.value.line == line and err.value.column == column
    assert words in str(err.value) and str(err.value).startswith(f"line {line}")


def test_reversi_opening_flip_and_pass():
    g = Reversi()
    s = g.result(g.initial, (1, 2))
    assert s.board.count("B") == 4 and s.board.count("W") == 1 and g.to_move(s) == "W"
    small = Reversi(4)
    stuck = small.state_from(["WWWW", "WWWW", "WWWB", "...."], to_move="B")
    assert small.actions(stuck) == [PASS] and not small.is_terminal(stuck)
    passed = small.result(stuck, PASS)
    assert passed.board == stuck.board and small.to_move(passed) == "W"
    assert small.actions(passed) == [(3, 3)]
    with pytest.raises(IllegalMoveError, match="legal moves: \\['pass'\\]"):
        small.result(stuck, (3, 3))
    with pytest.raises(IllegalMoveError):
        g.result(g.initial, PASS)
    over = small.state_from(["WWWW", "WWWW", "WWWW", "WWWB"], to_move="B")
    assert small.is_terminal(over) and small.utility(over, "W") == 1


def test_game_tree_builders_agree_and_label():
    flat = GameTree.from_leaves([3, 5, 2, 9], branching=2)
    nested = GameTree.from_nested([[3, 5], [2, 9]])
    named = GameTree.from_mapping({
        "A": ("MAX", ["B", "C"]), "B": ("MIN", ["D", "E"]), "C": ("MIN", ["F", "G"]),
        "D": 3, "E": 5, "F": 2, "G": 9}, root="A")
    assert flat.leaf_values() == nested.leaf_values() == named.leaf_values() == [3, 5, 2, 9]
    assert [named.label(n) for n in named.nodes()] == ["P1.0", "P2.0", "L.0", "L.1", "P2.1", "L.2", "L.3"]
    assert named.to_move("B") == "MIN" and named.utility("G", "MIN") == -9
    assert flat.display("P2.1") == "P2.1 (MIN node, children ['L.2', 'L.3'])"


def test_game_tree_unbalanced_any_arity_and_root_min():
    t = GameTree.from_nested([[1, 2, 3], 4, [[5], 6]], root="MIN")
    assert t.to_move(t.initial) == "MIN" and t.label(t.initial) == "P2.0"
    assert t.actions(t.initial) == [0, 1, 2] and t.is_terminal(t.result(t.initial, 1))
    assert [t.depth(n) for n in t.leaves()] == [2, 2, 2, 1, 3, 2]
    with pytest.raises(IllegalMoveError, match="legal moves: \\[0, 1, 2\\]"):
        t.result(t.initial, 3)
    terminal_root = GameTree.from_nested(5)
    assert terminal_root.is_terminal(terminal_root.initial)


def test_game_tree_chance_and_three_players():
    t = GameTree.from_nested([[(0.25, [1, 2]), (0.75, [3, 4])]], levels=("MAX", "CHANCE", "MIN"))
    chance = t.result(t.initial, 0)
    assert t.to_move(chance) == "CHANCE" and t.outcomes(chance) == [(0, 0.25), (1, 0.75)]
    assert t.to_move(t.result(chance, 1)) == "MIN"
    with pytest.raises(ValueError, match="sum to 1"):
        GameTree.from_mapping({"A": ("CHANCE", [("B", 0.5), ("C", 0.6)]), "B": 1, "C": 2}, root="A")
    three = GameTree.from_nested([[(1, 2, 3), (3, 2, 1)], [(0, 0, 9), (4, 4, 4)]])
    assert three.players == ("P1", "P2", "P3")
    assert [three.to_move(n) for n in ("P1.0", "P2.0", "P2.1")] == ["P1", "P2", "P2"]
    assert three.utility("L.1", "P3") == 1 and three.utilities("L.2") == (0, 0, 9)


def test_game_tree_bad_input_is_named():
    with pytest.raises(ValueError, match="3 leaves do not fill"):
        GameTree.from_leaves([1, 2, 3], branching=2)
    with pytest.raises(ValueError, match="'Z', which is not defined"):
        GameTree.from_mapping({"A": ("MAX", ["B", "Z"]), "B": 1}, root="A")
    with pytest.raises(ValueError, match="not a node of this tree"):
        GameTree.from_leaves([1, 2]).actions("nope")
