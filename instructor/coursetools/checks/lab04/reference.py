"""Lab 04's models (grader only): move ordering, transposition tables, iterative deepening with
a clock, and the mistake models that name a student's mistake when they reproduce what the
student's search did (`kit.Mistake`).

They follow the course's conventions: values from the root player's view, fail-soft alpha-beta
that prunes on equality, the first best action in the order the root's children are searched.
Evaluation functions are called ``evaluate(state, player)`` with the root player, at depth 0 on
non-terminal states only. A search with a clock asks ``clock.expired()`` before every call of
``game.result``; once it says yes, the depth being searched is thrown away and the best action of
the last finished depth is returned (the first action in actions() order if no depth finished).
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any, Callable

from course_lib.clock import NodeBudget

from ..kit import Mistake

EXACT, LOWER, UPPER = "exact", "lower", "upper"
FLAGS = (EXACT, LOWER, UPPER)


def minimal_leaves(branching: int, depth: int) -> int:
    """Leaves of the Knuth-Moore minimal tree: b^ceil(d/2) + b^floor(d/2) - 1."""
    return branching ** ((depth + 1) // 2) + branching ** (depth // 2) - 1


def _ordered(game: Any, state: Any, key: Callable[[Any, Any], Any] | None, sort: str = "stable") -> list:
    actions = game.actions(state)
    if key is None:
        return actions
    if sort == "pairs":  # sorting (key, action) pairs: ties broken by the actions themselves
        return [a for _, a in sorted((key(state, a), a) for a in actions)]
    return sorted(actions, key=lambda a: key(state, a))


class _Stop(Exception):
    """The clock expired: the depth being searched is thrown away."""


def _result(game: Any, state: Any, action: Any, clock: Any) -> Any:
    """``game.result``, after asking the clock (never when there is none)."""
    if clock is not None and clock.expired():
        raise _Stop
    return game.result(state, action)


def _alphabeta(game: Any, state: Any, alpha: float, beta: float, player: Any, depth: float,
               evaluate: Callable | None, key: Callable | None, sort: str = "stable", greedy: bool = False,
               clock: Any = None) -> float:
    """Fail-soft alpha-beta; `sort="pairs"` and `greedy` (stop at the first child no better than the one
    before) are mistake models; `clock` is asked before every ``result``."""
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        return evaluate(state, player)
    maxing = game.to_move(state) == player
    v = -math.inf if maxing else math.inf
    for a in _ordered(game, state, key, sort):
        w = _alphabeta(game, _result(game, state, a, clock), alpha, beta, player, depth - 1, evaluate, key, sort,
                       greedy, clock)
        if greedy and (w <= v if maxing else w >= v):
            break
        if maxing:
            v = max(v, w)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, w)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v


def ordered_alphabeta_value(game: Any, state: Any, key: Callable[[Any, Any], Any], sort: str = "stable",
                            greedy: bool = False) -> float:
    """Alpha-beta with each node's children searched in order of ``key(state, action)`` (stable)."""
    return _alphabeta(game, state, -math.inf, math.inf, game.to_move(state), math.inf, None, key, sort, greedy)


def depth_limited_alphabeta(game: Any, state: Any, depth: float = math.inf,
                            evaluate: Callable | None = None) -> float:
    """Plain depth-limited alpha-beta (what a transposition-table search does on a tree)."""
    return _alphabeta(game, state, -math.inf, math.inf, game.to_move(state), depth, evaluate, None)


def iterative_deepening_decision(game: Any, state: Any, max_depth: int, evaluate: Callable, clock: Any = None,
                                 remember: bool = True, extra: int = 0, keep: str = "finished") -> Any:
    """Depths 1..max_depth; each searches the previous depth's best root action first, and asks `clock`
    before every ``result``. Mistake models: `remember=False` (every depth in actions() order), `extra=1`
    (depth d searches the root's children d plies deep), `keep="unfinished"` (the move of a depth the clock
    cut short), `clock` left out by the caller for a search that never consults it."""
    player = game.to_move(state)
    best = None
    choice = None
    try:
        for depth in range(1, max_depth + 1):
            actions = game.actions(state)
            if best is not None and remember:
                actions = [best] + [a for a in actions if a != best]
            alpha, choice = -math.inf, None
            for a in actions:
                child = _result(game, state, a, clock)
                v = _alphabeta(game, child, alpha, math.inf, player, depth - 1 + extra, evaluate, None, clock=clock)
                if choice is None or v > alpha:
                    choice, alpha = a, v
            best, choice = choice, None
    except _Stop:
        if keep == "unfinished" and choice is not None:
            return choice
    if best is None:
        actions = game.actions(state)
        return actions[0] if actions else None
    return best


