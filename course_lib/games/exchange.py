"""A game tree of captures: positions in the middle of an exchange are marked *noisy*."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from .tree import TERMINAL, GameTree


class ExchangeTree(GameTree):
    """A `GameTree` whose noisy nodes are positions in the middle of an exchange.

    At a noisy node the player to move can still capture (or recapture), so a guess made
    there is unreliable: a search that stops at a noisy node misjudges the position (the
    horizon effect). `is_noisy` tells them apart; every internal node carries an evaluation.

    >>> t = ExchangeTree.from_nodes({
    ...     "start": ("MAX", {"QxP": "taken", "Nf3": "calm"}, 0),
    ...     "taken": ("MIN", {"PxQ": -8, "a6": 1}, 1), "calm": ("MIN", {"d5": 0, "Bg4": 1}, 0),
    ... }, root="start", noisy=["taken"])
    >>> t.actions("start"), t.is_noisy("taken"), t.is_noisy("calm"), t.evaluation("taken", "MAX")
    (['QxP', 'Nf3'], True, False, 1)
    >>> t.result("taken", "PxQ"), t.label("taken"), t.label("taken/PxQ")
    ('taken/PxQ', 'taken', 'L.0')
    """

    def __init__(self, *args: Any, noisy: Iterable[str] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._noisy = frozenset(noisy)
        for name in sorted(self._noisy):
            if name not in self._kind:
                raise ValueError(f"noisy node {name!r} is not a node of the tree")
            if self._kind[name] == TERMINAL:
                raise ValueError(f"noisy node {name!r} is a leaf: only positions where play goes on can be noisy")

    @classmethod
    def from_nodes(cls, nodes: Mapping[str, Any], root: str, noisy: Iterable[str] = ()) -> "ExchangeTree":
        """A tree from named nodes as in `GameTree.from_mapping`, a leaf given inline as a number, and the
        names of its noisy nodes."""
        full: dict[str, Any] = {}
        for name, (kind, kids, *rest) in nodes.items():
            named = {}
            for move, child in kids.items():
                if isinstance(child, (int, float)):
                    leaf, child = child, f"{name}/{move}"
                    full[child] = leaf
                named[move] = child
            full[name] = (kind, named, *rest)
        base = GameTree.from_mapping(full, root)
        labels = {n: (n if n in nodes else base.label(n)) for n in base.nodes()}  # positions keep their names
        return cls(base._kind, base._children, base._value, root, labels=labels, moves=base._moves,
                   evaluations=base._eval, noisy=noisy)

    def is_noisy(self, state: str) -> bool:
        """True when `state` is in the middle of an exchange (a capture can still be answered)."""
        self._check(state)
        return state in self._noisy

    def noisy(self) -> list[str]:
        """The noisy nodes, in breadth-first order."""
        return [n for n in self.nodes() if n in self._noisy]
