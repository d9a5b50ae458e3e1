"""The number-picking game: add 1..k to a running total; reaching exactly N wins."""

from __future__ import annotations

from typing import NamedTuple

from .base import Game, check_player


class RaceState(NamedTuple):
    """The running total and the player to move."""

    total: int
    to_move: str

    def __str__(self) -> str:
        return f"total {self.total}, {self.to_move} to move"


class RaceTo(Game):
    """Players alternately add 1, 2, ..., k to a running total that starts at 0.

    Whoever makes the total exactly `n` wins; going over `n` is not allowed.
    Actions are the numbers that may be added, smallest first.

    >>> g = RaceTo()
    >>> g.actions(RaceState(8, "P1"))
    [1, 2]
    >>> g.utility(g.result(RaceState(8, "P1"), 2), "P1")
    1
    """

    players = ("P1", "P2")

    def __init__(self, n: int = 10, k: int = 3):
        if n < 1 or k < 1:
            raise ValueError(f"need n >= 1 and k >= 1; got n={n}, k={k}")
        self.n, self.k = n, k
        self.initial = RaceState(0, "P1")

    def to_move(self, state: RaceState) -> str:
        return state.to_move

    def actions(self, state: RaceState) -> list[int]:
        return list(range(1, min(self.k, self.n - state.total) + 1))

    def result(self, state: RaceState, action: int) -> RaceState:
        if type(action) is not int or not 1 <= action <= min(self.k, self.n - state.total):
            raise self.illegal(state, action)
        return RaceState(state.total + action, self.opponent(state.to_move))

    def is_terminal(self, state: RaceState) -> bool:
        return state.total >= self.n

    def utility(self, state: RaceState, player: str) -> int:
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        check_player(self, player)
        # The player who reached n has just moved, so it is the other one's turn.
        return -1 if player == state.to_move else 1

    def display(self, state: RaceState) -> str:
        return f"{state} (reach exactly {self.n}, adding 1..{self.k})"

    def __repr__(self) -> str:
        return f"RaceTo(n={self.n}, k={self.k})"
