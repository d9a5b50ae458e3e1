"""What a search did, read from its trace: the facts every figure, ASCII drawing and stepper shows.

Nothing here searches. `search_annotations` replays the events of a `Trace` over the
tree being drawn and reports, for each node, whether the search visited it, the value
(or bound) it returned, the order in which leaves were evaluated, the alpha-beta window
it was given, and which root move came out best.

>>> from course_lib.games import GameTree
>>> from course_lib.trace import Traced
>>> game = Traced(GameTree.from_leaves([3, 5, 2, 9], branching=2))
>>> for s in ["P1.0", "P2.0", "L.0", "L.1", "P2.1", "L.2"]:  # what some search touched
...     _ = game.utility(s, "MAX") if s.startswith("L") else game.actions(s)
>>> notes = search_annotations(game, game.trace)
>>> notes.text("P2.0"), notes.text("P2.1"), notes.text("P1.0"), notes.status("L.3")
('3', '≤2', '3', 'pruned')
>>> notes.order["L.2"], notes.chosen, notes.cut_edges
([3], 'P2.0', [('P2.1', 'L.3')])

The replay assumes a depth-first search (each node is finished before the search
moves to a node outside its subtree), which is what minimax, alpha-beta and their
depth-limited, ordered and expecti- variants do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Sequence

from .games.tree import CHANCE, MAX, MIN, TERMINAL, GameTree, level_labels
from .trace import Traced

INF = math.inf
NodeId = Hashable


def _plain(game: Any) -> Any:
    """The game under a `Traced` wrapper, so that looking at it records nothing."""
    return game.game if isinstance(game, Traced) else game


def fmt_value(v: Any) -> str:
    """A value as the figures write it: ``7``, ``0.5``, ``-∞``, ``(1, 2, 3)``.

    >>> fmt_value(7.0), fmt_value(0.125), fmt_value(-math.inf), fmt_value((1, 2.5, 3))
    ('7', '0.125', '-∞', '(1, 2.5, 3)')
    """
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt_value(x) for x in v) + ")"
    if isinstance(v, float):
        if math.isinf(v):
            return "∞" if v > 0 else "-∞"
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.4g}"
    return str(v)


# -- the tree being drawn --------------------------------------------------------------

@dataclass
class TreeShape:
    """A tree to draw: node ids, kinds, labels, children, leaf values, edge texts.

    For a `GameTree` the ids are node names. For any other game they are tuples of
    actions from the drawn root (``()`` is the root), and `state` maps them to states.
    Kinds are MAX, MIN, CHANCE, TERMINAL (P1, P2, ... for more players); a node whose
    children are not drawn (depth reached) keeps its player's kind and has no children.
    """

    root: NodeId
    kind: dict[NodeId, str]
    children: dict[NodeId, list[NodeId]]
    label: dict[NodeId, str]
    value: dict[NodeId, Any] = field(default_factory=dict)
    edge_text: dict[NodeId, str] = field(default_factory=dict)
    probability: dict[NodeId, float] = field(default_factory=dict)
    state: dict[NodeId, Any] = field(default_factory=dict)
    more: dict[NodeId, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.parent = {c: p for p, cs in self.children.items() for c in cs}

    def nodes(self) -> list[NodeId]:
        """All ids in pre-order (depth first, left to right)."""
        out, stack = [], [self.root]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(reversed(self.children.get(n, ())))
        return out

    def leaves(self) -> list[NodeId]:
        """Ids without drawn children, left to right."""
        return [n for n in self.nodes() if not self.children.get(n)]

    def depth(self, n: NodeId) -> int:
        """Edges from the root to `n`."""
        d = 0
        while n != self.root:
            n, d = self.parent[n], d + 1
        return d


def tree_shape(tree: GameTree, root: NodeId | None = None) -> TreeShape:
    """The shape of a `GameTree` (or of the subtree below `root`), ids being node names.

    >>> s = tree_shape(GameTree.from_leaves([3, 5, 2, 9], branching=2))
    >>> s.children["P1.0"], s.kind["P2.1"], s.value["L.3"], s.label["L.3"]
    (['P2.0', 'P2.1'], 'MIN', 9, 'L.3')
    """
    tree = _plain(tree)
    root = tree.initial if root is None else root
    kind, children, label, value, prob, edge = {}, {}, {}, {}, {}, {}
    stack = [root]
    while stack:
        n = stack.pop()
        kind[n], label[n] = tree.kind(n), tree.label(n)
        kids = tree.children(n)
        if kids:
            children[n] = kids
            stack.extend(kids)
            if kind[n] == CHANCE:
                for (_, p), c in zip(tree.outcomes(n), kids):
                    prob[c] = p
                    edge[c] = fmt_value(round(p, 4))
        else:
            value[n] = tree.value(n)
    return TreeShape(root, kind, children, label, value, edge, prob)


def game_shape(game: Any, state: Any = None, depth: int | None = 2, *, visited: Iterable[NodeId] = (),
               max_nodes: int = 2000) -> TreeShape:
    """The tree of any game from `state`, down to `depth` plies and through every id in `visited`.

    Ids are tuples of actions from `state`. Children of a node are drawn when the node
    lies above `depth` or when the search visited one of them; at most `max_nodes`
    nodes are kept, the rest counted in `more` (hidden children per node).

    >>> from course_lib.games import RaceTo
    >>> s = game_shape(RaceTo(), depth=1)
    >>> s.children[()], s.kind[()], s.edge_text[(2,)]
    ([(1,), (2,), (3,)], 'MAX', '2')
    """
    if isinstance(_plain(game), GameTree):
        raise TypeError("use tree_shape for a GameTree")
    game = _plain(game)
    state = game.initial if state is None else state
    me = game.to_move(state)
    wanted = set(visited)
    through = {p[:i] for p in wanted for i in range(len(p))}
    kind, children, label, value, edge, states, more, prob = {}, {}, {}, {}, {}, {(): state}, {}, {}
    count, queue = 1, [()]
    while queue:
        nxt = []
        for n in queue:
            s = states[n]
            if game.is_terminal(s):
                kind[n] = TERMINAL
                value[n] = game.utility(s, me)
                continue
            kind[n] = _game_kind(game, s, me)
            if not ((depth is not None and len(n) < depth) or n in through):
                continue
            kids = []
            for a in game.actions(s):
                c = n + (a,)
                if count >= max_nodes and c not in wanted and c not in through:
                    more[n] = more.get(n, 0) + 1
                    continue
                states[c], edge[c] = game.result(s, a), action_text(a)
                if kind[n] == CHANCE:
                    prob[c] = game.probability(s, a)
                    edge[c] += f" ({prob[c]:.2g})"
                kids.append(c)
                count += 1
            if kids:
                children[n] = kids
            nxt.extend(kids)
        queue = nxt
    label.update(level_labels((), children, kind))
    return TreeShape((), kind, children, label, value, edge, prob, states, more)


def _game_kind(game: Any, state: Any, me: Any) -> str:
    """MAX where the root player moves, CHANCE at a chance state, MIN elsewhere."""
    who = game.to_move(state)
    return CHANCE if who == CHANCE else (MAX if who == me else MIN)


def action_text(action: Any) -> str:
    """An action as figures, steppers and feedback write it: ``(1,2)`` for a tuple, else its str.

    >>> action_text((1, 2)), action_text(4), action_text("up")
    ('(1,2)', '4', 'up')
    """
    return "(" + ",".join(str(x) for x in action) + ")" if isinstance(action, tuple) else str(action)


# -- reading a trace -------------------------------------------------------------------

@dataclass
class Annotations:
    """What the figures show about each node, computed from a trace (see `search_annotations`).

    `status(n)` is ``visited``, ``pruned`` (never visited: a visited parent moved on
    without it), ``unreached`` (never visited, below a node the search did not expand)
    or ``pending`` (not visited yet, when reading only the first `step` events).
    `order[n]` lists the evaluation numbers of `n` (1 for the first leaf valued; two
    numbers reveal a double evaluation). `value[n]` is the value the node returned
    (fail-soft: max or min over its visited children), `interval[n]` what the visited
    leaves prove about its true value, and `text(n)` writes it as ``7``, ``≥6`` or ``≤2``
    (a utility vector is exact, ``("exact", "exact")``, or a lower bound on entry j,
    ``("bound", j)``, written ``(2, ≥7, 1)``).
    `window[n]` is the ``(alpha, beta)`` a standard alpha-beta would pass to `n` given
    the values known when it was entered; `current[n]` the window at each open node.
    `event` is the last event read (the `step`-th) and `at` the node it concerned.
    """

    shape_root: NodeId
    visited: set
    order: dict
    value: dict
    interval: dict
    window: dict
    current: dict
    open: list
    cut_edges: list
    chosen: NodeId | None
    step: int
    total_steps: int
    event: Any
    at: NodeId | None
    _status: dict

    def status(self, n: NodeId) -> str:
        """``visited``, ``pruned``, ``unreached`` or ``pending``."""
        return self._status.get(n, "visited" if n in self.visited else "unreached")

    def pruned(self) -> list[NodeId]:
        """Every node styled as pruned."""
        return [n for n, s in self._status.items() if s == "pruned"]

    def evaluated(self) -> list[NodeId]:
        """Nodes valued by the search, in the order of their first evaluation."""
        return sorted(self.order, key=lambda n: self.order[n][0])

    def text(self, n: NodeId) -> str:
        """The returned value as written on a figure: ``7``, ``≥6``, ``≤2`` or ``''``."""
        v = self.value.get(n)
        if v is None:
            return ""
        lo, hi = self.interval.get(n, (v, v))
        if isinstance(v, tuple):  # a bound is on one entry: (2, ≥7, 1)
            return fmt_value(v) if lo == "exact" else "(" + ", ".join(
                ("≥" if j == hi else "") + fmt_value(x) for j, x in enumerate(v)) + ")"
        if lo == hi:
            return fmt_value(v)
        if v == hi:
            return "≤" + fmt_value(v)
        if v == lo:
            return "≥" + fmt_value(v)
        return f"{fmt_value(lo)}..{fmt_value(hi)}"

    def window_text(self, n: NodeId, now: bool = False) -> str:
        """``α=6 β=∞`` for the window `n` was given (or has now, when open)."""
        w = (self.current if now else self.window).get(n)
        return "" if w is None else f"α={fmt_value(float(w[0]))} β={fmt_value(float(w[1]))}"


class _Replay:
    """Maps trace events to the ids of the tree being drawn; `_TreeReplay` and `_GameReplay` say how."""

    root: NodeId
    me: Any

    def __init__(self, game: Any, shape: TreeShape | None):
        self.game, self.shape = game, shape

    def node(self, e: Any) -> NodeId | None:
        """The id an event concerns, or None when it lies outside the drawn subtree."""
        raise NotImplementedError

    def parent(self, n: NodeId) -> NodeId | None:
        raise NotImplementedError

    def path(self, n: NodeId) -> list[NodeId]:
        """Ids from the root down to `n`."""
        raise NotImplementedError

    def kind(self, n: NodeId) -> str:
        raise NotImplementedError

    def all_children(self, n: NodeId) -> list[NodeId | None]:
        """Every child of `n`, visited or not (None for one the drawing hides)."""
        raise NotImplementedError

    def probability(self, parent: NodeId, child: NodeId) -> float:
        raise NotImplementedError

    def drawn(self, visited: set, kids: dict) -> list[NodeId]:
        """The nodes that get a status when no shape is drawn, each after its parent."""
        raise NotImplementedError

    def leaf_value(self, e: Any) -> Any:
        """The value of a utility/evaluate event from the drawing's point of view."""
        v, who = e.value, e.player
        players = getattr(self.game, "players", ())
        if who is not None and len(players) == 2 and who != self.me and not isinstance(v, tuple):
            return -v
        return v