class AskedBudget(NodeBudget):
    """A `NodeBudget` that writes down, each time it is asked, how many states had been generated then."""

    def __init__(self, nodes: int):
        super().__init__(nodes)
        self.asked: list[int] = []

    def expired(self) -> bool:
        self.asked.append(self.used)
        return super().expired()


def budgeted(model: Callable[..., Any]) -> Callable[..., Any]:
    """`model` as the clock group calls it: ``fn(game, state, max_depth, evaluate, nodes)`` with the
    evaluation traced and a `NodeBudget(nodes)` watching the game (`nodes=None`: no clock); the last clock
    made is kept as ``fn.clock`` (what it was asked, and when)."""

    def run(game: Any, state: Any, max_depth: int, evaluate: Callable, nodes: int | None = None) -> Any:
        ev = game.evaluator(evaluate) if hasattr(game, "evaluator") else evaluate
        if nodes is None:
            return model(game, state, max_depth, ev)
        clock = run.clock = AskedBudget(nodes)
        clock.watch(game)
        return model(game, state, max_depth, ev, clock)

    run.clock = None

    run.__name__ = getattr(model, "__name__", "model")
    return run


def ignores_clock(game: Any, state: Any, max_depth: int, evaluate: Callable, clock: Any = None, **flags: Any) -> Any:
    """Iterative deepening that never asks its clock."""
    return iterative_deepening_decision(game, state, max_depth, evaluate, **flags)


ID_HINTS = {
    "id_forgets_best": "every depth searched the root's actions in actions() order: the previous depth's best "
                       "action was not searched first. Keep the best action of each depth and put it first at the "
                       "next depth, then the others in actions() order",
    "id_off_by_one": "each depth d searched the root's children d plies deep (one ply too many). Depth d looks d "
                     "plies ahead in all: the root's move, then d - 1 plies below each child",
}
CLOCK_HINTS = {
    "clock_unfinished_depth": "your search returned the best move of the depth the clock cut short. A depth "
                              "that did not finish has compared only some of the root's moves, so its best move "
                              "may be a poor one: throw it away and return the best move of the last depth that "
                              "finished",
    "clock_ignored": "your search never consulted the clock: it searched every depth up to max_depth. Ask "
                     "clock.expired() before every call of game.result, and stop when it says yes",
}


def id_model(**flags: Any) -> Callable[..., Any]:
    """Iterative deepening written with `flags`, as the groups call it (see `budgeted`)."""
    return budgeted(partial(iterative_deepening_decision, **flags))


ID_MISTAKES = [Mistake(k, ID_HINTS[k], id_model(**f)) for k, f in
               (("id_forgets_best", {"remember": False}), ("id_off_by_one", {"extra": 1}))]
#: The ways of writing iterative deepening that the clock group recognises (its profile), before the clock.
ID_PROFILES = [{}, {"remember": False}, {"extra": 1}, {"remember": False, "extra": 1}]


def clock_mistakes(**flags: Any) -> list[Mistake]:
    """The clock's mistakes, made on top of a search written with `flags` (one of `ID_PROFILES`)."""
    return [Mistake("clock_unfinished_depth", CLOCK_HINTS["clock_unfinished_depth"], id_model(keep="unfinished", **flags)),
            Mistake("clock_ignored", CLOCK_HINTS["clock_ignored"], budgeted(partial(ignores_clock, **flags)))]


CLOCK_MISTAKES = clock_mistakes()

ORDER_HINTS = {
    "unstable_sort": "ties were broken by comparing the actions themselves (sorting (key, action) pairs, or a "
                     "sort that is not stable). Search the children in the order sorted(actions, key=lambda a: "
                     "key(state, a)): smaller keys first, ties in their actions() order",
    "order_changes_value": "your search stopped at the first child no better than the one before, as if the "
                           "order were already best first. But the order must not change the value: search every "
                           "child alpha-beta would, and prune only when v >= beta (MAX) or v <= alpha (MIN)",
}
ORDER_MISTAKES = [Mistake("unstable_sort", ORDER_HINTS["unstable_sort"], partial(ordered_alphabeta_value, sort="pairs")),
                  Mistake("order_changes_value", ORDER_HINTS["order_changes_value"],
                          partial(ordered_alphabeta_value, greedy=True))]


