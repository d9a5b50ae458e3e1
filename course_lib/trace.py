"""Record what a search did: wrap a game in `Traced` and read its `trace`.

>>> from course_lib.games import GameTree
>>> game = Traced(GameTree.from_leaves([3, 5, 2, 9], branching=2))
>>> def value(s):  # a tiny minimax, just to have something to trace
...     if game.is_terminal(s):
...         return game.utility(s, "MAX")
...     vals = [value(game.result(s, a)) for a in game.actions(s)]
...     return max(vals) if game.to_move(s) == "MAX" else min(vals)
>>> value(game.initial)
3
>>> game.trace.leaf_values(), game.trace.nodes_visited()
([3, 5, 2, 9], 7)
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Hashable, Iterator, NamedTuple

EXPAND, GENERATE, TERMINAL_TEST, UTILITY, EVALUATE = (
    "expand", "generate", "terminal_test", "utility", "evaluate")
KINDS = (EXPAND, GENERATE, TERMINAL_TEST, UTILITY, EVALUATE)


class Event(NamedTuple):
    """One thing a search did, in the order it did it.

    `kind` is one of ``expand`` (asked for the actions of `node`), ``generate``
    (made `node` as the result of `action` in `parent`), ``terminal_test``,
    ``utility`` and ``evaluate`` (`value` is what came back; `player` is the player
    the value was asked for, None for a utility vector). `depth` counts plies from
    the first state the search touched. Fields a kind does not use are None.

    >>> Event("evaluate", "P2.0", 1, player="MAX", value=3)
    Event(kind='evaluate', node='P2.0', depth=1, parent=None, action=None, value=3, player='MAX')
    """

    kind: str
    node: Hashable
    depth: int
    parent: Hashable | None = None
    action: Any = None
    value: Any = None
    player: Any = None


class Trace:
    """The read-only record of a `Traced` game: events in order, and queries on them."""

    def __init__(self, events: list[tuple], counts: Counter, keep_events: bool):
        self._events = events
        self._counts = counts
        self._keep = keep_events

    def _require_events(self) -> None:
        if not self._keep:
            raise ValueError("this game was traced with keep_events=False: only counts were kept")

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        self._require_events()
        return (Event(*e) for e in self._events)

    def __getitem__(self, i: int) -> Event:
        self._require_events()
        return Event(*self._events[i])

    def events(self, *kinds: str) -> list[Event]:
        """All events, or only those of the given kinds, in order."""
        self._require_events()
        wanted = set(kinds) or set(KINDS)
        return [Event(*e) for e in self._events if e[0] in wanted]

    def leaves(self) -> list[Hashable]:
        """Nodes whose value was taken (by `utility` or an evaluation), in order."""
        return [e.node for e in self.events(UTILITY, EVALUATE)]

    def leaf_values(self) -> list[Any]:
        """The values those calls returned, in order."""
        return [e.value for e in self.events(UTILITY, EVALUATE)]

    def expanded(self) -> list[Hashable]:
        """Nodes whose actions were asked for, in order."""
        return [e.node for e in self.events(EXPAND)]

    def generated(self) -> list[Hashable]:
        """Children made by `result`, in order."""
        return [e.node for e in self.events(GENERATE)]

    def edges(self) -> list[tuple[Hashable, Any, Hashable]]:
        """``(parent, action, child)`` for every call of `result`, in order."""
        return [(e.parent, e.action, e.node) for e in self.events(GENERATE)]

    def calls(self, node: Hashable) -> dict[str, int]:
        """How often each kind of call was made on `node` (a leaf evaluated twice shows 2)."""
        out: Counter = Counter()
        for e in self.events():
            if e.node == node:
                out[e.kind] += 1
        return dict(out)

    def repeated(self, kind: str) -> list[Hashable]:
        """Nodes with more than one call of `kind`, in order of their first call."""
        seen: Counter = Counter(e.node for e in self.events(kind))
        return [n for n in dict.fromkeys(e.node for e in self.events(kind)) if seen[n] > 1]

    def count(self, kind: str) -> int:
        """How many calls of `kind` were made (kept even with ``keep_events=False``)."""
        if kind not in KINDS and kind != "to_move":
            raise ValueError(f"unknown kind {kind!r}; kinds are {KINDS + ('to_move',)}")
        return self._counts[kind]

    def counts(self) -> dict[str, int]:
        """Calls per kind."""
        return {k: self._counts[k] for k in KINDS + ("to_move",)}

    def nodes_visited(self) -> int:
        """The root plus every child the search generated: the usual "nodes visited"."""
        return 1 + self._counts[GENERATE]

    def __repr__(self) -> str:
        c = self.counts()
        return ("Trace(" + ", ".join(f"{k}={v}" for k, v in c.items()) +
                f", nodes_visited={self.nodes_visited()})")


class Traced:
    """A game that behaves exactly like `game` and records every call a search makes.

    ``Traced(game, keep_events=False)`` keeps only the counts, for searches of
    hundreds of thousands of nodes. Use `evaluator` to record an evaluation function.
    """

    def __init__(self, game: Any, keep_events: bool = True):
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_events", [])
        object.__setattr__(self, "_counts", Counter())
        object.__setattr__(self, "_depth", {})
        object.__setattr__(self, "_keep", keep_events)
        object.__setattr__(self, "_trace", Trace(self._events, self._counts, keep_events))

    @property
    def game(self) -> Any:
        """The game being traced."""
        return self._game

    @property
    def trace(self) -> Trace:
        """What the search did so far."""
        return self._trace

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Traced game is read-only")

    def __repr__(self) -> str:
        return f"Traced({self._game!r})"

    def _d(self, state: Hashable) -> int:
        return self._depth.get(state, 0)

    def to_move(self, state: Hashable) -> Any:
        self._counts["to_move"] += 1
        return self._game.to_move(state)

    def actions(self, state: Hashable) -> list:
        acts = self._game.actions(state)
        self._counts[EXPAND] += 1
        if self._keep:
            self._events.append((EXPAND, state, self._d(state), None, None, tuple(acts)))
        return acts

    def result(self, state: Hashable, action: Any) -> Hashable:
        child = self._game.result(state, action)
        self._counts[GENERATE] += 1
        if self._keep:
            depth = self._d(state) + 1
            self._depth[child] = depth
            self._events.append((GENERATE, child, depth, state, action, None))
        return child

    def is_terminal(self, state: Hashable) -> bool:
        answer = self._game.is_terminal(state)
        self._counts[TERMINAL_TEST] += 1
        if self._keep:
            self._events.append((TERMINAL_TEST, state, self._d(state), None, None, answer))
        return answer

    def utility(self, state: Hashable, player: Any) -> Any:
        value = self._game.utility(state, player)
        self._counts[UTILITY] += 1
        if self._keep:
            self._events.append((UTILITY, state, self._d(state), None, None, value, player))
        return value

    def utilities(self, state: Hashable) -> tuple:
        """The utility vector of a terminal state (n-player games), recorded as one ``utility`` event."""
        values = self._game.utilities(state)
        self._counts[UTILITY] += 1
        if self._keep:
            self._events.append((UTILITY, state, self._d(state), None, None, values))
        return values

    def evaluator(self, evaluate: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap an evaluation function ``evaluate(state, player)`` so its calls are recorded."""

        def traced_evaluate(state: Hashable, *args: Any, **kwargs: Any) -> Any:
            value = evaluate(state, *args, **kwargs)
            self._counts[EVALUATE] += 1
            if self._keep:
                self._events.append((EVALUATE, state, self._d(state), None, None, value,
                                     args[0] if args else kwargs.get("player")))
            return value

        traced_evaluate.__name__ = getattr(evaluate, "__name__", "evaluate")
        traced_evaluate.__doc__ = getattr(evaluate, "__doc__", None)
        return traced_evaluate