class _TreeReplay(_Replay):
    """Ids are node names of a `GameTree`; values are MAX's, as written at the leaves."""

    def __init__(self, game: GameTree, root: NodeId, shape: TreeShape | None):
        super().__init__(game, shape)
        self.root, self.me = root, MAX

    def node(self, e: Any) -> NodeId | None:
        try:
            path = self.path(e.node)
        except ValueError:
            return None
        return e.node if path[0] == self.root else None

    def parent(self, n: NodeId) -> NodeId | None:
        return None if n == self.root else self.game.parent(n)

    def path(self, n: NodeId) -> list[NodeId]:
        out = [n]
        while out[-1] != self.root:
            p = self.game.parent(out[-1])
            if p is None:
                break
            out.append(p)
        out.reverse()
        return out

    def kind(self, n: NodeId) -> str:
        return self.game.kind(n)

    def all_children(self, n: NodeId) -> list[NodeId | None]:
        return self.game.children(n)

    def probability(self, parent: NodeId, child: NodeId) -> float:
        return self.game.probability(parent, self.game.children(parent).index(child))

    def drawn(self, visited: set, kids: dict) -> list[NodeId]:
        return self.game.subtree(self.root).nodes()

    def leaf_value(self, e: Any) -> Any:
        if e.kind == "utility" and self.game.kind(e.node) == TERMINAL:
            return self.game.value(e.node)
        return super().leaf_value(e)


