"""Game clocks: a search asks ``clock.expired()`` and stops when it says so.

Two clocks share one small interface:

- `NodeBudget(nodes)`: expires once the search has generated `nodes` states (calls of
  ``game.result``) on the game it watches. The same search stops at the same node on any
  machine, so tests and grading use it.
- `WallClock(seconds)`: expires when `seconds` of real time have passed since it started. For
  play, where a move must come in time.

A search written for a clock plays on ``clock.watch(game)``; a `WallClock` gives the game back
unchanged, a `NodeBudget` gives a `Traced` game whose ``result`` calls it counts.

>>> from course_lib.games import RaceTo
>>> clock = NodeBudget(3)
>>> game = clock.watch(RaceTo(10, 3))
>>> s = game.initial
>>> while not clock.expired():
...     s = game.result(s, 1)
>>> clock.used, s.total
(3, 3)
"""

from __future__ import annotations

import time
from typing import Any

from .trace import Traced


class Clock:
    """What a search consults: `expired()`, and `watch(game)` for the game to search on."""

    def watch(self, game: Any) -> Any:
        """The game a search using this clock should play on."""
        return game

    def expired(self) -> bool:
        """True once the search must stop and answer."""
        raise NotImplementedError


class NodeBudget(Clock):
    """Expires after `nodes` generated states (``result`` calls) on the games it watches.

    >>> NodeBudget(-1)
    Traceback (most recent call last):
    ...
    ValueError: a NodeBudget needs a whole number of nodes >= 0, not -1
    """

    def __init__(self, nodes: int):
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0:
            raise ValueError(f"a NodeBudget needs a whole number of nodes >= 0, not {nodes!r}")
        self.nodes = nodes
        self._watched: list[tuple[Traced, int]] = []

    def watch(self, game: Any) -> Traced:
        """`game` traced (counts only), or the `Traced` game itself; its generated states count from now.

        Watching a game this clock already watches changes nothing (its states are not counted twice).

        >>> from course_lib.games import RaceTo
        >>> clock = NodeBudget(5)
        >>> game = clock.watch(RaceTo(10, 3))
        >>> clock.watch(game) is game, len(clock._watched)
        (True, 1)
        """
        traced = game if isinstance(game, Traced) else Traced(game, keep_events=False)
        if not any(t is traced for t, _ in self._watched):
            self._watched.append((traced, traced.trace.count("generate")))
        return traced

    @property
    def used(self) -> int:
        """States generated since each watched game was first watched."""
        return sum(t.trace.count("generate") - start for t, start in self._watched)

    def expired(self) -> bool:
        return self.used >= self.nodes

    def __repr__(self) -> str:
        return f"NodeBudget({self.nodes}, used={self.used})"


class WallClock(Clock):
    """Expires `seconds` of real time after it was made (or `restart`-ed).

    >>> WallClock(0).expired(), WallClock(60).expired()
    (True, False)
    """

    def __init__(self, seconds: float):
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
            raise ValueError(f"a WallClock needs a number of seconds >= 0, not {seconds!r}")
        self.seconds = float(seconds)
        self.restart()

    def restart(self) -> None:
        """Start counting again from now (for the next move)."""
        self.started = time.monotonic()

    def remaining(self) -> float:
        """Seconds left, never below 0."""
        return max(0.0, self.seconds - (time.monotonic() - self.started))

    def expired(self) -> bool:
        return self.remaining() <= 0.0

    def __repr__(self) -> str:
        return f"WallClock({self.seconds:g}, remaining={self.remaining():.2f})"
