"""Lab 03's models (grader only): alpha-beta and its decision written with `Flags`, one flag per
classic mistake, and each test group's mistakes as `kit.Mistake`s.

With every flag at its default a model is the reference search of the course's conventions:
values from the root player's view, fail-soft, pruning on equality, children in actions() order,
the first best action. The models serve two purposes. Each hidden test group grades one rule;
when a submission breaks rules graded elsewhere (its "profile", `profile.py`), a group compares
it with the model that makes those other mistakes too, so one mistake costs points once. And a
model switched on for one of the group's own mistakes names that mistake in a hint, once
`kit.explain` has seen it reproduce what the submission did.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from functools import partial
from itertools import combinations
from typing import Any

from ..kit import Mistake

INF = math.inf

BOUNDS = ("pass", "stale", "reset", "none", "fresh")


@dataclass(frozen=True)
class Flags:
    """One way to write alpha-beta; the defaults are the course's conventions."""

    strict: bool = False        # prune only when v > beta (MAX) / v < alpha (MIN)
    bounds: str = "pass"        # pass: updated bounds go down; stale: the bounds a node was given go down
                                # unchanged; reset: MAX gives (alpha, +inf), MIN (-inf, beta); none: never prunes;
                                # fresh: each child gets (-inf, +inf), a node still cuts on its own window
    fail_hard: bool = False     # return alpha/beta instead of the value found (fail-hard)
    hard: str = "both"          # where fail_hard returns alpha/beta: both, cut (on a cut-off only) or end (only
                                # after the last child)
    v_window: bool = False      # v starts at alpha (MAX) / beta (MIN) instead of -inf / +inf
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


@dataclass(frozen=True)
class Return:
    """A node's return in a model's search: the node, MAX or not, the window it was given, its last child searched
    and that child's value, v, how it ended ('cut' or 'end') and what it returned."""

    node: Any
    maxing: bool
    alpha: float
    beta: float
    child: Any
    w: Any
    v: Any
    how: str
    value: Any


def search_value(game: Any, state: Any, alpha: float, beta: float, player: Any, flags: Flags,
                 log: list[Return] | None = None) -> Any:
    """The value of `state` for `player` by the model with `flags`, searched within (alpha, beta); with `log`,
    each internal node's return is appended to it, in the order the nodes return."""
    if game.is_terminal(state):
        return game.utility(state, player)
    maxing = game.to_move(state) == player
    lo, hi = alpha, beta
    v = (lo if maxing else hi) if flags.v_window else (-INF if maxing else INF)
    child, w = None, None

    def done(how: str, out: Any) -> Any:
        if log is not None:
            log.append(Return(state, maxing, alpha, beta, child, w, v, how, out))
        return out

    for _, child in _children(game, state, flags):
        if flags.bounds == "pass":
            ca, cb = lo, hi
        elif flags.bounds == "stale":
            ca, cb = alpha, beta
        elif flags.bounds == "reset":
            ca, cb = (lo, INF) if maxing else (-INF, hi)
        else:  # none, fresh
            ca, cb = -INF, INF
        w = search_value(game, child, ca, cb, player, flags, log)
        if flags.recompute and ((maxing and w > v) or (not maxing and w < v)):
            w = search_value(game, child, ca, cb, player, flags)
        if maxing:
            v = max(v, w)
            if flags.bounds != "none":
                if (v > hi) if flags.strict else (v >= hi):
                    return done("cut", hi if flags.fail_hard and flags.hard != "end" else v)
                lo = max(lo, v)
        else:
            v = min(v, w)
            if flags.bounds != "none":
                if (v < lo) if flags.strict else (v <= lo):
                    return done("cut", lo if flags.fail_hard and flags.hard != "end" else v)
                hi = min(hi, v)
    if flags.fail_hard and flags.hard != "cut" and flags.bounds != "none":
        return done("end", lo if maxing else hi)
    return done("end", v)