def plain_deepening_leaves(game: Any, state: Any, max_depth: int, evaluate: Callable) -> list[int]:
    """Leaves per depth of plain depth-limited alpha-beta decisions (no reordering), for messages."""
    from course_lib.trace import Traced

    counts = []
    for depth in range(1, max_depth + 1):
        g = Traced(game, keep_events=False)
        ev = g.evaluator(evaluate)
        player = g.to_move(state)
        alpha, choice = -math.inf, None
        for a in g.actions(state):
            v = _alphabeta(g, g.result(state, a), alpha, math.inf, player, depth - 1, ev, None)
            if choice is None or v > alpha:
                choice, alpha = a, v
        counts.append(g.trace.count("utility") + g.trace.count("evaluate"))
    return counts


class Solver:
    """Exact and depth-limited minimax values of a game's states, memoised (grader-only).

    `value(state, player, depth)` is the minimax value of `state` for `player` when the
    search stops `depth` plies below it (math.inf: at the end of the game).
    """

    def __init__(self, game: Any, evaluate: Callable | None = None):
        self.game, self.evaluate = game, evaluate
        self._memo: dict = {}

    def _mover_value(self, state: Any, depth: float) -> float:
        """Value for the player to move in `state` (two-player, zero-sum)."""
        k = (state, depth)
        v = self._memo.get(k)
        if v is None:
            g = self.game
            if g.is_terminal(state):
                v = g.utility(state, g.to_move(state))
            elif depth == 0:
                v = self.evaluate(state, g.to_move(state))
            else:
                me = g.to_move(state)
                vals = []
                for a in g.actions(state):
                    child = g.result(state, a)
                    cv = self._mover_value(child, depth - 1)
                    vals.append(cv if g.to_move(child) == me else -cv)
                v = max(vals)
            self._memo[k] = v
        return v

    def value(self, state: Any, player: Any, depth: float = math.inf) -> float:
        if self.game.is_terminal(state):
            depth = math.inf
        v = self._mover_value(state, depth)
        return v if self.game.to_move(state) == player else -v


def tree_value(tree: Any, node: str, player: str, depth: float = math.inf,
               evaluate: Callable | None = None) -> float:
    """Depth-limited minimax value of a `GameTree` node for `player` (MAX or MIN)."""
    if tree.is_terminal(node):
        return tree.utility(node, player)
    if depth == 0:
        return evaluate(node, player)
    vals = [tree_value(tree, c, player, depth - 1, evaluate) for c in tree.children(node)]
    return max(vals) if tree.to_move(node) == player else min(vals)


# -- perfect ordering -------------------------------------------------------------------------------

def perfect_ordering(tree: Any, rule: str = "minimax") -> Any:
    """The tree with each node's children sorted best first (stable). Mistake models: `rule="max_everywhere"`
    (largest first at MIN nodes too), `rule="first_leaf"` (children sorted by their first leaf's value)."""
    from course_lib.games import GameTree

    def first_leaf(node: str) -> float:
        """The value of the first leaf below `node` in the given tree's order."""
        while not tree.is_terminal(node):
            node = tree.children(node)[0]
        return tree.value(node)

    def build(node: str) -> tuple[Any, float, float]:
        """(nested spec, minimax value, sort key) of the subtree below `node`."""
        if tree.is_terminal(node):
            return tree.value(node), tree.value(node), tree.value(node)
        built = [build(c) for c in tree.children(node)]
        largest = tree.kind(node) == "MAX" or rule == "max_everywhere"
        built.sort(key=lambda b: -b[2] if largest else b[2])
        value = (max if tree.kind(node) == "MAX" else min)(b[1] for b in built)
        return [b[0] for b in built], value, first_leaf(node) if rule == "first_leaf" else value

    return GameTree.from_nested(build(tree.initial)[0], root=tree.kind(tree.initial))