class _GameReplay(_Replay):
    """Ids are tuples of actions from the root state; values are the root player's."""

    def __init__(self, game: Any, root: Any, shape: TreeShape | None):
        super().__init__(game, shape)
        self.root, self.me = (), game.to_move(root)
        self.last = {root: ()}   # the id a state was last generated as
        self.state = {(): root}

    def node(self, e: Any) -> NodeId | None:
        if e.kind == "generate":
            pid = self.last.get(e.parent)
            if pid is None:
                return None
            n = pid + (e.action,)
            self.last[e.node] = n
            self.state[n] = e.node
            return n
        return self.last.get(e.node)

    def parent(self, n: NodeId) -> NodeId | None:
        return n[:-1] if n else None

    def path(self, n: NodeId) -> list[NodeId]:
        return [n[:i] for i in range(len(n) + 1)]

    def kind(self, n: NodeId) -> str:
        if self.shape is not None and n in self.shape.kind:
            return self.shape.kind[n]
        s = self.state[n]
        return TERMINAL if self.game.is_terminal(s) else _game_kind(self.game, s, self.me)

    def all_children(self, n: NodeId) -> list[NodeId | None]:
        if self.shape is not None and self.shape.children.get(n):
            return list(self.shape.children[n]) + [None] * self.shape.more.get(n, 0)
        return [n + (a,) for a in self.game.actions(self.state[n])]

    def probability(self, parent: NodeId, child: NodeId) -> float:
        return self.game.probability(self.state[parent], child[-1])

    def drawn(self, visited: set, kids: dict) -> list[NodeId]:
        nodes = sorted(visited, key=lambda p: (len(p), str(p)))
        return nodes + [c for p in nodes if p in kids for c in self.all_children(p) if c not in visited]


