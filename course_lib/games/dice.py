"""A dice game with chance nodes: Pig, cut short to a fixed number of rolls.

Players take turns. On her turn a player rolls a die as often as she likes, adding
each face to her turn total, then holds to bank it. Rolling the bust face (a 1)
loses the turn total and ends the turn. Whoever banks `target` points first wins;
when all `rolls` rolls of the game have been used, the higher bank wins (equal
banks are a draw). The roll itself is a chance node: ``to_move`` says ``"CHANCE"``
and `outcomes` lists each face with its probability.
"""

from __future__ import annotations

from typing import NamedTuple

from .base import Game, check_player
from .tree import CHANCE

ROLL, HOLD = "roll", "hold"


class PigState(NamedTuple):
    """Banked scores of A and B, the turn total, whose turn it is, the rolls left, and
    whether the die is in the air (a chance node)."""

    scores: tuple[int, int]
    turn_total: int
    player: str
    rolls_left: int
    rolling: bool = False

    def __str__(self) -> str:
        a, b = self.scores
        air = ", die in the air" if self.rolling else ""
        return f"A {a} B {b}, {self.player}'s turn total {self.turn_total}, {self.rolls_left} rolls left{air}"


class PigRace(Game):
    """Pig for players A and B with a fixed budget of rolls (see the module's text).

    A decision state offers ``"roll"`` (while rolls are left) and ``"hold"`` (once the
    turn total is positive), in that order. After ``"roll"`` the die is in the air:
    the actions are the distinct faces, smallest first, and `outcomes` gives
    ``(face, probability)`` pairs. The die may repeat faces to weight them.

    >>> g = PigRace(target=6, rolls=3, die=(1, 2, 2, 3))
    >>> s = g.result(g.initial, "roll")
    >>> g.to_move(s), g.outcomes(s)
    ('CHANCE', [(1, 0.25), (2, 0.5), (3, 0.25)])
    >>> t = g.result(s, 3)
    >>> g.to_move(t), g.actions(t), t.turn_total
    ('A', ['roll', 'hold'], 3)
    >>> g.result(g.result(t, "hold"), "roll").rolls_left
    1
    """

    players = ("A", "B")

    def __init__(self, target: int = 10, rolls: int = 6, die: tuple[int, ...] = (1, 2, 3, 4, 5, 6), bust: int = 1):
        die = tuple(die)
        if target < 1 or rolls < 0:
            raise ValueError(f"need target >= 1 and rolls >= 0; got target={target}, rolls={rolls}")
        if not die or any(type(f) is not int or f < 1 for f in die):
            raise ValueError(f"the die's faces must be positive integers; got {die!r}")
        self.target, self.rolls, self.die, self.bust = target, rolls, die, bust
        self.faces = sorted(set(die))
        self._prob = {f: die.count(f) / len(die) for f in self.faces}
        self.initial = PigState((0, 0), 0, "A", rolls)

    def to_move(self, state: PigState) -> str:
        """A or B, or ``"CHANCE"`` while the die is in the air."""
        return CHANCE if state.rolling else state.player

    def actions(self, state: PigState) -> list:
        """The faces while rolling; otherwise ``"roll"`` and/or ``"hold"``."""
        if self.is_terminal(state):
            return []
        if state.rolling:
            return list(self.faces)
        moves = [ROLL] if state.rolls_left > 0 else []
        return moves + ([HOLD] if state.turn_total > 0 else [])

    def result(self, state: PigState, action) -> PigState:
        """The state after a decision or after the die shows `action`."""
        if type(action) not in (int, str) or action not in self.actions(state):
            raise self.illegal(state, action)
        if state.rolling:
            if action == self.bust:
                return PigState(state.scores, 0, self.opponent(state.player), state.rolls_left)
            return state._replace(turn_total=state.turn_total + action, rolling=False)
        if action == ROLL:
            return state._replace(rolls_left=state.rolls_left - 1, rolling=True)
        i = self.players.index(state.player)
        scores = list(state.scores)
        scores[i] += state.turn_total
        return PigState(tuple(scores), 0, self.opponent(state.player), state.rolls_left)

    def is_terminal(self, state: PigState) -> bool:
        """A bank reached the target, or no roll is left and nothing is left to bank."""
        if state.rolling:
            return False
        return max(state.scores) >= self.target or (state.rolls_left == 0 and state.turn_total == 0)

    def utility(self, state: PigState, player: str) -> int:
        """+1 for the higher bank, -1 for the lower, 0 for a draw."""
        if not self.is_terminal(state):
            raise self.not_terminal(state)
        check_player(self, player)
        mine = state.scores[self.players.index(player)]
        theirs = state.scores[1 - self.players.index(player)]
        return (mine > theirs) - (mine < theirs)

    def outcomes(self, state: PigState) -> list[tuple[int, float]]:
        """``(face, probability)`` for each distinct face, smallest first (die in the air only)."""
        if not state.rolling:
            raise ValueError(f"no die is in the air in this state: {state}")
        return [(f, self._prob[f]) for f in self.faces]

    def probability(self, state: PigState, action: int) -> float:
        """The probability that the die in the air shows `action`."""
        return dict(self.outcomes(state))[action]

    def state(self, a: int, b: int, turn_total: int = 0, player: str = "A", rolls_left: int | None = None) -> PigState:
        """A decision state from its parts (`rolls_left` defaults to the whole budget)."""
        check_player(self, player)
        return PigState((a, b), turn_total, player, self.rolls if rolls_left is None else rolls_left)

    def display(self, state: PigState) -> str:
        return f"{state} (first to bank {self.target} wins)"

    def __repr__(self) -> str:
        return f"PigRace(target={self.target}, rolls={self.rolls}, die={self.die})"
