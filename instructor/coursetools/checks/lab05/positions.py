"""Lab 05's positions for the evaluation functions: sampled Isolation, Connect Four, food-grid and chess
positions (exact values are checked on them), the ranking series and the tournaments' openings.

Public positions are fixed; secret ones (and the openings when a secret seed is set) come from the
secret seed and the id of the student being graded, through `cases.rngs`.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from course_lib.games import ConnectFour, FoodGrid, Isolation
from course_lib.games.connect_four import ConnectFourState
from course_lib.games.food_grid import FoodGridState
from course_lib.games.isolation import IsolationState

from .. import common
from .cases import LAB, rngs
from .tournament import Opening


ISOLATION = Isolation(5)
CONNECT_FOUR = ConnectFour()


def _iso_state(p1: tuple[int, int], p2: tuple[int, int], blocked: Sequence[tuple[int, int]] = (),
               to_move: str = "P1") -> IsolationState:
    mask = 0
    for r, c in blocked:
        mask |= 1 << (r * 5 + c)
    return IsolationState(mask, (p1[0] * 5 + p1[1], p2[0] * 5 + p2[1]), to_move, 5)


def isolation_states(group: str) -> list[IsolationState]:
    """Positions of 5x5 games with both pieces placed, from seeded random games."""
    out = []
    for _tag, rng, count in rngs(group + "/states", 30, 30):
        goal = len(out) + count
        while len(out) < goal:
            squares = rng.sample([(r, c) for r in range(5) for c in range(5)], 2)
            g = Isolation(5, start=tuple(squares))
            s = g.initial
            for _ in range(rng.randint(0, 12)):
                if g.is_terminal(s):
                    break
                s = g.result(s, rng.choice(g.actions(s)))
            if not g.is_terminal(s):
                out.append(s)
    return out


def isolation_series() -> list[tuple[list[tuple[str, Any]], str]]:
    """Two series of positions increasingly good for P1; P1 to move in all, none terminal."""
    # P2 walled in a corner with two moves; P1's blocked neighbours freed one by one.
    fence = [(3, 3), (4, 3), (1, 4)]
    around_p1 = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0)]
    series1 = []
    for k in range(len(around_p1), -1, -1):
        s = _iso_state((1, 1), (4, 4), fence + around_p1[:k])
        series1.append((f"P1 has {ISOLATION.mobility(s, 'P1')} moves, P2 has {ISOLATION.mobility(s, 'P2')}", s))
    # P1 and P2 in opposite corners; P2's lines blocked one by one, away from P1's lines.
    series2 = []
    p2_exits = [(4, 2), (4, 3), (2, 4), (3, 4)]
    for k in range(len(p2_exits) + 1):
        s = _iso_state((0, 0), (4, 4), p2_exits[:k])
        series2.append((f"P1 has {ISOLATION.mobility(s, 'P1')} moves, P2 has {ISOLATION.mobility(s, 'P2')}", s))
    return [(series1, "P1"), (series2, "P1")]


def isolation_openings(group: str, count: int = 10) -> list[Opening]:
    """Random squares for both pieces, then four random plies; both players keep three moves or more."""
    rng = openings_rng(group)
    out = []
    squares = [(r, c) for r in range(5) for c in range(5)]
    while len(out) < count:
        a, b = rng.sample(squares, 2)
        s = Isolation(5, start=(a, b)).initial
        for _ in range(4):
            if ISOLATION.is_terminal(s):
                break
            s = ISOLATION.result(s, rng.choice(ISOLATION.actions(s)))
        if ISOLATION.is_terminal(s) or min(ISOLATION.mobility(s, p) for p in ISOLATION.players) < 3:
            continue
        out.append(Opening(ISOLATION, s, f"opening {len(out) + 1}"))
    return out


def connect_four_states(group: str) -> list[ConnectFourState]:
    out = []
    for _tag, rng, count in rngs(group + "/states", 30, 30):
        for _ in range(count):
            for _attempt in range(50):
                s = CONNECT_FOUR.initial
                for _ in range(rng.randint(1, 20)):
                    if CONNECT_FOUR.is_terminal(s):
                        break
                    s = CONNECT_FOUR.result(s, rng.choice(CONNECT_FOUR.actions(s)))
                if not CONNECT_FOUR.is_terminal(s):
                    out.append(s)
                    break
    return out


#: Boards other than 6 x 7 (rows, columns): a state knows its own size, and an evaluation must read it there.
OTHER_SIZES = ((5, 5), (4, 6), (7, 8))


def connect_four_sizes(group: str, per_size: int = 3) -> list[tuple[str, ConnectFourState]]:
    """(label, state) of positions on `OTHER_SIZES` boards, played at random from the empty board (public ones
    fixed; a secret seed adds as many)."""
    out = []
    for tag, rng, count in rngs(group + "/sizes", per_size, per_size):
        for rows, cols in OTHER_SIZES:
            game = ConnectFour(rows, cols)
            for i in range(count):
                for _attempt in range(50):
                    s = game.initial
                    for _ in range(rng.randint(3, rows * cols // 2)):
                        if game.is_terminal(s):
                            break
                        s = game.result(s, rng.choice(game.actions(s)))
                    if not game.is_terminal(s):
                        break
                label = "a" if tag == "random" else "a secret"
                out.append((f"{label} {rows}x{cols} position #{i + 1}", s))
    return out


def _c4_state(rows: list[str], to_move: str = "X") -> ConnectFourState:
    """A 6x7 state from a picture (top row first); heights from the discs."""
    board = "".join(rows)
    heights = tuple(sum(1 for r in range(6) if board[r * 7 + c] != ".") for c in range(7))
    return ConnectFourState(board, heights, to_move, None)


def connect_four_series() -> list[tuple[str, Any]]:
    """X adds discs (each in some window O has not blocked), O's discs stay where they are."""
    empty = ["......."] * 6
    o_discs = {(5, 0): "O", (4, 0): "O", (5, 6): "O"}
    x_steps = [(5, 3), (5, 4), (4, 3), (5, 2), (3, 3)]
    series = []
    for k in range(len(x_steps) + 1):
        cells = [list(r) for r in empty]
        for (r, c), p in o_discs.items():
            cells[r][c] = p
        for r, c in x_steps[:k]:
            cells[r][c] = "X"
        series.append((f"X has {k} disc{'s' if k != 1 else ''} in the middle, O's three discs unchanged",
                       _c4_state(["".join(r) for r in cells])))
    return series


