"""Reference searches for lab 04 (move ordering, transposition tables, iterative deepening).

Grader-only. They follow the course's conventions: values from the root player's view,
fail-soft alpha-beta that prunes on equality, the first best action in the order the
root's children are searched. Evaluation functions are called ``evaluate(state, player)``
with the root player, at depth 0 on non-terminal states only.
"""

from __future__ import annotations

import math
from typing import Any, Callable

EXACT, LOWER, UPPER = "exact", "lower", "upper"
FLAGS = (EXACT, LOWER, UPPER)


def minimal_leaves(branching: int, depth: int) -> int:
    """Leaves of the Knuth-Moore minimal tree: b^ceil(d/2) + b^floor(d/2) - 1."""
    return branching ** ((depth + 1) // 2) + branching ** (depth // 2) - 1


def _ordered(game: Any, state: Any, key: Callable[[Any, Any], Any] | None) -> list:
    actions = game.actions(state)
    return actions if key is None else sorted(actions, key=lambda a: key(state, a))


def _alphabeta(game: Any, state: Any, alpha: float, beta: float, player: Any, depth: float,
               evaluate: Callable | None, key: Callable | None) -> float:
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        return evaluate(state, player)
    if game.to_move(state) == player:
        v = -math.inf
        for a in _ordered(game, state, key):
            v = max(v, _alphabeta(game, game.result(state, a), alpha, beta, player, depth - 1, evaluate, key))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = math.inf
    for a in _ordered(game, state, key):
        v = min(v, _alphabeta(game, game.result(state, a), alpha, beta, player, depth - 1, evaluate, key))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def ordered_alphabeta_value(game: Any, state: Any, key: Callable[[Any, Any], Any]) -> float:
    """Alpha-beta with each node's children searched in order of ``key(state, action)`` (stable)."""
    return _alphabeta(game, state, -math.inf, math.inf, game.to_move(state), math.inf, None, key)


def depth_limited_alphabeta(game: Any, state: Any, depth: float = math.inf,
                            evaluate: Callable | None = None) -> float:
    """Plain depth-limited alpha-beta (what a transposition-table search does on a tree)."""
    return _alphabeta(game, state, -math.inf, math.inf, game.to_move(state), depth, evaluate, None)


def iterative_deepening_decision(game: Any, state: Any, max_depth: int, evaluate: Callable) -> Any:
    """Depths 1..max_depth; each searches the previous depth's best root action first."""
    player = game.to_move(state)
    best = None
    for depth in range(1, max_depth + 1):
        actions = game.actions(state)
        if best is not None:
            actions = [best] + [a for a in actions if a != best]
        alpha, choice = -math.inf, None
        for a in actions:
            v = _alphabeta(game, game.result(state, a), alpha, math.inf, player, depth - 1, evaluate, None)
            if choice is None or v > alpha:
                choice, alpha = a, v
        best = choice
    return best


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