def ordered_spec(tree: Any, node: Any = None) -> Any:
    """A tree as nested lists of leaf values, children in their order (equal for the same ordered tree)."""
    node = tree.initial if node is None else node
    if tree.is_terminal(node):
        return tree.value(node)
    return [tree.kind(node), [ordered_spec(tree, c) for c in tree.children(node)]]


PERFECT_MISTAKES = [
    Mistake("perfect_max_everywhere", "your tree puts the largest child first at every node, MIN nodes included. "
                                      "Order the children by their minimax value, largest first at MAX, smallest "
                                      "first at MIN",
            partial(perfect_ordering, rule="max_everywhere")),
    Mistake("perfect_first_leaf", "your tree sorts the children by the value of their first leaf. Sort them by "
                                  "their minimax value (the value of the whole subtree): largest first at MAX, "
                                  "smallest first at MIN",
            partial(perfect_ordering, rule="first_leaf")),
]

#: Each mistake written as a student hands it in (the graded function's own signature), for the check tests.
AS_ANSWER = {
    "id_forgets_best": partial(iterative_deepening_decision, remember=False),
    "id_off_by_one": partial(iterative_deepening_decision, extra=1),
    "clock_unfinished_depth": partial(iterative_deepening_decision, keep="unfinished"),
    "clock_ignored": ignores_clock,
    **{m.key: m.model for m in ORDER_MISTAKES + PERFECT_MISTAKES},
}


# -- the table search, written down visit by visit ------------------------------------------------------

def tt_visits(game: Any, state: Any, table: dict, depth: float = math.inf, evaluate: Callable | None = None,
              read: str = "bounds", truth: Callable[[Any, float], Any] | None = None) -> tuple[Any, list]:
    """The course's alpha-beta with a transposition table (the lab's solution: look up first, then the terminal
    test, then depth 0; flags from the window the state was entered with), run on `table` (changed in place), with
    a `course_lib.explain.Visit` per state entered: (value, visits). `read="narrow"` is the other correct way of
    reading a bound (it narrows the window and answers when alpha >= beta); `read="exact"` uses EXACT entries only.
    `truth(state, depth)`, when given, writes each stored state's minimax value into its visit."""
    from course_lib.explain import Visit, rule_flag

    player = game.to_move(state)
    visits: list = []
    steps = [0]

    def value(s: Any, alpha: float, beta: float, d: float) -> Any:
        maxing = game.to_move(s) == player
        vis = Visit(s, game.kind(s) if hasattr(game, "kind") and hasattr(game, "children") else
                    "MAX" if maxing else "MIN", alpha, beta, d, table.get(s), at=steps[0])
        visits.append(vis)
        entry = vis.entry
        if entry is not None and entry[2] >= d:
            v, flag, _ = entry
            if read == "narrow" and flag != EXACT:
                a2, b2 = (max(alpha, v), beta) if flag == LOWER else (alpha, min(beta, v))
                if a2 >= b2:
                    vis.answered, vis.value, vis.left = True, v, steps[0]
                    return v
                alpha, beta = a2, b2
            elif flag == EXACT or read == "bounds" and (flag == LOWER and v >= beta or flag == UPPER and v <= alpha):
                vis.answered, vis.value, vis.left = True, v, steps[0]
                return v
        if game.is_terminal(s):
            steps[0] += 1
            v = game.utility(s, player)
            vis.terminal = True
            return _store(vis, v, (v, EXACT, math.inf))
        if d == 0:
            steps[0] += 1
            v = evaluate(s, player)
            return _store(vis, v, (v, EXACT, 0))
        v = -math.inf if maxing else math.inf
        for a in game.actions(s):
            steps[0] += 1
            w = value(game.result(s, a), alpha, beta, d - 1)
            if maxing:
                v = max(v, w)
                if v >= beta:
                    break
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    break
                beta = min(beta, v)
        return _store(vis, v, (v, rule_flag(v, vis.alpha, vis.beta), d))

    def _store(vis: Any, v: Any, entry: tuple) -> Any:
        vis.value, vis.left = v, steps[0]
        if truth is not None:
            vis.true = truth(vis.node, math.inf if vis.terminal else vis.depth)
        if read != "exact" or entry[1] == EXACT:
            vis.stored = table[vis.node] = entry
        return v

    return value(state, -math.inf, math.inf, depth), visits


#: The correct ways of reading a table the explainer compares a search with (the lab's own first).
TT_READS = ("bounds", "narrow", "exact")
