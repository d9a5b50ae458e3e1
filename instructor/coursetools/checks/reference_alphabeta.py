"""Grader-only alpha-beta searches for lab 03: the reference, and the same search with
the classic mistakes switched on one by one (the "models").

The models serve two purposes. Each hidden test group grades one rule; when a
submission breaks rules graded elsewhere (its "profile"), a group compares it with the
model that makes those other mistakes too, so one mistake costs points once. And they
name the mistake in a failure's hint. With every flag at its default a model is the
reference search of the course's conventions: values from the root player's view, fail-soft, pruning
on equality, children in actions() order, the first best action.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

INF = math.inf

BOUNDS = ("pass", "stale", "reset", "none")


@dataclass(frozen=True)
class Flags:
    """One way to write alpha-beta; the defaults are the course's conventions."""

    strict: bool = False        # prune only when v > beta (MAX) / v < alpha (MIN)
    bounds: str = "pass"        # pass: updated bounds go down; stale: the bounds a node was given go down
                                # unchanged; reset: MAX gives (alpha, +inf), MIN (-inf, beta); none: never prunes
    fail_hard: bool = False     # return alpha/beta instead of the value found (fail-hard)
    window: str = "use"         # use: start from the caller's (alpha, beta); ignore: always (-inf, +inf)
    perspective: str = "root"   # root: the player to move at `state`; initial: the player to move in
                                # game.initial; first: game.players[0]
    order: str = "actions"      # actions: actions() order; reversed: right to left
    eager: bool = False         # generate every child before searching the first
    recompute: bool = False     # search a child again when it improves v (``if f(c) > v: v = f(c)``)
    returns: str = "value"      # value, or move: alphabeta_value returns its best root action
    # alphabeta_decision only
    root_alpha: bool = True     # the decision passes the best value so far as alpha to the next child
    tie: str = "first"          # first or last best action
    early_return: bool = False  # the decision returns inside its loop (after the first action)
    decision_returns: str = "move"  # move, or value: alphabeta_decision returns the value
    root_order: str = "actions"  # the order of the decision's own loop over the root moves

    def changed(self) -> dict[str, Any]:
        """The flags that differ from the conventions."""
        base = Flags()
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)}

    def fixed(self, *names: str) -> "Flags":
        """The same flags with `names` put back to the conventions."""
        base = Flags()
        return replace(self, **{n: getattr(base, n) for n in names})


CORRECT = Flags()


def _player(game: Any, state: Any, flags: Flags) -> Any:
    if flags.perspective == "first":
        return game.players[0]
    if flags.perspective == "initial":
        return game.to_move(game.initial)
    return game.to_move(state)


def _children(game: Any, state: Any, flags: Flags, order: str | None = None) -> Any:
    acts = list(game.actions(state))
    if (order or flags.order) == "reversed":
        acts.reverse()
    if flags.eager:
        kids = [(a, game.result(state, a)) for a in acts]
        yield from kids
    else:
        for a in acts:
            yield a, game.result(state, a)


def _search(game: Any, state: Any, alpha: float, beta: float, player: Any, flags: Flags) -> Any:
    if game.is_terminal(state):
        return game.utility(state, player)
    maxing = game.to_move(state) == player
    v = -INF if maxing else INF
    lo, hi = alpha, beta
    for _, child in _children(game, state, flags):
        if flags.bounds == "pass":
            ca, cb = lo, hi
        elif flags.bounds == "stale":
            ca, cb = alpha, beta
        elif flags.bounds == "reset":
            ca, cb = (lo, INF) if maxing else (-INF, hi)
        else:
            ca, cb = -INF, INF
        w = _search(game, child, ca, cb, player, flags)
        if flags.recompute and ((maxing and w > v) or (not maxing and w < v)):
            w = _search(game, child, ca, cb, player, flags)
        if maxing:
            v = max(v, w)
            if flags.bounds != "none":
                if (v > hi) if flags.strict else (v >= hi):
                    return hi if flags.fail_hard else v
                lo = max(lo, v)
        else:
            v = min(v, w)
            if flags.bounds != "none":
                if (v < lo) if flags.strict else (v <= lo):
                    return lo if flags.fail_hard else v
                hi = min(hi, v)
    if flags.fail_hard and flags.bounds != "none":
        return lo if maxing else hi
    return v


def value(game: Any, state: Any, alpha: float = -INF, beta: float = INF, flags: Flags = CORRECT) -> Any:
    """What ``alphabeta_value(game, state, alpha, beta)`` written with `flags` returns (and does)."""
    if flags.window == "ignore":
        alpha, beta = -INF, INF
    player = _player(game, state, flags)
    if flags.returns == "move":
        return _best(game, state, player, flags, alpha, beta, root_alpha=True, tie="first", early=False)[0]
    return _search(game, state, alpha, beta, player, flags)


def decision(game: Any, state: Any, flags: Flags = CORRECT) -> Any:
    """What ``alphabeta_decision(game, state)`` written with `flags` returns (and does)."""
    player = _player(game, state, flags)
    move, v = _best(game, state, player, flags, -INF, INF, flags.root_alpha, flags.tie, flags.early_return)
    return v if flags.decision_returns == "value" else move


def _best(game: Any, state: Any, player: Any, flags: Flags, alpha: float, beta: float,
          root_alpha: bool, tie: str, early: bool) -> tuple[Any, Any]:
    best, best_v = None, -INF
    if game.is_terminal(state):  # no move to choose; nothing evaluated
        return None, None
    lo = alpha
    for a, child in _children(game, state, flags, flags.root_order):
        w = _search(game, child, lo if root_alpha else alpha, beta, player, flags)
        if best is None or (w >= best_v if tie == "last" else w > best_v):
            best, best_v = a, w
        if w >= beta:
            break
        lo = max(lo, w)
        if early:
            break
    return best, best_v


def minimax(game: Any, state: Any) -> Any:
    """Plain minimax from the view of the player to move at `state` (no pruning)."""
    return value(game, state, flags=Flags(bounds="none"))


# -- how flags are found from what a submission did ----------------------------------------

#: Which flag values are tried when looking for a submission's profile, simplest first.
SEARCHED = {
    "strict": (False, True),
    "bounds": BOUNDS,
    "fail_hard": (False, True),
    "window": ("use", "ignore"),
    "perspective": ("root", "initial", "first"),
}


def candidates(structure: Flags) -> list[Flags]:
    """Every combination of the searched flags on top of `structure`, fewest mistakes first."""
    combos = [structure]
    for name, options in SEARCHED.items():
        combos = [replace(c, **{name: o}) for c in combos for o in options]
    return sorted(combos, key=lambda c: len(c.changed()))

