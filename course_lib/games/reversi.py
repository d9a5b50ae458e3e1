"""Reversi (Othello) on a small board: the game where a player may have to pass."""

from __future__ import annotations

from typing import NamedTuple

from .base import Game, check_player
from .grid import EMPTY, grid_text

PASS = "pass"
_DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


class ReversiState(NamedTuple):
    """The board row-major (``B`` black, ``W`` white, ``.`` empty) and the player to move."""

    board: str
    to_move: str
    size: int

    def __str__(self) -> str:
        b, w = self.board.count("B"), self.board.count("W")
        return f"{grid_text(self.board, self.size)}\n(B {b}, W {w}; {self.to_move} to move)"


class Reversi(Game):
    """Place a disc so that it brackets a line of the opponent's discs; they flip.

    Black (``B``) starts. Actions are ``(row, col)`` squares in row-major order; a
    player without such a square but whose opponent has one must play the null
    move ``"pass"``. With ``null_move=False`` there is no pass: that player is skipped,
    and the opponent moves twice in a row. The game ends when neither player can
    place a disc. Utilities: +1 for more discs, -1 for fewer, 0 for equal.

    >>> g = Reversi()
    >>> g.actions(g.initial)
    [(1, 2), (2, 1), (3, 4), (4, 3)]
    >>> small, skip = Reversi(4), Reversi(4, null_move=False)
    >>> rows = [".WB.", "BWBW", ".WBB", ".WWW"]
    >>> small.actions(small.result(small.state_from(rows), (0, 3))), skip.result(skip.state_from(rows), (0, 3)).to_move
    (['pass'], 'B')
    """

    players = ("B", "W")

    def __init__(self, size: int = 6, null_move: bool = True):
        if size < 4 or size % 2:
            raise ValueError(f"size must be an even number of at least 4, not {size}")
        self.size, self.null_move = size, null_move
        board = [EMPTY] * (size * size)
        m = size // 2
        board[(m - 1) * size + m - 1] = board[m * size + m] = "W"
        board[(m - 1) * size + m] = board[m * size + m - 1] = "B"
        self.initial = ReversiState("".join(board), "B", size)

    def _flips(self, board: str, i: int, p: str) -> list[int]:
        if board[i] != EMPTY:
            return []
        q = "W" if p == "B" else "B"
        r0, c0 = divmod(i, self.size)
        flips = []
        for dr, dc in _DIRECTIONS:
            r, c, run = r0 + dr, c0 + dc, []
            while 0 <= r < self.size and 0 <= c < self.size and board[r * self.size + c] == q:
                run.append(r * self.size + c)
                r, c = r + dr, c + dc
            if run and 0 <= r < self.size and 0 <= c < self.size and board[r * self.size + c] == p:
                flips.extend(run)
        return flips

    def _placements(self, board: str, p: str) -> list[int]:
        return [i for i in range(len(board)) if board[i] == EMPTY and self._flips(board, i, p)]

    def to_move(self, state: ReversiState) -> str:
        return state.to_move

    def actions(self, state: ReversiState) -> list:
        mine = self._placements(state.board, state.to_move)
        if mine:
            return [divmod(i, self.size) for i in mine]
        if self.null_move and self._placements(state.board, self.opponent(state.to_move)):
            return [PASS]
        return []

    def result(self, state: ReversiState, action) -> ReversiState:
        legal = self.actions(state)
        if action not in legal or (action != PASS and type(action) is not tuple):
            raise self.illegal(state, action)
        other = self.opponent(state.to_move)
        if action == PASS:
            return ReversiState(state.board, other, self.size)
        i = action[0] * self.size + action[1]
        board = list(state.board)
        for j in self._flips(state.board, i, state.to_move) + [i]:
            board[j] = state.to_move
        return self._turn("".join(board), other)

    def _turn(self, board: str, player: str) -> ReversiState:
        """`player` to move, unless the game has no null move and `player` cannot place a disc."""
        if not self.null_move and not self._placements(board, player):
            player = self.opponent(player)
        return ReversiState(board, player, self.size)

    def is_terminal(self, state: ReversiState) -> bool:
        return not (self._placements(state.board, state.to_move)
                    or self._placements(state.board, self.opponent(state.to_move)))

    def utility(self, state: ReversiState, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        check_player(self, player)
        diff = state.board.count(player) - state.board.count(self.opponent(player))
        return (diff > 0) - (diff < 0)

    def state_from(self, rows: list[str] | str, to_move: str = "B") -> ReversiState:
        """A state from a picture of rows of ``B``, ``W`` and ``.`` (without a null move, a
        player who cannot place a disc hands the turn to the opponent)."""
        cells = "".join(rows)
        if len(cells) != self.size * self.size or set(cells) - {"B", "W", EMPTY}:
            raise ValueError(f"expected {self.size} rows of {self.size} cells from 'B', 'W', '.'")
        check_player(self, to_move)
        return self._turn(cells, to_move)

    def display(self, state: ReversiState) -> str:
        return str(state)

    def __repr__(self) -> str:
        return f"Reversi(size={self.size})" if self.null_move else f"Reversi(size={self.size}, null_move=False)"