def _replay(game: Any, root: Any, shape: TreeShape | None) -> _Replay:
    return _TreeReplay(game, root, shape) if isinstance(game, GameTree) else _GameReplay(game, root, shape)


def visited_ids(game: Any, trace: Any, root: Any = None) -> set:
    """The ids of the nodes `trace` visited below `root` (what `Annotations.visited` holds), without the values.

    >>> from course_lib.games import RaceTo
    >>> game = Traced(RaceTo())
    >>> _ = game.result(game.result(game.initial, 3), 1)
    >>> sorted(visited_ids(game, game.trace))
    [(), (3,), (3, 1)]
    """
    game = _plain(game)
    if root is None:
        root = first_state(game, trace)
    rp = _replay(game, root, None)
    out: set = set()
    for e in _events(trace):
        n = rp.node(e)
        if n is not None:
            out.update(rp.path(n))
    return out


def first_state(game: Any, trace: Any) -> Any:
    """The state a search started from: the first one its trace touched (the game's initial state if none)."""
    game = _plain(game)
    if isinstance(game, GameTree):
        return game.initial
    for e in _events(trace):
        return e.parent if e.kind == "generate" else e.node
    return game.initial


def _events(trace: Any) -> list:
    return trace.events() if hasattr(trace, "events") else list(trace)


def search_annotations(game: Any, trace: Any, *, root: Any = None, step: int | None = None,
                       shape: TreeShape | None = None) -> Annotations:
    """Replay `trace` (or its first `step` events) over `game` from `root`: see `Annotations`.

    `game` is a `GameTree` (ids are node names, values as written at the leaves, that
    is MAX's) or any game (ids are action tuples from `root`, values from the point of
    view of the player to move at `root`). Events outside the subtree of `root` are
    ignored. Pass the `shape` being drawn so that hidden children count as unvisited.
    """
    game = _plain(game)
    if root is None:
        root = first_state(game, trace)
    events = _events(trace)
    total = len(events)
    step = total if step is None else max(0, min(step, total))
    rp = _replay(game, root, shape)

    visited: set = set()
    kids: dict = {}          # visited children in visit order
    closed: set = set()
    order: dict = {}
    leafval: dict = {}
    window: dict = {}
    stack: list = []
    count = 0
    value: dict = {}
    interval: dict = {}

    def finish(n: NodeId) -> None:
        closed.add(n)
        v, iv = _combine(rp, n, kids.get(n, []), leafval, value, interval, closed)
        if v is not None:
            value[n], interval[n] = v, iv

    def enter(n: NodeId) -> None:
        path = rp.path(n)
        while stack and stack[-1] not in path:
            finish(stack.pop())
        for m in path[len(stack):]:
            if m not in visited:
                visited.add(m)
                p = rp.parent(m)
                if p is not None:
                    kids.setdefault(p, []).append(m)
            closed.discard(m)
            window[m] = _window(rp, stack, value, kids, interval, closed)
            stack.append(m)

    event = at = None
    for e in events[:step]:
        n = rp.node(e)
        if n is None:
            continue
        event, at = e, n
        enter(n)
        if e.kind in ("utility", "evaluate"):
            count += 1
            order.setdefault(n, []).append(count)
            leafval[n] = rp.leaf_value(e)
            if rp.kind(n) == TERMINAL:  # a leaf is finished once valued
                finish(stack.pop())
    still_open = list(stack)
    if step == total:
        while stack:
            finish(stack.pop())
        still_open = []
    else:
        for n in reversed(stack):  # values known so far at open nodes
            v, iv = _combine(rp, n, kids.get(n, []), leafval, value, interval, closed, partial=True)
            if v is not None:
                value[n], interval[n] = v, iv
    current = {}
    for i, n in enumerate(still_open):
        current[n] = _window(rp, still_open[:i + 1], value, kids, interval, closed)

    status, cuts = _statuses(rp, shape, visited, kids, closed, step == total)
    chosen = _chosen(rp, kids.get(rp.root, []), value, interval) if step == total else None
    return Annotations(rp.root, visited, order, value, interval, window, current, still_open, cuts,
                       chosen, step, total, event, at, status)