def connect_four_openings(group: str, count: int = 6) -> list[Opening]:
    rng = openings_rng(group)
    out, seen = [], set()
    while len(out) < count:
        s = CONNECT_FOUR.initial
        for _ in range(2):
            s = CONNECT_FOUR.result(s, rng.choice(CONNECT_FOUR.actions(s)))
        if s in seen:
            continue
        seen.add(s)
        out.append(Opening(CONNECT_FOUR, s, f"opening {len(out) + 1} (X in column {s.board.index('X') % 7}, "
                                            f"O in column {s.board.index('O') % 7})"))
    return out


def food_board(rng: random.Random, width: int = 7, height: int = 7, food: int = 5, walls: int = 4) -> str:
    """A random board text: a wall all around, food, inner walls and both start squares inside."""
    inner = [(r, c) for r in range(1, height - 1) for c in range(1, width - 1)]
    picked = rng.sample(inner, food + walls + 2)
    grid = [["#"] * width for _ in range(height)]
    for r, c in inner:
        grid[r][c] = " "
    for r, c in picked[:food]:
        grid[r][c] = "*"
    for r, c in picked[food:food + walls]:
        grid[r][c] = "#"
    (ra, ca), (rb, cb) = picked[-2:]
    grid[ra][ca], grid[rb][cb] = "A", "B"
    return f"{width} {height}\n" + "\n".join("".join(row) for row in grid)


def food_states(group: str) -> list[tuple[FoodGrid, FoodGridState]]:
    out = []
    for _tag, rng, count in rngs(group + "/states", 30, 30):
        made = 0
        while made < count:
            width, height = rng.randint(5, 8), rng.randint(5, 8)
            room = (width - 2) * (height - 2) - 2  # inner squares left beside the two start squares
            food = rng.randint(1, min(6, room - 1))
            g = FoodGrid(food_board(rng, width, height, food, rng.randint(0, min(4, room - food - 1))))
            s = g.initial
            for _ in range(rng.randint(0, 15)):
                if g.is_terminal(s):
                    break
                s = g.result(s, rng.choice(g.actions(s)))
            if not g.is_terminal(s):
                out.append((g, s))
                made += 1
    return out


