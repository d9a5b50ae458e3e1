"""Explicit game trees: the small examples of lectures and hidden tests.

A state of a `GameTree` is the *name* of a node (a string), so traces, figures and
test messages can all say which node they mean. Action ``i`` leads to the i-th child,
counted from the left, unless the tree names its actions (``"Left"``, ``"Right"``).
An internal node may hold an evaluation, the guess a depth-limited search uses there.
"""

from __future__ import annotations

from collections import deque
from typing import Any, Hashable, Iterable, Mapping, Sequence

from .base import Game

MAX, MIN, CHANCE, TERMINAL = "MAX", "MIN", "CHANCE", "TERMINAL"
Value = float | tuple


def _is_value(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_vector(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) >= 3 and all(_is_value(v) for v in x)


def label_prefix(kind: str) -> str:
    """``P1`` for MAX, ``P2`` for MIN, ``C`` for CHANCE, ``L`` for a leaf, a player's own name (``P3``) otherwise."""
    return {MAX: "P1", MIN: "P2", CHANCE: "C", TERMINAL: "L"}.get(kind, kind)


def level_labels(root: Hashable, children: Mapping, kind: Mapping) -> dict:
    """The labels of a tree: decision and chance nodes numbered level by level, leaves left to right.

    `children` maps a node to its children (left to right) and `kind` every node to MAX,
    MIN, CHANCE, TERMINAL or a player's name. A node without children that is not
    TERMINAL (a search horizon) is labelled as its player's.

    >>> kids = {"r": ["a", "b"], "a": ["x", "y"]}
    >>> level_labels("r", kids, {"r": MAX, "a": MIN, "b": MIN, "x": TERMINAL, "y": TERMINAL})
    {'r': 'P1.0', 'a': 'P2.0', 'b': 'P2.1', 'x': 'L.0', 'y': 'L.1'}
    """
    labels: dict = {}
    counters: dict[str, int] = {}
    queue = deque([root])
    while queue:
        n = queue.popleft()
        if kind[n] != TERMINAL:
            prefix = label_prefix(kind[n])
            labels[n] = f"{prefix}.{counters.get(prefix, 0)}"
            counters[prefix] = counters.get(prefix, 0) + 1
        queue.extend(children.get(n, ()))
    leaves, stack = 0, [root]
    while stack:
        n = stack.pop()
        if kind[n] == TERMINAL:
            labels[n], leaves = f"L.{leaves}", leaves + 1
        stack.extend(reversed(children.get(n, ())))
    return labels


class GameTree(Game):
    """A game given as an explicit tree of MAX, MIN, CHANCE and terminal nodes.

    Build one with `from_leaves`, `from_nested` or `from_mapping`:

    >>> t = GameTree.from_leaves([3, 5, 2, 9], branching=2)
    >>> t.initial, t.actions("P1.0"), t.result("P1.0", 1)
    ('P1.0', [0, 1], 'P2.1')
    >>> t.utility("L.3", "MAX"), t.utility("L.3", "MIN")
    (9, -9)

    With utility vectors of three or more entries at the leaves the players are
    ``P1, P2, ...`` (for max^n) and ``utility(leaf, "P2")`` is the second entry.
    `moves` names the actions of a node (left to right) and `evaluations` holds the
    evaluation of internal nodes (see `from_mapping`).
    """

    def __init__(
        self,
        kinds: Mapping[str, str],
        children: Mapping[str, Sequence[str]],
        values: Mapping[str, Value],
        root: str,
        probabilities: Mapping[str, Sequence[float]] | None = None,
        labels: Mapping[str, str] | None = None,
        moves: Mapping[str, Sequence[Hashable]] | None = None,
        evaluations: Mapping[str, Value] | None = None,
    ):
        self._kind = dict(kinds)
        self._moves = {n: tuple(m) for n, m in (moves or {}).items()}
        self._eval = dict(evaluations or {})
        self._children = {n: tuple(c) for n, c in children.items()}
        self._value = dict(values)
        self._prob = {n: tuple(p) for n, p in (probabilities or {}).items()}
        self.initial = root
        vectors = [v for v in self._value.values() if isinstance(v, tuple)]
        n_players = len(vectors[0]) if vectors else 2
        if vectors and any(len(v) != n_players for v in vectors):
            raise ValueError("every utility vector must have the same length")
        if vectors and len(vectors) != len(self._value):
            raise ValueError("mix of numbers and utility vectors at the leaves")
        self.players = (MAX, MIN) if n_players == 2 else tuple(
            f"P{i + 1}" for i in range(n_players)
        )
        self._validate()
        self._parent = {c: p for p, cs in self._children.items() for c in cs}
        self._depth = {root: 0}
        self._player = {}
        order = self.nodes()
        for name in order:
            for c in self._children.get(name, ()):
                self._depth[c] = self._depth[name] + 1
        self._assign_players(order)
        self._label = dict(labels) if labels else self._make_labels()

    # -- construction ----------------------------------------------------------------

    @classmethod
    def from_leaves(cls, leaves: Sequence[Value], branching: int = 2, root: str = MAX) -> "GameTree":
        """A uniform tree whose leaves, left to right, are `leaves`, every internal node with `branching` children."""
        leaves = list(leaves)
        if branching < 1:
            raise ValueError(f"branching must be at least 1, not {branching}")
        size, depth = 1, 0
        while size < len(leaves):
            size, depth = size * branching, depth + 1
        if size != len(leaves) or (branching == 1 and len(leaves) != 1):
            raise ValueError(
                f"{len(leaves)} leaves do not fill a uniform tree with branching "
                f"{branching} (a tree of depth d has {branching}**d leaves)"
            )
        nested: Any = leaves
        for _ in range(depth):
            nested = [nested[i:i + branching] for i in range(0, len(nested), branching)]
        return cls.from_nested(nested[0] if depth else nested[0], root=root)

    @classmethod
    def from_nested(cls, spec: Any, root: str = MAX, levels: Sequence[str] | None = None) -> "GameTree":
        """A tree from nested lists: a list is an internal node, a number (or vector) a leaf.

        The levels alternate between the players starting with `root`, or follow
        `levels` (cycled), for example ``("MAX", "CHANCE", "MIN", "CHANCE")``. Below a
        CHANCE node a child may be written ``(probability, subtree)``; plain children
        of a chance node are equally likely.

        >>> GameTree.from_nested([[1, [2, 3]], 4]).leaves()
        ['L.0', 'L.1', 'L.2', 'L.3']
        """
        players = cls._players_of(spec)
        if levels is None:
            start = players.index(root) if root in players else 0
            levels = list(players[start:]) + list(players[:start])
        kinds: dict[str, str] = {}
        children: dict[str, list[str]] = {}
        values: dict[str, Value] = {}
        probs: dict[str, list[float]] = {}
        counters: dict[str, int] = {}
        # Breadth-first so that labels number each level from left to right.
        level_kinds = list(levels)
        queue = deque([(spec, 0, None)])
        root_name = None
        while queue:
            node, depth, parent = queue.popleft()
            kind = TERMINAL if not isinstance(node, list) else level_kinds[depth % len(level_kinds)]
            if kind == TERMINAL and not (_is_value(node) or _is_vector(node)):
                raise ValueError(f"a leaf must be a number or a utility vector, not {node!r}")
            if isinstance(node, list) and not node:
                raise ValueError("an internal node needs at least one child (empty list found)")
            prefix = label_prefix(kind)
            name = f"{prefix}.{counters.get(prefix, 0)}"
            counters[prefix] = counters.get(prefix, 0) + 1
            kinds[name] = kind
            if parent is None:
                root_name = name
            else:
                children[parent].append(name)
            if kind == TERMINAL:
                values[name] = node
                continue
            children[name] = []
            if kind == CHANCE:
                entries = [c if isinstance(c, tuple) and len(c) == 2 and not _is_vector(c)
                           else (1 / len(node), c) for c in node]
                probs[name] = [float(p) for p, _ in entries]
                node = [c for _, c in entries]
            for child in node:
                queue.append((child, depth + 1, name))
        return cls(kinds, children, values, root_name, probs)._renamed_by_label()

    def _renamed_by_label(self) -> "GameTree":
        """The same tree with every node named by its label."""
        new = self._label.get
        return GameTree(
            {new(n): k for n, k in self._kind.items()},
            {new(n): [new(c) for c in cs] for n, cs in self._children.items()},
            {new(n): v for n, v in self._value.items()},
            new(self.initial),
            {new(n): p for n, p in self._prob.items()},
            moves={new(n): m for n, m in self._moves.items()},
            evaluations={new(n): v for n, v in self._eval.items()},
        )

    @classmethod
    def from_mapping(cls, nodes: Mapping[str, Any], root: str) -> "GameTree":
        """A tree from named nodes.

        Each entry is ``name: value`` for a leaf, ``name: (kind, [child, ...])`` for an
        internal node, and ``name: ("CHANCE", [(child, probability), ...])`` for chance.
        Children given as a dict ``{action: child}`` name the actions; a third entry,
        ``(kind, children, evaluation)``, is the node's evaluation for MAX (or P1, P2, ...).
        Every node must be defined and reachable from `root`.

        >>> t = GameTree.from_mapping({"A": ("MAX", ["B", "C"]), "B": 3, "C": 5}, root="A")
        >>> t.label("A"), t.actions("A"), t.utility("C", "MAX")
        ('P1.0', [0, 1], 5)
        >>> t = GameTree.from_mapping({"A": ("MAX", {"Left": "B", "Right": "C"}, 4),
        ...                            "B": ("MIN", ["x", "y"], 2), "x": 1, "y": 3, "C": 5}, root="A")
        >>> t.actions("A"), t.result("A", "Left"), t.evaluation("B", "MAX"), t.evaluation("B", "MIN")
        (['Left', 'Right'], 'B', 2, -2)
        """
        kinds, children, values, probs, moves, evals = {}, {}, {}, {}, {}, {}
        for name, entry in nodes.items():
            if _is_value(entry) or _is_vector(entry):
                kinds[name], values[name] = TERMINAL, entry
                continue
            if not (isinstance(entry, tuple) and len(entry) in (2, 3)):
                raise ValueError(f"node {name!r}: expected a value, (kind, children) or (kind, children, "
                                 f"evaluation), got {entry!r}")
            kind, kids = entry[:2]
            kinds[name] = kind
            if len(entry) == 3:
                evals[name] = entry[2]
            if isinstance(kids, Mapping):
                moves[name], kids = list(kids), list(kids.values())
            if kind == CHANCE:
                children[name] = [c for c, _ in kids]
                probs[name] = [float(p) for _, p in kids]
            else:
                children[name] = list(kids)
        return cls(kinds, children, values, root, probs, moves=moves, evaluations=evals)

    @staticmethod
    def _players_of(spec: Any) -> tuple:
        stack = [spec]
        while stack:
            x = stack.pop()
            if _is_vector(x):
                return tuple(f"P{i + 1}" for i in range(len(x)))
            if isinstance(x, list):
                stack.extend(x)
            elif isinstance(x, tuple) and len(x) == 2:
                stack.append(x[1])
        return (MAX, MIN)

    def _validate(self) -> None:
        if self.initial not in self._kind:
            raise ValueError(f"root {self.initial!r} is not a node of the tree")
        allowed = set(self.players) | {CHANCE, TERMINAL}
        for name, kind in self._kind.items():
            if kind not in allowed:
                raise ValueError(f"node {name!r} has kind {kind!r}; expected one of {sorted(allowed)}")
            if kind != TERMINAL:
                kids = self._children.get(name, ())
                if not kids:
                    raise ValueError(f"internal node {name!r} has no children")
                for c in kids:
                    if c not in self._kind:
                        raise ValueError(f"node {name!r} has child {c!r}, which is not defined")
                moves = self._moves.get(name)
                if moves is not None and (len(moves) != len(kids) or len(set(moves)) != len(moves)):
                    raise ValueError(f"node {name!r}: actions {list(moves)} must name its {len(kids)} children, "
                                     "once each")
            elif name in self._moves or name in self._eval:
                raise ValueError(f"leaf {name!r} has actions or an evaluation: a leaf has its value only")
            if kind == CHANCE:
                p = self._prob.get(name, ())
                if len(p) != len(self._children[name]) or abs(sum(p) - 1) > 1e-9 or min(p) < 0:
                    raise ValueError(f"chance node {name!r}: probabilities {list(p)} must be >= 0 and sum to 1")
        seen, stack = set(), [self.initial]
        while stack:
            n = stack.pop()
            if n in seen:
                raise ValueError(f"node {n!r} is reached twice: a tree needs one parent per node")
            seen.add(n)
            stack.extend(self._children.get(n, ()))
        unreachable = [n for n in self._kind if n not in seen]
        if unreachable:
            raise ValueError(f"node(s) {unreachable} cannot be reached from the root {self.initial!r}: "
                             "give each one a parent, or leave it out")

    def _assign_players(self, order: list[str]) -> None:
        # A player node belongs to its kind; a chance node or leaf to whoever would
        # move there: the player after its parent, or its chance parent's player.
        for name in order:
            kind, parent = self._kind[name], self._parent.get(name)
            if kind in self.players:
                self._player[name] = kind
            elif parent is None:
                self._player[name] = self.players[0]
            elif self._kind[parent] == CHANCE:
                self._player[name] = self._player[parent]
            else:
                self._player[name] = self._next(self._player[parent])

    def _next(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def _make_labels(self) -> dict[str, str]:
        return level_labels(self.initial, self._children, self._kind)

    def _bfs(self) -> list[str]:
        out, queue = [], deque([self.initial])
        while queue:
            n = queue.popleft()
            out.append(n)
            queue.extend(self._children.get(n, ()))
        return out

    # -- the Game interface -----------------------------------------------------------

    def to_move(self, state: str) -> str:
        """MAX or MIN (P1, P2, ... with more players), or CHANCE at a chance node."""
        self._check(state)
        return CHANCE if self._kind[state] == CHANCE else self._player[state]

    def actions(self, state: str) -> list:
        """Child indices, left to right (or the node's action names); none at a leaf."""
        self._check(state)
        if state in self._moves:
            return list(self._moves[state])
        return list(range(len(self._children.get(state, ()))))

    def result(self, state: str, action: Hashable) -> str:
        """The name of the child that `action` leads to."""
        return self._children[state][self._index(state, action)]

    def _index(self, state: str, action: Hashable) -> int:
        """Which child, counted from the left, `action` leads to."""
        self._check(state)
        kids = self._children.get(state, ())
        if state in self._moves:
            if action in self._moves[state]:
                return self._moves[state].index(action)
        elif type(action) is int and 0 <= action < len(kids):
            return action
        raise self.illegal(state, action)

    def is_terminal(self, state: str) -> bool:
        """True at a leaf."""
        self._check(state)
        return self._kind[state] == TERMINAL

    def utility(self, state: str, player: str) -> float:
        """The leaf value for `player`: MIN gets minus MAX's value; P-i gets entry i of a vector."""
        self._check(state)
        if self._kind[state] != TERMINAL:
            raise self.not_terminal(state)
        return self._for(self._value[state], player)

    def evaluation(self, state: str, player: str) -> float:
        """The evaluation written at internal node `state`, for `player` (as `utility` is for a leaf)."""
        self._check(state)
        if self._kind[state] == TERMINAL:
            raise ValueError(f"{state!r} is a leaf: use utility(), the evaluation is for nodes a search cuts off")
        if state not in self._eval:
            raise ValueError(f"no evaluation is written at node {state!r}")
        return self._for(self._eval[state], player)

    def _for(self, v: Value, player: str) -> float:
        if player == CHANCE:
            raise ValueError("no value for 'CHANCE': a chance node has no point of view; value a state for the "
                             "player to move where the search started (a search starts at a player's node)")
        if player not in self.players:
            raise ValueError(f"unknown player {player!r}; players are {list(self.players)!r}")
        if isinstance(v, tuple):
            return v[self.players.index(player)]
        return v if player == MAX else -v

    # -- extra queries for chance, drawings and tests ------------------------------------

    def outcomes(self, state: str) -> list[tuple[Hashable, float]]:
        """``(action, probability)`` pairs of a chance node."""
        self._check(state)
        if self._kind[state] != CHANCE:
            raise ValueError(f"{state!r} is not a chance node")
        return list(zip(self.actions(state), self._prob[state]))

    def probability(self, state: str, action: Hashable) -> float:
        """The probability of outcome `action` at chance node `state`."""
        return self.outcomes(state)[self._index(state, action)][1]

    def utilities(self, state: str) -> tuple:
        """The utility vector of a leaf (``(v, -v)`` for MAX and MIN)."""
        return tuple(self.utility(state, p) for p in self.players)

    def value(self, state: str) -> Value:
        """The number (or vector) written at a leaf."""
        self._check(state)
        if self._kind[state] != TERMINAL:
            raise self.not_terminal(state)
        return self._value[state]

    def kind(self, state: str) -> str:
        """MAX, MIN, CHANCE, TERMINAL (or P1, P2, ... with more players)."""
        self._check(state)
        return self._kind[state]

    def label(self, state: str) -> str:
        """The ``P1.i`` / ``P2.i`` / ``C.i`` / ``L.i`` label of a node."""
        self._check(state)
        return self._label[state]

    def children(self, state: str) -> list[str]:
        """Names of the children, left to right."""
        self._check(state)
        return list(self._children.get(state, ()))

    def parent(self, state: str) -> str | None:
        """Name of the parent (None at the root)."""
        return self._parent.get(state)

    def depth(self, state: str) -> int:
        """Plies from the root."""
        self._check(state)
        return self._depth[state]

    def nodes(self) -> list[str]:
        """All node names, depth first, left to right (pre-order)."""
        out, stack = [], [self.initial]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(reversed(self._children.get(n, ())))
        return out

    def leaves(self) -> list[str]:
        """Leaf names, left to right."""
        return [n for n in self.nodes() if self._kind[n] == TERMINAL]

    def leaf_values(self) -> list[Value]:
        """Leaf values, left to right."""
        return [self._value[n] for n in self.leaves()]

    def subtree(self, state: str) -> "GameTree":
        """The tree below `state`, keeping names and labels."""
        keep = []
        stack = [state]
        while stack:
            n = stack.pop()
            keep.append(n)
            stack.extend(self._children.get(n, ()))
        return GameTree(
            {n: self._kind[n] for n in keep},
            {n: self._children[n] for n in keep if n in self._children},
            {n: self._value[n] for n in keep if n in self._value},
            state,
            {n: self._prob[n] for n in keep if n in self._prob},
            {n: self._label[n] for n in keep},
            moves={n: self._moves[n] for n in keep if n in self._moves},
            evaluations={n: self._eval[n] for n in keep if n in self._eval},
        )

    def display(self, state: str) -> str:
        self._check(state)
        kind = self._kind[state]
        if kind == TERMINAL:
            return f"{state} (leaf {self._value[state]!r})"
        return f"{state} ({kind} node, children {list(self._children[state])})"

    def _check(self, state: Any) -> None:
        if state not in self._kind:
            raise ValueError(f"{state!r} is not a node of this tree (the root is {self.initial!r})")

    def __repr__(self) -> str:
        return f"GameTree({len(self._kind)} nodes, root {self.initial!r}, players {list(self.players)})"


def uniform_tree(values: Iterable[Value], branching: int, root: str = MAX) -> GameTree:
    """Shorthand for `GameTree.from_leaves`."""
    return GameTree.from_leaves(list(values), branching, root)