def value(game: Any, state: Any, alpha: float = -INF, beta: float = INF, flags: Flags = CORRECT) -> Any:
    """What ``alphabeta_value(game, state, alpha, beta)`` written with `flags` returns (and does)."""
    if flags.window == "ignore":
        alpha, beta = -INF, INF
    player = _player(game, state, flags)
    if flags.returns == "move":
        return _best(game, state, player, flags, alpha, beta, root_alpha=True, tie="first", early=False)[0]
    return search_value(game, state, alpha, beta, player, flags)


def returns(game: Any, state: Any, alpha: float = -INF, beta: float = INF, flags: Flags = CORRECT) -> list[Return]:
    """Each internal node's return in ``alphabeta_value(game, state, alpha, beta)`` written with `flags`, in the
    order the nodes return."""
    if flags.window == "ignore":
        alpha, beta = -INF, INF
    log: list[Return] = []
    search_value(game, state, alpha, beta, _player(game, state, flags), flags, log)
    return log


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
        w = search_value(game, child, lo if root_alpha else alpha, beta, player, flags)
        if best is None or (w >= best_v if tie == "last" else w > best_v):
            best, best_v = a, w
        if w >= beta:
            break
        lo = max(lo, w)
        if early:
            break
    return best, best_v


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



# -- the mistakes each test group grades -------------------------------------------------------

#: What each mistake is called in a hint, and what to do about it.
HINTS = {
    "strict": "strict pruning instead of pruning on equality. The course prunes on a tie: at a MAX node stop "
              "as soon as v >= beta, at a MIN node as soon as v <= alpha (not only when v > beta or v < alpha).",
    "bounds:stale": "the updated alpha/beta are not passed down. After each child, a MAX node raises alpha "
                    "(a MIN node lowers beta) and the NEXT child must be searched with the new bounds.",
    "bounds:none": "your alpha-beta never prunes: it visits every node, like minimax. Compare v with beta "
                   "(at MAX) or alpha (at MIN) after each child and return as soon as the cut condition holds.",
    "bounds:fresh": "each child is searched with a fresh window (-inf, +inf): a node tests its own alpha and beta, "
                    "but passes them on to none of its children, so nothing below the root is pruned. Search each "
                    "child with the node's current (alpha, beta).",
    "bounds:reset": "the bounds are reset at each level. A node must pass on BOTH bounds it received (updated), "
                    "not (alpha, +inf) or (-inf, beta): a bound set by a grandparent or higher still cuts "
                    "(a deep cut-off).",
    "fail_hard": "fail-hard instead of fail-soft. The course's alpha-beta is fail-soft: on a cut-off return v, "
                 "the value you found, not alpha or beta; and at the end return v, not the updated alpha/beta.",
    "fail_hard:cut": "fail-hard on a cut-off: a node that stops early returns beta (MAX node) or alpha (MIN "
                     "node) instead of v, the value it found. The course's alpha-beta is fail-soft: on a cut-off "
                     "return v.",
    "v_window": "the updated alpha (MAX node) or beta (MIN node) is returned after the last child instead of v, "
                "the value found (starting v at alpha or beta instead of -inf or +inf does the same). A node whose "
                "children are all worth less than its alpha (MAX), or more than its beta (MIN), then returns that "
                "bound, not the value found. Start v at -inf at a MAX node and at +inf at a MIN node, and return v "
                "after the loop.",
    "window:ignore": "the alpha and beta given by the caller are ignored. Start the search from the window "
                     "passed in (they default to -inf and +inf only when the caller gives none).",
    "perspective": "wrong perspective when the second player is to move. Values are from the point of view of "
                   "the player to move in `state` (game.to_move(state)), not of the first player of the game.",
    "returns:move": "alphabeta_value returns a move instead of the value. It returns a number: the value of "
                    "`state`; alphabeta_decision returns the move.",
    "order": "children in another order. Search the children in the order game.actions(state) gives them.",
    "eager": "all children generated before searching. Make one child with game.result, search it, and only "
             "then make the next one: a child that alpha-beta prunes should never be generated.",
    "recompute": "a child searched twice (for example `if f(child) > v: v = f(child)`). Call the search once "
                 "per child and keep its value in a variable.",
    "tie:last": "the last best move instead of the first. Change the best move only when a child is strictly "
                "better (>) than the best so far, so that the first best action in actions() order is kept.",
    "early_return": "`return` inside the loop: the decision returned after looking at the first action "
                    "only. Return after the loop over all actions.",
    "decision_returns:value": "alphabeta_decision returns a value instead of the move. Return the action "
                              "(an element of game.actions(state)).",
    "root_order": "the root moves looked at in another order. Loop over game.actions(state) as it is, so that "
                  "the first best action in that order is the one returned.",
    "root_alpha:False": "the decision does not pass the best value so far down as alpha. Search each root move "
                        "with (alpha, +inf), where alpha is the best value found so far, so later moves are pruned.",
}

