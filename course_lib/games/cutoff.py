"""A game seen only `depth` plies deep: any full-depth search becomes a depth-limited one."""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from .base import Game


class CutState(NamedTuple):
    """A state of the wrapped game and the plies played since the cut-off game's start."""

    state: Any
    plies: int


class CutOff(Game):
    """`game` seen at most `depth` plies deep: a state at the limit is terminal and its utility is `evaluate`.

    Real terminal states keep their true utility. A search written for ``(game, state)`` becomes a
    depth-limited search when it is given ``CutOff(game, depth)``; chance nodes pass through
    (`outcomes`), so expectimax works on it too.

    >>> from course_lib.games import RaceTo
    >>> seen = CutOff(RaceTo(10, 3), 2)
    >>> s = seen.result(seen.result(seen.initial, 1), 2)
    >>> s, seen.is_terminal(s), seen.utility(s, "P1")
    (CutState(state=RaceState(total=3, to_move='P1'), plies=2), True, 0)
    """

    def __init__(self, game: Game, depth: int, evaluate: Callable[[Any, Any], float] = lambda state, player: 0):
        self.game, self.depth, self.evaluate = game, depth, evaluate
        self.players = game.players
        self.initial = CutState(game.initial, 0)

    def start(self, state: Any) -> CutState:
        """The cut-off game's state for `state` of the wrapped game, with no ply played yet."""
        return CutState(state, 0)

    def to_move(self, state: CutState) -> Any:
        """The wrapped game's player to move (``"CHANCE"`` at a chance node)."""
        return self.game.to_move(state.state)

    def actions(self, state: CutState) -> list:
        """The wrapped game's actions; none at the depth limit."""
        return [] if self.is_terminal(state) else self.game.actions(state.state)

    def result(self, state: CutState, action: Any) -> CutState:
        """The wrapped game's result, one ply deeper."""
        if self.is_terminal(state):
            raise self.illegal(state, action)
        return CutState(self.game.result(state.state, action), state.plies + 1)

    def is_terminal(self, state: CutState) -> bool:
        """True at the depth limit or where the wrapped game is over."""
        return state.plies >= self.depth or self.game.is_terminal(state.state)

    def utility(self, state: CutState, player: Any) -> float:
        """The true utility where the game is over, else `evaluate(state, player)` of the wrapped state."""
        if self.game.is_terminal(state.state):
            return self.game.utility(state.state, player)
        if state.plies < self.depth:
            raise self.not_terminal(state)
        return self.evaluate(state.state, player)

    def utilities(self, state: CutState) -> tuple:
        """The utility of every player, in the order of `players` (for max^n)."""
        return tuple(self.utility(state, p) for p in self.players)

    def outcomes(self, state: CutState) -> list[tuple[Any, float]]:
        """``(action, probability)`` pairs of a chance node of the wrapped game."""
        return self.game.outcomes(state.state)

    def probability(self, state: CutState, action: Any) -> float:
        """The probability of outcome `action` at a chance node of the wrapped game."""
        return self.game.probability(state.state, action)

    def display(self, state: CutState) -> str:
        return f"{self.game.display(state.state)}\n({state.plies} of {self.depth} plies played)"

    def __repr__(self) -> str:
        return f"CutOff({self.game!r}, depth={self.depth})"