FOOD_SERIES_BOARD = "9 5\n#########\n#A      #\n#  *  * #\n#      B#\n#########"


def food_series() -> tuple[FoodGrid, list[tuple[str, Any]]]:
    """Positions increasingly good for A: the score first, then A's distance to the nearest food."""
    g = FoodGrid(FOOD_SERIES_BOARD)
    base = g.initial
    w = base.width

    def at(r: int, c: int) -> int:
        return r * w + c

    b_square = at(3, 7)  # B two steps from the food at (2, 6)
    series = []
    for a_score, b_score in ((0, 1), (1, 1), (2, 1)):
        for r, c, words in ((1, 1, "far from food"), (2, 1, "two steps from food"), (2, 2, "next to food")):
            s = base._replace(positions=(at(r, c), b_square), scores=(a_score, b_score), to_move="A")
            series.append((f"A {a_score} : B {b_score}, A {words}", s))
    return g, series


FOOD_WALLED_BOARD = "8 5\n########\n#A#  * #\n###    #\n#*   B #\n########"


def food_one_more_eaten() -> tuple[FoodGrid, list[tuple[str, Any]]]:
    """Two positions of one board with as much food in all: equal scores with the best distances for A (A on
    food, B walled in with none), then A one piece of food ahead with nearly the worst (A walled in, B one step
    from food). One piece eaten must outweigh the difference, so the second is better for A."""
    g = FoodGrid(FOOD_WALLED_BOARD)
    base = g.initial
    w = base.width

    def at(r: int, c: int) -> int:
        return r * w + c

    pocket = at(1, 1)  # walls on all four sides, no food inside
    best = base._replace(positions=(at(3, 1), pocket), scores=(1, 1), to_move="A")  # A on the food at (3, 1)
    worst = base._replace(food=base.food & ~(1 << at(3, 1)), positions=(pocket, at(2, 5)), scores=(2, 1),
                          to_move="A")  # that food eaten by A; B one step below the food at (1, 5)
    return g, [("A 1 : B 1, A on food, B walled in with no food", best),
               ("A 2 : B 1, A walled in with no food, B one step from food", worst)]


def food_openings(group: str, count: int = 8) -> list[Opening]:
    rng = openings_rng(group)
    out = []
    while len(out) < count:
        g = FoodGrid(food_board(rng))
        if not g.is_terminal(g.initial):
            out.append(Opening(g, g.initial, f"board {len(out) + 1}:\n{g.text.split(chr(10), 1)[1]}\n"))
    return out


CHESS_CASES = [
    ("the starting position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("White without its queen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"),
    ("Black without a rook and a knight, Black to move", "r1bqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b Qq - 0 5"),
    ("kings only", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("three white queens after promotions", "4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1"),
    ("a rook up, Black to move, castling rights K", "4k3/8/8/8/8/8/8/4K2R b K - 0 1"),
    ("the placement field only", "r3k2r/ppp2ppp/2n5/3q4/8/2N2B2/PPP2PPP/R3K2R"),
    ("a middle game", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 2 9"),
    ("black pawns on the seventh and second rank", "8/3p4/8/k7/8/8/2p5/K7 b - - 0 40"),
]




def random_fen(rng: random.Random) -> str:
    """A random placement field (each square empty with probability 0.6), sometimes with the other fields."""
    ranks = []
    for _ in range(8):
        row, empty = "", 0
        for _ in range(8):
            if rng.random() < 0.6:
                empty += 1
                continue
            row += (str(empty) if empty else "") + rng.choice("pnbrqkPNBRQK")
            empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + rng.choice(["", " w - - 0 1", " b KQkq - 4 20", " w Qk - 0 9"])


def chess_cases() -> list[tuple[str, str]]:
    """(what, FEN): the fixed positions, then random ones (public, then the secret seed's)."""
    out = list(CHESS_CASES)
    for prefix, rng, count in rngs("chess_material", 8, 12):
        label = "a random position" if prefix == "random" else "a secret random position"
        out += [(f"{label} #{i + 1}", random_fen(rng)) for i in range(count)]
    return out


def openings_rng(group: str) -> random.Random:
    """The public openings, or (with a secret seed) the submission's own, from the seed and the submission
    (the student's id and its timestamp)."""
    return common.student_rng(LAB, group + "/openings") if common.has_secret() else common.rng(LAB, group + "/openings")
