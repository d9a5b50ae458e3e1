"""Connect Four on a configurable board (6 rows x 7 columns, 4 in a row by default)."""

from __future__ import annotations

from typing import NamedTuple

from .base import Game, check_player
from .grid import EMPTY, grid_text, lines_through


class ConnectFourState(NamedTuple):
    """A position: the board row-major with row 0 at the top, column heights, turn, winner."""

    board: str
    heights: tuple[int, ...]
    to_move: str
    winner: str | None

    def __str__(self) -> str:
        cols = len(self.heights)
        full = all(h == len(self.board) // cols for h in self.heights)
        status = f"{self.winner} has won" if self.winner else ("draw" if full else f"{self.to_move} to move")
        return f"{grid_text(self.board, cols)}\n({status})"


class ConnectFour(Game):
    """Players drop discs into columns; k in a row (any direction) wins.

    Actions are the column numbers that are not full, left to right.
    Utilities: +1 win, -1 loss, 0 draw.

    >>> g = ConnectFour(rows=4, cols=4)
    >>> s = g.result(g.initial, 2)
    >>> print(s)
      0 1 2 3
    0 . . . .
    1 . . . .
    2 . . . .
    3 . . X .
    (O to move)
    """

    players = ("X", "O")

    def __init__(self, rows: int = 6, cols: int = 7, k: int = 4):
        if min(rows, cols) < 1 or not 1 <= k <= max(rows, cols):
            raise ValueError(f"need rows, cols >= 1 and 1 <= k <= max(rows, cols); got {rows}, {cols}, {k}")
        self.rows, self.cols, self.k = rows, cols, k
        self._lines = lines_through(rows, cols, k)
        self.initial = ConnectFourState(EMPTY * (rows * cols), (0,) * cols, "X", None)

    def to_move(self, state: ConnectFourState) -> str:
        return state.to_move

    def actions(self, state: ConnectFourState) -> list[int]:
        if state.winner:
            return []
        return [c for c, h in enumerate(state.heights) if h < self.rows]

    def result(self, state: ConnectFourState, action: int) -> ConnectFourState:
        if type(action) is not int or not 0 <= action < self.cols or state.heights[action] >= self.rows or state.winner:
            raise self.illegal(state, action)
        p = state.to_move
        h = state.heights[action]
        i = (self.rows - 1 - h) * self.cols + action
        board = state.board[:i] + p + state.board[i + 1:]
        heights = state.heights[:action] + (h + 1,) + state.heights[action + 1:]
        won = any(all(board[j] == p for j in line) for line in self._lines[i])
        return ConnectFourState(board, heights, "O" if p == "X" else "X", p if won else None)

    def is_terminal(self, state: ConnectFourState) -> bool:
        return state.winner is not None or EMPTY not in state.board

    def utility(self, state: ConnectFourState, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        check_player(self, player)
        if state.winner is None:
            return 0
        return 1 if state.winner == player else -1

    def play(self, moves: list[int], state: ConnectFourState | None = None) -> ConnectFourState:
        """The state after dropping discs in the columns `moves`, in turn."""
        state = self.initial if state is None else state
        for m in moves:
            state = self.result(state, m)
        return state

    def display(self, state: ConnectFourState) -> str:
        return str(state)

    def __repr__(self) -> str:
        return f"ConnectFour(rows={self.rows}, cols={self.cols}, k={self.k})"