def _combine(rp: _Replay, n: NodeId, visited_kids: Sequence, leafval: dict, value: dict, interval: dict,
             closed: set, partial: bool = False) -> tuple[Any, Any]:
    """The returned value of `n` and the interval its visited leaves prove."""
    known = [c for c in visited_kids if c in value and (c in closed or not partial)]
    if not known:
        if n in leafval:
            v = leafval[n]
            return v, ("exact", "exact") if isinstance(v, tuple) else (v, v)
        return None, None
    kind = rp.kind(n)
    everyone = rp.all_children(n)
    if kind == CHANCE:
        if len(known) < len(everyone):
            return None, None
        probs = [rp.probability(n, c) for c in known]
        v = sum(p * value[c] for p, c in zip(probs, known))
        lo = sum(p * interval[c][0] for p, c in zip(probs, known))
        hi = sum(p * interval[c][1] for p, c in zip(probs, known))
        return v, (lo, hi)
    vals = [value[c] for c in known]
    if isinstance(vals[0], tuple):
        i = int(kind[1:]) - 1 if kind.startswith("P") and kind[1:].isdigit() else 0
        best = max(range(len(vals)), key=lambda j: (vals[j][i], -j))
        # A node that stopped before its last child proves only a lower bound on its own player's
        # entry; one that saw every child is exact when the child it keeps is (a child cut short is
        # kept only when nothing better came, and then its bound is the node's).
        if len(known) < len(everyone):
            return vals[best], ("bound", i)
        return vals[best], interval[known[best]]
    unknown = [(-INF, INF)] * (len(everyone) - len(known))
    ivs = [interval[c] for c in known] + unknown
    if kind == MIN:
        return min(vals), (min(lo for lo, _ in ivs), min(hi for _, hi in ivs))
    return max(vals), (max(lo for lo, _ in ivs), max(hi for _, hi in ivs))


def _window(rp: _Replay, stack: Sequence, value: dict, kids: dict, interval: dict, closed: set) -> tuple:
    """(alpha, beta) implied by the values known so far at the open nodes of `stack`."""
    alpha, beta = -INF, INF
    for a in stack:
        kind = rp.kind(a)
        if kind == CHANCE:
            alpha, beta = -INF, INF
            continue
        done = [value[c] for c in kids.get(a, []) if c in closed and c in value and not isinstance(value[c], tuple)]
        if not done:
            continue
        if kind == MAX:
            alpha = max(alpha, max(done))
        elif kind == MIN:
            beta = min(beta, min(done))
    return alpha, beta


def _statuses(rp: _Replay, shape: TreeShape | None, visited: set, kids: dict, closed: set,
              finished: bool) -> tuple[dict, list]:
    """Status of every drawn node and the cut edges (visited parent, pruned child)."""
    status: dict = {}
    cuts: list = []
    for n in shape.nodes() if shape is not None else rp.drawn(visited, kids):
        if n in visited:
            status[n] = "visited"
            continue
        p = rp.parent(n)
        ps = status.get(p)
        if ps == "visited":
            if kids.get(p) and (finished or p in closed):
                status[n] = "pruned"
                cuts.append((p, n))
            else:
                status[n] = "unreached" if finished or p in closed else "pending"
        else:
            status[n] = ps or ("pending" if not finished else "unreached")
    return status, cuts


def _chosen(rp: _Replay, root_kids: Sequence, value: dict, interval: dict) -> NodeId | None:
    """The first child (in visit order) whose exact value equals the root's value."""
    v = value.get(rp.root)
    if v is None or rp.kind(rp.root) in (CHANCE, TERMINAL):
        return None
    exact = [c for c in root_kids if value.get(c) == v and interval[c][0] == interval[c][1] != "bound"]
    equal = [c for c in root_kids if value.get(c) == v]
    return (exact or equal or [None])[0]
