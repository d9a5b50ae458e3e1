"""Tic-Tac-Toe on an m x n board with k in a row (3 x 3 x 3 by default)."""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from .base import Game, check_player
from .grid import EMPTY, grid_text, lines_through


class TicTacToeState(NamedTuple):
    """A position: the board row-major ('.' empty), whose turn, and the winner so far."""

    board: str
    to_move: str
    winner: str | None
    cols: int

    def __str__(self) -> str:
        status = f"{self.winner} has won" if self.winner else (
            "draw" if EMPTY not in self.board else f"{self.to_move} to move")
        return f"{grid_text(self.board, self.cols)}\n({status})"


_new = tuple.__new__  # builds a state without NamedTuple's Python-level __new__


class TicTacToe(Game):
    """X and O take turns filling squares; k of one mark in a row wins.

    Actions are ``(row, col)`` pairs of the empty squares in row-major order.
    Utilities: +1 win, -1 loss, 0 draw. The winner is settled in `result`, so
    `is_terminal` is a cheap look-up.

    >>> g = TicTacToe()
    >>> s = g.result(g.initial, (1, 1))
    >>> g.to_move(s), len(g.actions(s))
    ('O', 8)
    """

    players = ("X", "O")

    def __init__(self, rows: int = 3, cols: int = 3, k: int = 3):
        if min(rows, cols) < 1 or not 1 <= k <= max(rows, cols):
            raise ValueError(f"need rows, cols >= 1 and 1 <= k <= max(rows, cols); got {rows}, {cols}, {k}")
        self.rows, self.cols, self.k = rows, cols, k
        self._squares = [(r, c) for r in range(rows) for c in range(cols)]
        self._index = {sq: i for i, sq in enumerate(self._squares)}
        self._lines = lines_through(rows, cols, k)
        # For each square, C-level getters of the other k-1 squares of each line through it.
        self._getters = [[itemgetter(*[j for j in line if j != i]) for line in lines] if k > 1 else []
                         for i, lines in enumerate(self._lines)]
        self._targets = {p: (p,) * (k - 1) if k > 2 else p for p in self.players}
        self._empties = lru_cache(maxsize=1 << 16)(self._empty_squares)
        self.initial = TicTacToeState(EMPTY * (rows * cols), "X", None, cols)

    def to_move(self, state: TicTacToeState) -> str:
        return state.to_move

    def actions(self, state: TicTacToeState) -> list[tuple[int, int]]:
        if state.winner:
            return []
        return list(self._empties(state.board))

    def _empty_squares(self, board: str) -> tuple[tuple[int, int], ...]:
        return tuple(sq for sq, mark in zip(self._squares, board) if mark == EMPTY)

    def result(self, state: TicTacToeState, action: tuple[int, int]) -> TicTacToeState:
        board, p, winner, cols = state
        i = self._index.get(action) if type(action) is tuple else None
        if i is None or board[i] != EMPTY or winner:
            raise self.illegal(state, action)
        board = board[:i] + p + board[i + 1:]
        # Only lines through the new mark can have been completed by it.
        target = self._targets[p]
        for others in self._getters[i]:
            if others(board) == target:
                winner = p
                break
        else:
            winner = p if self.k == 1 else None
        return _new(TicTacToeState, (board, "O" if p == "X" else "X", winner, cols))

    def is_terminal(self, state: TicTacToeState) -> bool:
        board, _, winner, _ = state
        return winner is not None or EMPTY not in board

    def utility(self, state: TicTacToeState, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        check_player(self, player)
        if state.winner is None:
            return 0
        return 1 if state.winner == player else -1

    def state_from(self, rows: list[str] | str, to_move: str | None = None) -> TicTacToeState:
        """A state from a picture such as ``["X.O", ".X.", "..."]`` (or one string).

        The player to move is worked out from the counts of X and O unless given.
        """
        cells = "".join(rows if isinstance(rows, list) else rows.split())
        if len(cells) != self.rows * self.cols or set(cells) - {"X", "O", EMPTY}:
            raise ValueError(f"expected {self.rows} rows of {self.cols} cells from 'X', 'O', '.'")
        x, o = cells.count("X"), cells.count("O")
        if to_move is None:
            if x not in (o, o + 1):
                raise ValueError(f"{x} X and {o} O cannot happen when X starts; pass to_move")
            to_move = "X" if x == o else "O"
        check_player(self, to_move)
        winner = None
        for i, mark in enumerate(cells):
            if mark != EMPTY and any(all(cells[j] == mark for j in line) for line in self._lines[i]):
                winner = mark
                break
        return TicTacToeState(cells, to_move, winner, self.cols)

    def display(self, state: TicTacToeState) -> str:
        return str(state)

    def __repr__(self) -> str:
        return f"TicTacToe(rows={self.rows}, cols={self.cols}, k={self.k})"
