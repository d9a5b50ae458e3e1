"""The food-gathering grid game: two players walk, eat food and build walls."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from .base import Game, check_player

WALL, FOOD, FLOOR = "#", "*", " "
MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
ACTION_ORDER = ("up", "down", "left", "right", "eat", "block")


class BoardFormatError(ValueError):
    """A board text that does not follow the format; names the line and column (1-based)."""

    def __init__(self, message: str, line: int, column: int | None = None):
        self.line, self.column = line, column
        where = f"line {line}" + (f", column {column}" if column is not None else "")
        super().__init__(f"{where}: {message}")


class FoodGridState(NamedTuple):
    """Walls and food as bit masks (row-major), both players' squares and scores, turn."""

    walls: int
    food: int
    positions: tuple[int, int]
    scores: tuple[int, int]
    to_move: str
    width: int
    height: int

    def __str__(self) -> str:
        cells = []
        for i in range(self.width * self.height):
            if i == self.positions[0]:
                cells.append("A")
            elif i == self.positions[1]:
                cells.append("B")
            elif self.walls >> i & 1:
                cells.append(WALL)
            elif self.food >> i & 1:
                cells.append(FOOD)
            else:
                cells.append(FLOOR)
        rows = ["".join(cells[r * self.width:(r + 1) * self.width]) for r in range(self.height)]
        return "\n".join(rows) + f"\n(A {self.scores[0]}, B {self.scores[1]}; {self.to_move} to move)"


class FoodGrid(Game):
    """Two players, A and B, on a grid of walls (``#``), food (``*``) and floor (space).

    Players alternate, A first. Actions, in this order: ``up down left right`` (not
    into a wall or the other player), ``eat`` (on food: +1, the food is gone) and
    ``block`` (on a square without food that is not yet a wall: the square becomes a
    wall; the player may still leave it but never come back). The game ends when
    no food is left or the player to move has no legal action. The utility for a
    player is +1 with more food, -1 with less, 0 for a tie; a player who cannot
    move while food is left loses.

    The board text: first line ``width height``, then `height` rows of `width`
    characters from ``# * A B`` and space.

    >>> g = FoodGrid("5 5\\n#####\\n##* #\\n##A*#\\n# B##\\n#####")
    >>> g.actions(g.initial)
    ['up', 'right', 'block']
    """

    players = ("A", "B")

    def __init__(self, board: str | Path):
        """`board` is the board text, or the path of a file holding it."""
        if isinstance(board, Path) or ("\n" not in board and Path(board).is_file()):
            text = Path(board).read_text()
        else:
            text = board
        self.text = text
        self.initial = self._parse(text)
        self.width, self.height = self.initial.width, self.initial.height

    @classmethod
    def from_file(cls, path: str | Path) -> "FoodGrid":
        """Read a board file."""
        return cls(Path(path))

    @staticmethod
    def _parse(text: str) -> FoodGridState:
        lines = text.split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            raise BoardFormatError("the board is empty; expected 'width height' on the first line", 1)
        size = lines[0].split()
        if len(size) != 2 or not all(x.isdigit() for x in size) or min(int(x) for x in size) < 1:
            raise BoardFormatError(f"expected 'width height' (two positive whole numbers), got {lines[0]!r}", 1)
        width, height = int(size[0]), int(size[1])
        rows = [line.rstrip("\r") for line in lines[1:]]
        if len(rows) != height:
            raise BoardFormatError(f"the size line promises {height} rows but {len(rows)} follow", len(rows) + 1)
        walls = food = 0
        starts: dict[str, int] = {}
        for r, row in enumerate(rows):
            if len(row) != width:
                raise BoardFormatError(f"row has {len(row)} characters, expected {width}",
                                       r + 2, min(len(row), width) + 1)
            for c, ch in enumerate(row):
                i = r * width + c
                if ch == WALL:
                    walls |= 1 << i
                elif ch == FOOD:
                    food |= 1 << i
                elif ch in "AB":
                    if ch in starts:
                        raise BoardFormatError(f"a second {ch!r}: each player starts on exactly one square", r + 2, c + 1)
                    starts[ch] = i
                elif ch != FLOOR:
                    raise BoardFormatError(f"unknown character {ch!r}; use '#', '*', 'A', 'B' or space", r + 2, c + 1)
        for p in "AB":
            if p not in starts:
                raise BoardFormatError(f"no start square {p!r} on the board", len(rows) + 1)
        return FoodGridState(walls, food, (starts["A"], starts["B"]), (0, 0), "A", width, height)

    def _neighbour(self, state: FoodGridState, i: int, move: str) -> int | None:
        r, c = divmod(i, state.width)
        dr, dc = MOVES[move]
        r, c = r + dr, c + dc
        if not (0 <= r < state.height and 0 <= c < state.width):
            return None
        return r * state.width + c

    def to_move(self, state: FoodGridState) -> str:
        return state.to_move

    def actions(self, state: FoodGridState) -> list[str]:
        if not state.food:
            return []
        me = 0 if state.to_move == "A" else 1
        here, other = state.positions[me], state.positions[1 - me]
        out = []
        for move in ("up", "down", "left", "right"):
            j = self._neighbour(state, here, move)
            if j is not None and not state.walls >> j & 1 and j != other:
                out.append(move)
        if state.food >> here & 1:
            out.append("eat")
        elif not state.walls >> here & 1:
            out.append("block")
        return out

    def result(self, state: FoodGridState, action: str) -> FoodGridState:
        if action not in ACTION_ORDER or action not in self.actions(state):
            raise self.illegal(state, action)
        me = 0 if state.to_move == "A" else 1
        here = state.positions[me]
        walls, food, positions, scores = state.walls, state.food, state.positions, state.scores
        if action in MOVES:
            j = self._neighbour(state, here, action)
            positions = (j, positions[1]) if me == 0 else (positions[0], j)
        elif action == "eat":
            food &= ~(1 << here)
            scores = (scores[0] + 1, scores[1]) if me == 0 else (scores[0], scores[1] + 1)
        else:
            walls |= 1 << here
        return FoodGridState(walls, food, positions, scores, self.opponent(state.to_move),
                             state.width, state.height)

    def is_terminal(self, state: FoodGridState) -> bool:
        return not self.actions(state)

    def utility(self, state: FoodGridState, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        check_player(self, player)
        me = 0 if player == "A" else 1
        if state.food:  # the player to move is stuck and loses
            return -1 if player == state.to_move else 1
        diff = state.scores[me] - state.scores[1 - me]
        return (diff > 0) - (diff < 0)

    def display(self, state: FoodGridState) -> str:
        return str(state)

    def __repr__(self) -> str:
        return f"FoodGrid({self.width}x{self.height})"