#: The mistakes each group grades, as the flags that make them (a hint key may have several forms).
HOME: dict[str, dict[str, list[dict[str, Any]]]] = {
    "value": {"perspective": [{"perspective": "initial"}, {"perspective": "first"}],
              "returns:move": [{"returns": "move"}]},
    "children": {"order": [{"order": "reversed"}], "eager": [{"eager": True}], "recompute": [{"recompute": True}]},
    "pruning": {"bounds:stale": [{"bounds": "stale"}], "bounds:none": [{"bounds": "none"}],
                "bounds:fresh": [{"bounds": "fresh"}]},
    "equality": {"strict": [{"strict": True}]},
    "deep": {"bounds:reset": [{"bounds": "reset"}]},
    "window": {"fail_hard": [{"fail_hard": True}], "fail_hard:cut": [{"fail_hard": True, "hard": "cut"}],
               "v_window": [{"v_window": True}],
               "window:ignore": [{"window": "ignore"}]},
    "decision": {"tie:last": [{"tie": "last"}], "early_return": [{"early_return": True}],
                 "decision_returns:value": [{"decision_returns": "value"}],
                 "root_order": [{"root_order": "reversed"}],
                 "perspective": [{"perspective": "initial"}, {"perspective": "first"}]},
    "decision_pruning": {"root_alpha:False": [{"root_alpha": False}]},
}

DECISION_GROUPS = ("decision", "decision_pruning")


def hint(*keys: str) -> str:
    """The hint that names the mistakes `keys`."""
    return " ".join(f"Looks like {HINTS[k]}" for k in keys)


def model(group: str, flags: Flags) -> Any:
    """The graded function of `group` written with `flags`: ``fn(game, state, *window)``."""
    return partial(decision, flags=flags) if group in DECISION_GROUPS else partial(value, flags=flags)


def group_mistakes(group: str, expected: Flags) -> tuple[list[Mistake], list[Mistake]]:
    """The mistakes `group` grades, each made on top of `expected` (where the other groups' mistakes the
    submission makes are kept), and every pair of them made together (named only when no single one is)."""
    singles = [(key, change) for key, changes in HOME[group].items() for change in changes]
    one = [Mistake(key, hint(key), model(group, replace(expected, **change))) for key, change in singles]
    two = [Mistake(f"{k1}+{k2}", hint(k1, k2), model(group, replace(expected, **c1, **c2)))
           for (k1, c1), (k2, c2) in combinations(singles, 2) if k1 != k2 and not set(c1) & set(c2)]
    return one, two


def put_right(group: str, flags: Flags) -> Flags:
    """`flags` with the mistakes `group` grades put back to the conventions (a flag's other mistakes stay:
    bounds reset at each level is graded in 'deep', not in 'pruning')."""
    mine = {name for changes in HOME[group].values() for change in changes for name, v in change.items()
            if getattr(flags, name) == v}
    return flags.fixed(*mine)
