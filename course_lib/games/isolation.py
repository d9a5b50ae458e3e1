"""Isolation: pieces move like chess queens and every square left behind is blocked."""

from __future__ import annotations

from typing import NamedTuple

from .base import Game, check_player
from .grid import grid_text

_DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


class IsolationState(NamedTuple):
    """Blocked squares (a bit mask, row-major), the pieces' squares (None before placing), turn."""

    blocked: int
    positions: tuple[int | None, int | None]
    to_move: str
    size: int

    def cells(self, marks: str = "12") -> str:
        """The board row-major: `marks` for the pieces of P1 and P2, ``#`` blocked, ``.`` free.

        >>> IsolationState(0b1, (1, 3), "P1", 2).cells("XO")
        '#X.O'
        """
        out = ["#" if self.blocked >> i & 1 else "." for i in range(self.size * self.size)]
        for mark, where in zip(marks, self.positions):
            if where is not None:
                out[where] = mark
        return "".join(out)

    def __str__(self) -> str:
        return f"{grid_text(self.cells(), self.size)}\n({self.to_move} to move)"


class Isolation(Game):
    """Two players each own one piece on a square board (5 x 5 by default).

    With ``start=None`` each player's first move places the piece on any free square.
    Afterwards a move goes like a chess queen through free squares, and the square
    left is blocked for the rest of the game. A player with no move loses.
    Actions are destination ``(row, col)`` squares in row-major order.
    Utilities: +1 win, -1 loss.

    >>> g = Isolation(start=((0, 0), (4, 4)))
    >>> len(g.actions(g.initial))
    11
    """

    players = ("P1", "P2")

    def __init__(self, size: int = 5, start: tuple | None = None):
        if size < 2:
            raise ValueError(f"size must be at least 2, not {size}")
        self.size = size
        if start is None:
            positions: tuple = (None, None)
        else:
            positions = tuple(self._index(sq) for sq in start)
            if len(positions) != 2 or positions[0] == positions[1]:
                raise ValueError(f"start needs two different squares, got {start!r}")
        self.initial = IsolationState(0, positions, "P1", size)
        self._rays = [[self._ray(i, d) for d in _DIRECTIONS] for i in range(size * size)]

    def _index(self, square: tuple[int, int]) -> int:
        r, c = square
        if not (0 <= r < self.size and 0 <= c < self.size):
            raise ValueError(f"square {square!r} is off the {self.size}x{self.size} board")
        return r * self.size + c

    def _ray(self, i: int, d: tuple[int, int]) -> list[int]:
        r, c = divmod(i, self.size)
        out = []
        r, c = r + d[0], c + d[1]
        while 0 <= r < self.size and 0 <= c < self.size:
            out.append(r * self.size + c)
            r, c = r + d[0], c + d[1]
        return out

    def _moves(self, state: IsolationState) -> list[int]:
        me = 0 if state.to_move == "P1" else 1
        occupied = state.blocked
        for p in state.positions:
            if p is not None:
                occupied |= 1 << p
        here = state.positions[me]
        if here is None:
            return [i for i in range(self.size * self.size) if not occupied >> i & 1]
        out = []
        for ray in self._rays[here]:
            for j in ray:
                if occupied >> j & 1:
                    break
                out.append(j)
        return sorted(out)

    def to_move(self, state: IsolationState) -> str:
        return state.to_move

    def actions(self, state: IsolationState) -> list[tuple[int, int]]:
        return [divmod(i, self.size) for i in self._moves(state)]

    def result(self, state: IsolationState, action: tuple[int, int]) -> IsolationState:
        if type(action) is not tuple or len(action) != 2:
            raise self.illegal(state, action)
        r, c = action
        i = r * self.size + c if type(r) is int and type(c) is int else None
        if i is None or not (0 <= r < self.size and 0 <= c < self.size) or i not in self._moves(state):
            raise self.illegal(state, action)
        me = 0 if state.to_move == "P1" else 1
        here = state.positions[me]
        blocked = state.blocked if here is None else state.blocked | 1 << here
        positions = (i, state.positions[1]) if me == 0 else (state.positions[0], i)
        return IsolationState(blocked, positions, self.opponent(state.to_move), self.size)

    def is_terminal(self, state: IsolationState) -> bool:
        return not self._moves(state)

    def utility(self, state: IsolationState, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        check_player(self, player)
        return -1 if player == state.to_move else 1

    def mobility(self, state: IsolationState, player: str) -> int:
        """How many moves `player` would have in `state` if it were their turn."""
        check_player(self, player)
        return len(self._moves(state._replace(to_move=player)))

    def display(self, state: IsolationState) -> str:
        return str(state)

    def __repr__(self) -> str:
        return f"Isolation(size={self.size})"
