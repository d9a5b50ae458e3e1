"""Per rule of each lab's rule table, the smallest program that breaks that rule and nothing else.

`correct(lab)` gives the correct functions (the grader's models, in the graded functions' signatures);
``BREAKERS[lab][rule id]()`` gives the functions that replace them for that rule. They are written from
the reference, so they prove the table's cases; the independent rule mutants come from someone who has
read only the sentences.
"""

from __future__ import annotations

from typing import Any, Callable

from course_lib.games import IllegalMoveError


def correct(lab: str) -> dict[str, Any]:
    return CORRECT[lab]()


# -- lab 01 ------------------------------------------------------------------------------------------

def _lab01() -> dict[str, Any]:
    from coursetools.checks.lab01 import reference
    from coursetools.checks.nim import ReferenceNim

    return {"Nim": ReferenceNim, "count_nodes": reference.count_nodes, "tree_stats": reference.tree_stats}


def _nim(**methods: Callable[..., Any]) -> Callable[[], dict]:
    def make() -> dict:
        from coursetools.checks.nim import ReferenceNim
        return {"Nim": type("BrokenNim", (ReferenceNim,), dict(methods))}
    return make


def _nim_state(heaps: Any, player: str) -> Any:
    from coursetools.checks.nim import NimState
    return NimState(heaps, player)


def _same_player(self, state, action):
    from coursetools.checks.nim import ReferenceNim
    child = ReferenceNim.result(self, state, action)
    return child._replace(to_move=state.to_move)


def _heaps_right_to_left(self, state):
    return [(i, n) for i in reversed(range(len(state.heaps))) for n in range(1, state.heaps[i] + 1)]


def _counts_downward(self, state):
    return [(i, n) for i, h in enumerate(state.heaps) for n in range(h, 0, -1)]


def _actions_tuple(self, state):
    return tuple((i, n) for i, h in enumerate(state.heaps) for n in range(1, h + 1))


def _empty_heap_move(self, state):
    return [(i, n) for i, h in enumerate(state.heaps) for n in (range(1, h + 1) if h else [0])]


def _terminal_any_empty(self, state):
    return not all(state.heaps)


def _utility_swapped(self, state, player):
    return 1 if player == state.to_move else -1


def _utility_for_mover(self, state, player):  # the player to move at the end is taken as the winner
    return 1 if player == state.to_move else -1


class _Mutable(list):
    """Heaps kept in a list that result() changes in place."""


def _result_changes_state(self, state, action):
    from coursetools.checks.nim import ReferenceNim
    child = ReferenceNim.result(self, state, action)
    if isinstance(state.heaps, list):
        state.heaps[action[0]] -= action[1]
        return _nim_state(list(state.heaps), child.to_move)
    return child


def _list_initial(self, heaps):
    self.initial = _nim_state(list(heaps), "P1")


def _list_result(self, state, action):
    from coursetools.checks.nim import ReferenceNim
    child = ReferenceNim.result(self, _nim_state(tuple(state.heaps), state.to_move), action)
    return _nim_state(list(child.heaps), child.to_move)


def _list_actions(self, state):
    return [(i, n) for i, h in enumerate(state.heaps) for n in range(1, h + 1)]


def _list_terminal(self, state):
    return not any(state.heaps)


def _accept(test: Callable[[Any, Any], bool]) -> Callable[..., Any]:
    """A result() that lets the illegal actions `test` picks through as moves (to what Python makes of them)."""
    def result(self, state, action):
        from coursetools.checks.nim import ReferenceNim
        if test(state, action):
            i, n = action
            heaps = list(state.heaps)
            heaps[i] = heaps[i] - n
            return _nim_state(tuple(heaps), "P2" if state.to_move == "P1" else "P1")
        return ReferenceNim.result(self, state, action)
    return result


def _plain_value_error(self, state, action):
    from coursetools.checks.nim import ReferenceNim
    try:
        return ReferenceNim.result(self, state, action)
    except IllegalMoveError:
        raise ValueError("illegal move") from None


def _count(no_root: bool = False, terminal: int = 1, asks_turn: bool = False) -> Callable[[], dict]:
    def count_nodes(game, state):
        return _walk(game, state) - (1 if no_root else 0)

    def _walk(game, state):
        if game.is_terminal(state):
            return terminal
        if asks_turn:
            game.to_move(state)  # a question counting does not need
        return 1 + sum(_walk(game, game.result(state, a)) for a in game.actions(state))

    return lambda: {"count_nodes": count_nodes}


def _stats(change: Callable[[Any, Any, tuple], tuple]) -> Callable[[], dict]:
    def tree_stats(game, state):
        from coursetools.checks.lab01 import reference
        return change(game, state, reference.tree_stats(game, state))
    return lambda: {"tree_stats": tree_stats}


def _shortest(game, state):
    if game.is_terminal(state):
        return 0
    return 1 + min(_shortest(game, game.result(state, a)) for a in game.actions(state))


def _deepest_leaves(game, state, stats):
    from coursetools.checks.lab01 import reference
    return stats[0], reference.reference_stats(game, state).deepest, stats[2]


def _branching_all_nodes(game, state, stats):
    from coursetools.checks.lab01 import reference
    s = reference.reference_stats(game, state)
    return stats[0], stats[1], (s.nodes - 1) / s.nodes


def _branching_divides_by_zero(game, state, stats):
    from coursetools.checks.lab01 import reference
    s = reference.reference_stats(game, state)
    return stats[0], stats[1], (s.nodes - 1) / max(s.internal, 1) if s.internal else 1.0


LAB01 = {
    "nim-other-player": _nim(result=_same_player),
    "nim-heaps-left-to-right": _nim(actions=_heaps_right_to_left),
    "nim-counts-upward": _nim(actions=_counts_downward),
    "nim-actions-list": _nim(actions=_actions_tuple),
    "nim-empty-heap": _nim(actions=_empty_heap_move),
    "nim-terminal-every-heap": _nim(is_terminal=_terminal_any_empty),
    "nim-utility-winner": _nim(utility=_utility_swapped),
    "nim-terminal-to-move": _nim(utility=_utility_for_mover),
    "nim-state-unchanged": _nim(__init__=_list_initial, result=_result_changes_state, actions=_list_actions,
                                is_terminal=_list_terminal),
    "nim-hashable": _nim(__init__=_list_initial, result=_list_result, actions=_list_actions,
                         is_terminal=_list_terminal),
    "nim-reject-zero": _nim(result=_accept(lambda s, a: a[1] == 0 and 0 <= a[0] < len(s.heaps))),
    "nim-reject-too-many": _nim(result=_accept(lambda s, a: 0 <= a[0] < len(s.heaps) and a[1] > s.heaps[a[0]] > 0)),
    "nim-reject-no-heap": _nim(result=_accept(lambda s, a: a[0] == -1 and 1 <= a[1] <= s.heaps[-1])),
    "nim-reject-empty-heap": _nim(result=_accept(lambda s, a: 0 <= a[0] < len(s.heaps) and s.heaps[a[0]] == 0
                                                 and a[1] == 1)),
    "nim-error-names-move": _nim(result=_plain_value_error),
    "count-root-included": _count(no_root=True),
    "count-terminal-one": _count(terminal=0),
    "count-only-actions-result": _count(asks_turn=True),
    "depth-in-plies": _stats(lambda g, s, t: (t[0] + 1, t[1], t[2])),
    "depth-longest-path": _stats(lambda g, s, t: (_shortest(g, s), t[1], t[2])),
    "leaves-terminal-states": _stats(_deepest_leaves),
    "branching-internal-nodes": _stats(_branching_all_nodes),
    "branching-terminal-zero": _stats(_branching_divides_by_zero),
    "stats-types": _stats(lambda g, s, t: (t[0], t[1], (lambda n: int(n))(t[2]))),
}

CORRECT = {"01_game_trees": _lab01}
BREAKERS = {"01_game_trees": LAB01}


# -- lab 02 ------------------------------------------------------------------------------------------

def _lab02() -> dict[str, Any]:
    from coursetools.checks.lab02 import reference as ref
    return {"minimax_value": ref.minimax_value, "minimax_decision": ref.model_decision,
            "quick_win_decision": ref.quick_win}


CORRECT["02_minimax"] = _lab02


def _flags(name: str, **flags: Any) -> Callable[[], dict]:
    def make() -> dict:
        from coursetools.checks.lab02 import reference as ref
        fn = ref.model_value if name == "minimax_value" else ref.model_decision
        return {name: lambda game, state: fn(game, state, ref.Flags(**flags))}
    return make


def _leaf_mover_value(game, state):
    """Terminal utilities asked for the player to move at the terminal state (not the root player)."""
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, game.to_move(s))
        vals = [value(game.result(s, a)) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == root else min(vals)
    return value(state)


def _utility_twice_value(game, state):
    root = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            game.utility(s, root)
            return game.utility(s, root)
        vals = [value(game.result(s, a)) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == root else min(vals)
    return value(state)


def _capped_value(game, state):
    """A search that stops 9 plies below the root (the longest Tic-Tac-Toe game) and counts a state there as 0."""
    root = game.to_move(state)

    def value(s, depth):
        if game.is_terminal(s):
            return game.utility(s, root)
        if depth >= 9:
            return 0
        vals = [value(game.result(s, a), depth + 1) for a in game.actions(s)]
        return max(vals) if game.to_move(s) == root else min(vals)
    return value(state, 0)


def _no_pass_decision(game, state):
    """A decision that leaves the null move "pass" out of the root's actions (None when it is the only one)."""
    from coursetools.checks.lab02 import reference as ref
    root = game.to_move(state)
    best, best_value = None, None
    for a in game.actions(state):
        if a == "pass":
            continue
        child = game.result(state, a)
        v = game.utility(child, root) if game.is_terminal(child) else \
            ref.minimax_value(game, child) * (1 if game.to_move(child) == root else -1)
        if best_value is None or v > best_value:
            best, best_value = a, v
    return best


def _quick(score: Callable[[float, int], float] | None = None, tie: bool = False,
           order: bool = False) -> Callable[[], dict]:
    def quick_win_decision(game, state):
        from coursetools.checks.lab02 import reference as ref
        player = game.to_move(state)
        scoring = score or ref.quick_score

        def kids(s):
            acts = game.actions(s)
            return acts[::-1] if order else acts

        def value(s, d):
            if game.is_terminal(s):
                return scoring(game.utility(s, player), d)
            vals = [value(game.result(s, a), d + 1) for a in kids(s)]
            return max(vals) if game.to_move(s) == player else min(vals)

        best, best_value = None, None
        for a in game.actions(state):
            v = value(game.result(state, a), 1)
            if best_value is None or v > best_value or (tie and v == best_value):
                best, best_value = a, v
        return best
    return lambda: {"quick_win_decision": quick_win_decision}


LAB02 = {
    "value-terminal-utility-for-root": lambda: {"minimax_value": _leaf_mover_value},
    "value-max-min": _flags("minimax_value", alternate=False),
    "value-to-move-not-depth": _flags("minimax_value", turns="depth"),
    "value-returns-number": _flags("minimax_value", returns="move"),
    "value-second-player": _flags("minimax_value", view="first"),
    "value-children-order": _flags("minimax_value", order="reversed"),
    "value-utility-once": lambda: {"minimax_value": _utility_twice_value},
    "value-no-depth-limit": lambda: {"minimax_value": _capped_value},
    "decision-keeps-action": _flags("minimax_decision", returns="value"),
    "decision-every-action": _flags("minimax_decision", early="first"),
    "decision-to-move": _flags("minimax_decision", turns="depth"),
    "decision-pass-move": lambda: {"minimax_decision": _no_pass_decision},
    "decision-second-player": _flags("minimax_decision", view="first"),
    "decision-first-best": _flags("minimax_decision", tie="last"),
    "decision-children-order": _flags("minimax_decision", order="reversed"),
    "quick-faster-win": _quick(score=lambda u, d: u),
    "quick-slowest-loss": _quick(score=lambda u, d: u * (10 - d) if u >= 0 else u * 10),
    "quick-first-best": _quick(tie=True),
    "quick-same-tree": _quick(order=True),
}
BREAKERS["02_minimax"] = LAB02


# -- lab 03 ------------------------------------------------------------------------------------------

def _lab03() -> dict[str, Any]:
    from coursetools.checks.lab03 import reference as ref
    return {"alphabeta_value": ref.value, "alphabeta_decision": ref.decision}


def _ab(name: str, **flags: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab03 import reference as ref
        fn = ref.value if name == "alphabeta_value" else ref.decision
        return {name: partial(fn, flags=ref.Flags(**flags))}
    return make


def _utility_asked_everywhere(game, state, alpha=float("-inf"), beta=float("inf")):
    """The course's alpha-beta, but every node is first asked its utility (an internal node's error ignored)."""
    from coursetools.checks.lab03 import reference as ref

    class Asking:
        def __init__(self, g):
            self.g = g

        def __getattr__(self, name):
            return getattr(self.g, name)

        def is_terminal(self, s):
            try:
                self.g.utility(s, player)
            except Exception:  # noqa: BLE001 - the point: utility asked of a state that is not terminal
                pass
            return self.g.is_terminal(s)

    player = game.to_move(state)
    return ref.value(Asking(game), state, alpha, beta)


LAB03 = {
    "value-root-player": _ab("alphabeta_value", perspective="first"),
    "value-keep-player": _ab("alphabeta_value", perspective="initial"),
    "value-returns-number": _ab("alphabeta_value", returns="move"),
    "children-in-order": _ab("alphabeta_value", order="reversed"),
    "children-made-when-searched": _ab("alphabeta_value", eager=True),
    "utility-once": _ab("alphabeta_value", recompute=True),
    "utility-terminal-only": lambda: {"alphabeta_value": _utility_asked_everywhere},
    "prune-stops": _ab("alphabeta_value", bounds="none"),
    "prune-updated-window": _ab("alphabeta_value", bounds="stale"),
    "prune-parent-window": _ab("alphabeta_value", bounds="fresh"),
    "prune-on-equality": _ab("alphabeta_value", strict=True),
    "deep-cut": _ab("alphabeta_value", bounds="reset"),
    "fail-soft": _ab("alphabeta_value", fail_hard=True, hard="cut"),
    "fail-soft-at-the-end": _ab("alphabeta_value", fail_hard=True, hard="end"),
    "caller-window": _ab("alphabeta_value", window="ignore"),
    "decision-first-best": _ab("alphabeta_decision", tie="last"),
    "decision-actions-order": _ab("alphabeta_decision", root_order="reversed"),
    "decision-every-move": _ab("alphabeta_decision", early_return=True),
    "decision-returns-move": _ab("alphabeta_decision", decision_returns="value"),
    "decision-player-to-move": _ab("alphabeta_decision", perspective="first"),
    "decision-root-alpha": _ab("alphabeta_decision", root_alpha=False),
}
CORRECT["03_alphabeta"] = _lab03
BREAKERS["03_alphabeta"] = LAB03


# -- lab 04 ------------------------------------------------------------------------------------------

INF = float("inf")


def _lab04() -> dict[str, Any]:
    from coursetools.checks.lab04 import reference as ref
    return {"ordered_alphabeta_value": ref.ordered_alphabeta_value, "perfect_ordering": ref.perfect_ordering,
            "alphabeta_tt_value": _tt(), "iterative_deepening_decision": ref.iterative_deepening_decision}


def _ordered_ab(descending: bool = False, root_only: bool = False, strict: bool = False) -> Callable[[], dict]:
    def ordered_alphabeta_value(game, state, key):
        player = game.to_move(state)

        def value(s, alpha, beta, top):
            if game.is_terminal(s):
                return game.utility(s, player)
            acts = game.actions(s)
            if top or not root_only:
                acts = sorted(acts, key=lambda a: key(s, a), reverse=descending)
            maxing = game.to_move(s) == player
            v = -INF if maxing else INF
            for a in acts:
                w = value(game.result(s, a), alpha, beta, False)
                if maxing:
                    v = max(v, w)
                    if (v > beta) if strict else (v >= beta):
                        return v
                    alpha = max(alpha, v)
                else:
                    v = min(v, w)
                    if (v < alpha) if strict else (v <= alpha):
                        return v
                    beta = min(beta, v)
            return v
        return value(state, -INF, INF, True)
    return lambda: {"ordered_alphabeta_value": ordered_alphabeta_value}


def _ref04(name: str, **flags: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab04 import reference as ref
        return {name: partial(getattr(ref, name), **flags)}
    return make


def _perfect_default_root(tree):
    from course_lib.games import GameTree

    from coursetools.checks.lab04 import reference as ref
    spec = ref.perfect_ordering(tree)
    return GameTree.from_nested(_nested(spec, spec.initial))


def _nested(tree, node):
    if tree.is_terminal(node):
        return tree.value(node)
    return [_nested(tree, c) for c in tree.children(node)]


def _tt(all_exact: bool = False, any_depth: bool = False, late_lookup: bool = False, skip_root: bool = False,
        skip_leaves: bool = False, terminal_depth: bool = False, updated_window: bool = False,
        mover_view: bool = False, evaluate_terminal: bool = False, depth0_no_lookup: bool = False) -> Callable:
    """The lab's table search, with one way of breaking it switched on."""
    def alphabeta_tt_value(game, state, table, depth=INF, evaluate=None):
        player = game.to_move(state)
        root = state

        def sign(s):
            return -1 if mover_view and game.to_move(s) != player else 1

        def store(s, v, flag, d, leaf=False):
            if (skip_root and s == root) or (skip_leaves and leaf):
                return v
            if mover_view:
                flag = {"lower": "upper", "upper": "lower"}.get(flag, flag) if sign(s) < 0 else flag
            table[s] = (sign(s) * v, "exact" if all_exact else flag, d)
            return v

        def lookup(s, alpha, beta, d):
            entry = table.get(s)
            if entry is None or not (any_depth or entry[2] >= d):
                return None
            v, flag, _ = entry
            if mover_view and sign(s) < 0:
                v, flag = -v, {"lower": "upper", "upper": "lower"}.get(flag, flag)
            if flag == "exact" or (flag == "lower" and v >= beta) or (flag == "upper" and v <= alpha):
                return v
            return None

        def value(s, alpha, beta, d):
            if not late_lookup and not (depth0_no_lookup and d == 0):
                hit = lookup(s, alpha, beta, d)
                if hit is not None:
                    return hit
            if game.is_terminal(s):
                if evaluate_terminal and d == 0:
                    return store(s, evaluate(s, player), "exact", 0, True)
                return store(s, game.utility(s, player), "exact", d if terminal_depth else INF, True)
            if d == 0:
                return store(s, evaluate(s, player), "exact", 0, True)
            if late_lookup:
                hit = lookup(s, alpha, beta, d)
                if hit is not None:
                    return hit
            a0, b0 = alpha, beta
            maxing = game.to_move(s) == player
            v = -INF if maxing else INF
            for a in game.actions(s):
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
            lo, hi = (alpha, beta) if updated_window else (a0, b0)
            flag = "lower" if v >= hi else "upper" if v <= lo else "exact"
            return store(s, v, flag, d)
        return value(state, -INF, INF, depth)
    return alphabeta_tt_value


def _tt_breaker(**flags: bool) -> Callable[[], dict]:
    return lambda: {"alphabeta_tt_value": _tt(**flags)}


class _Expired(Exception):
    pass


def _id(remember: bool = True, extra: int = 0, tie: bool = False, full_window: bool = False,
        stop_when_solved: bool = False, mover_eval: bool = False, ask: str = "before", keep: str = "finished",
        no_depth_none: bool = False, ceiling: bool = True, boundary: bool = False) -> Callable[[], dict]:
    """Iterative deepening written as the lab asks, with one way of breaking it switched on."""
    def iterative_deepening_decision(game, state, max_depth, evaluate, clock=None):
        player = game.to_move(state)
        seen = {"evaluated": 0}

        def result(s, a, root=False):
            if clock is not None and ask == "before" or (ask == "root" and root and clock is not None):
                if clock.expired():
                    raise _Expired
            child = game.result(s, a)
            if clock is not None and ask == "after" and clock.expired():
                raise _Expired
            return child

        def ab(s, alpha, beta, d):
            if game.is_terminal(s):
                return game.utility(s, player)
            if d == 0:
                seen["evaluated"] += 1
                return evaluate(s, game.to_move(s) if mover_eval else player)
            maxing = game.to_move(s) == player
            v = -INF if maxing else INF
            for a in game.actions(s):
                w = ab(result(s, a), alpha, beta, d - 1)
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

        best, choice, depth = None, None, 0
        try:
            while True:
                depth += 1
                if depth > max_depth and (ceiling or clock is None):
                    break
                actions = game.actions(state)
                if best is not None and remember:
                    actions = [best] + [a for a in actions if a != best]
                alpha, choice = -INF, None
                seen["evaluated"] = 0
                for a in actions:
                    v = ab(result(state, a, root=True), -INF if full_window else alpha, INF, depth - 1 + extra)
                    if choice is None or v > alpha or (tie and v == alpha):
                        choice, alpha = a, max(alpha, v)
                if boundary and clock is not None and clock.expired():
                    raise _Expired
                best, choice = choice, None
                if stop_when_solved and seen["evaluated"] == 0:
                    break
        except _Expired:
            if keep == "unfinished" and choice is not None:
                return choice
        if best is None:
            return None if no_depth_none else game.actions(state)[0]
        return best
    return lambda: {"iterative_deepening_decision": iterative_deepening_decision}


LAB04 = {
    "ordered-by-increasing-key": _ordered_ab(descending=True),
    "ordered-stable": _ref04("ordered_alphabeta_value", sort="pairs"),
    "ordered-every-node": _ordered_ab(root_only=True),
    "ordered-value-unchanged": _ref04("ordered_alphabeta_value", greedy=True),
    "ordered-prune-on-equality": _ordered_ab(strict=True),
    "perfect-min-smallest-first": _ref04("perfect_ordering", rule="max_everywhere"),
    "perfect-subtree-value": _ref04("perfect_ordering", rule="first_leaf"),
    "perfect-root-kind": lambda: {"perfect_ordering": _perfect_default_root},
    "tt-flags": _tt_breaker(all_exact=True),
    "tt-entry-depth": _tt_breaker(any_depth=True),
    "tt-look-up-first": _tt_breaker(late_lookup=True),
    "tt-store-root": _tt_breaker(skip_root=True),
    "tt-store-leaves": _tt_breaker(skip_leaves=True),
    "tt-terminal-any-depth": _tt_breaker(terminal_depth=True),
    "tt-entered-window": _tt_breaker(updated_window=True),
    "tt-root-view": _tt_breaker(mover_view=True),
    "tt-terminal-utility": _tt_breaker(evaluate_terminal=True),
    "tt-depth-zero-look-up": _tt_breaker(depth0_no_lookup=True),
    "id-previous-best-first": _id(remember=False),
    "id-depth-minus-one": _id(extra=1),
    "id-strictly-better": _id(tie=True),
    "id-root-window": _id(full_window=True),
    "id-every-depth": _id(stop_when_solved=True),
    "id-evaluate-root-player": _id(mover_eval=True),
    "clock-before-every-result": _id(ask="root"),
    "clock-stop-at-once": _id(ask="after"),
    "clock-throw-away": _id(keep="unfinished"),
    "clock-finished-at-the-limit": _id(boundary=True),
    "clock-no-depth-finished": _id(no_depth_none=True),
    "clock-max-depth-ceiling": _id(ceiling=False),
}
CORRECT["04_move_ordering"] = _lab04
BREAKERS["04_move_ordering"] = LAB04


# -- lab 05 ------------------------------------------------------------------------------------------

_LAB05: dict[str, Any] = {}


def _lab05() -> dict[str, Any]:
    """The source notebook's solutions (its set-up and solution cells, without figures or tournaments)."""
    if not _LAB05:
        from pathlib import Path

        import nbformat
        source = Path(__file__).resolve().parents[2] / "source" / "05_heuristics" / "05_heuristics.ipynb"
        namespace: dict = {"display": lambda *args, **kwargs: None}
        for cell in nbformat.read(source, as_version=4).cells:
            if cell.cell_type != "code" or any(s in cell.source for s in ("tournament(", "draw_tree(", "PLAY",
                                                                         "### BEGIN HIDDEN TESTS")):
                continue
            text = "\n".join(line for line in cell.source.splitlines()
                             if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
            exec(compile(text, "05_heuristics", "exec"), namespace)
        _LAB05.update({n: namespace[n] for n in (
            "depth_limited_value", "depth_limited_decision", "isolation_mobility", "isolation_improved",
            "connect_four_windows", "food_grid_evaluate", "chess_material", "quiescence_value")})
    return dict(_LAB05)


def _dl(name: str = "depth_limited_value", **flags: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab05 import reference as ref
        fn = ref.depth_limited_value if name == "depth_limited_value" else ref.depth_limited_decision
        extra = {k: flags.pop(k) for k in ("last_best", "root_window") if k in flags}
        return {name: partial(fn, flags=ref.Flags(**flags), **extra)}
    return make


def _dl_own(strict: bool = False, reverse: bool = False) -> Callable[[], dict]:
    def depth_limited_value(game, state, depth, evaluate):
        player = game.to_move(state)

        def search(s, d, alpha, beta):
            if game.is_terminal(s):
                return game.utility(s, player)
            if d == 0:
                return evaluate(s, player)
            maxing = game.to_move(s) == player
            v = -INF if maxing else INF
            acts = game.actions(s)
            for a in (acts[::-1] if reverse else acts):
                w = search(game.result(s, a), d - 1, alpha, beta)
                if maxing:
                    v = max(v, w)
                    if (v > beta) if strict else (v >= beta):
                        return v
                    alpha = max(alpha, v)
                else:
                    v = min(v, w)
                    if (v < alpha) if strict else (v <= alpha):
                        return v
                    beta = min(beta, v)
            return v
        return search(state, depth, -INF, INF)
    return lambda: {"depth_limited_value": depth_limited_value}


def _quiet(rule: str | None = None, noisy_first: bool = False, mover: bool = False) -> Callable[[], dict]:
    def quiescence_value(game, state, depth, evaluate):
        from coursetools.checks.lab05 import reference as ref
        if rule:
            return ref.quiescence_value(game, state, depth, evaluate, rule=rule)
        player = game.to_move(state)

        def search(s, d, alpha, beta):
            if noisy_first and d <= 0 and not game.is_noisy(s):
                return evaluate(s, player)
            if game.is_terminal(s):
                return game.utility(s, player)
            if d <= 0 and not game.is_noisy(s):
                return evaluate(s, game.to_move(s) if mover else player)
            maxing = game.to_move(s) == player
            v = -INF if maxing else INF
            for a in game.actions(s):
                w = search(game.result(s, a), d - 1, alpha, beta)
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
        return search(state, depth, -INF, INF)
    return lambda: {"quiescence_value": quiescence_value}


def _evaluation(name: str, change: Callable[..., Any]) -> Callable[[], dict]:
    def make() -> dict:
        right = _lab05()[name]
        return {name: lambda *args: change(right, *args)}
    return make


def _from_ref(name: str, fn: Callable[..., Any]) -> Callable[[], dict]:
    return lambda: {name: fn}


def _mobility(**kw: Any) -> Callable[[], dict]:
    def make() -> dict:
        from course_lib.games import Isolation

        from coursetools.checks.lab05 import reference as ref
        game = Isolation(5)
        return {"isolation_mobility": lambda s, p: ref.mobility(game, s, p, **kw)}
    return make


def _windows(**kw: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab05 import reference as ref
        return {"connect_four_windows": partial(ref.windows, **kw)}
    return make


def _windows_six_by_seven(state, player):
    """The open windows of a 6 x 7 board, whatever the state's size."""
    from coursetools.checks.lab05 import reference as ref
    lines = ref.window_lines(6, 7)
    opponent = "O" if player == "X" else "X"
    total = 0
    for line in lines:
        cells = [state.board[i] if i < len(state.board) else "." for i in line]
        mine, theirs = cells.count(player), cells.count(opponent)
        if mine and not theirs:
            total += ref.WINDOW_WEIGHTS[mine]
        if theirs and not mine:
            total -= ref.WINDOW_WEIGHTS[theirs]
    return total / (9 * 69 + 1)


def _material(**kw: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab05 import reference as ref
        return {"chess_material": partial(ref.material, **kw)}
    return make


def _material_six_fields(fen, player):
    from coursetools.checks.lab05 import reference as ref
    placement, side, castling, passant, half, full = fen.split()
    return ref.material(placement, player)


def _material_king(fen, player):
    values = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9, "k": 1}
    total = sum(values[c.lower()] * (1 if c.isupper() else -1) for c in fen.split()[0] if c.lower() in values)
    return total if player == "w" else -total


class _Counter:
    calls = 0


def _changing(right, s, p):
    _Counter.calls += 1
    return right(s, p) * (0.5 if _Counter.calls % 3 == 0 else 1)


def _food_distance_first(right, s, p):
    """The distance term weighted above the score difference."""
    return max(-0.99, min(0.99, right(s, p) * 0.0 + _distance_term(s, p) * 0.5 + 0.01 * _score_term(s, p)))


def _score_term(s, p):
    a, b = s.scores
    return (a - b) if p == "A" else (b - a)


def _distance_term(s, p):
    width = s.width
    foods = [i for i in range(width * s.height) if s.food >> i & 1]
    if not foods:
        return 0.0

    def near(pos):
        r, c = divmod(pos, width)
        return min(abs(r - f // width) + abs(c - f % width) for f in foods)
    mine, theirs = (s.positions[0], s.positions[1]) if p == "A" else (s.positions[1], s.positions[0])
    return (near(theirs) - near(mine)) / (width + s.height)


def _food_score_only(right, s, p):
    total = s.scores[0] + s.scores[1] + bin(s.food).count("1") + 1
    return _score_term(s, p) / total


LAB05 = {
    "value-terminal-utility": _dl(terminal_first=False),
    "value-evaluate-at-cutoff-only": _dl(guess_everywhere=True),
    "value-depth-plies": _dl(cut=1),
    "value-depth-not-deeper": _dl(cut=-1),
    "value-root-player": _dl(mover_view=True),
    "value-prunes": _dl(prune=False),
    "value-prunes-on-equality": _dl_own(strict=True),
    "value-children-order": _dl_own(reverse=True),
    "decision-first-best": _dl("depth_limited_decision", last_best=True),
    "decision-root-alpha": _dl("depth_limited_decision", root_window=False),
    "decision-depth-minus-one": _dl("depth_limited_decision", cut=-1),
    "decision-terminal-utility": _dl("depth_limited_decision", terminal_first=False),
    "mobility-formula": _mobility(scaled=False),
    "mobility-player-minus-opponent": _mobility(sign=-1),
    "mobility-subtract-opponent": _mobility(own_only=True),
    "windows-weights": _windows(weights=(0, 1, 1, 1, 0)),
    "windows-open-only": _windows(blocked_too=True),
    "windows-scaled": _windows(scaled=False),
    "windows-board-size": _from_ref("connect_four_windows", _windows_six_by_seven),
    "chess-placement-only": _material(whole=True),
    "chess-player-view": _material(flip=False),
    "chess-placement-field-alone": _from_ref("chess_material", _material_six_fields),
    "chess-piece-values": _from_ref("chess_material", _material_king),
    "improved-inside-bounds": _evaluation("isolation_improved", lambda f, s, p: f(s, p) * 3),
    "improved-opposite": _evaluation("isolation_improved", lambda f, s, p: abs(f(s, p))),
    "improved-deterministic": _evaluation("isolation_improved", _changing),
    "improved-ranking": _evaluation("isolation_improved", lambda f, s, p: -f(s, p)),
    "improved-tournament": _evaluation("isolation_improved", lambda f, s, p: 0.0),
    "food-score-first": _evaluation("food_grid_evaluate", _food_distance_first),
    "food-nearer-is-better": _evaluation("food_grid_evaluate", _food_score_only),
    "food-bounds-and-opposite": _evaluation("food_grid_evaluate", lambda f, s, p: f(s, p) * 50),
    "quiescence-quiet-only": _quiet(rule="ignore"),
    "quiescence-until-quiet": _quiet(rule="one_ply"),
    "quiescence-never-guess-noisy": _quiet(rule="guess_noisy"),
    "quiescence-terminal-utility": _quiet(noisy_first=True),
    "quiescence-root-player": _quiet(mover=True),
}
CORRECT["05_heuristics"] = _lab05
BREAKERS["05_heuristics"] = LAB05


# -- lab 06 ------------------------------------------------------------------------------------------

def _lab06() -> dict[str, Any]:
    from coursetools.checks.lab06 import reference as ref
    return {"expectimax_value": ref.expectimax_value, "maxn_value": ref.maxn_value,
            "maxn_shallow_value": ref.maxn_shallow_value}


def _ref06(name: str, **kw: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab06 import reference as ref
        return {name: partial(getattr(ref, name), **kw)}
    return make


def _shallow06(variant: str) -> Callable[[], dict]:
    def make() -> dict:
        from coursetools.checks.lab06 import reference as ref
        return {"maxn_shallow_value": lambda g, s, m: ref.maxn_shallow_value(g, s, m, variant)}
    return make


def _expecti(max_everywhere: bool = False, reverse: bool = False, twice: bool = False,
             chance_first: bool = False) -> Callable[[], dict]:
    def expectimax_value(game, state):
        player = game.to_move(state)

        def value(s):
            if chance_first and game.to_move(s) == "CHANCE":
                return sum(p * value(game.result(s, a)) for a, p in game.outcomes(s))
            if game.is_terminal(s):
                return game.utility(s, player)
            if game.to_move(s) == "CHANCE":
                pairs = game.outcomes(s)
                total = 0.0
                for a, p in (pairs[::-1] if reverse else pairs):
                    child = game.result(s, a)
                    if twice:
                        value(child)
                    total += p * value(child)
                return total
            acts = game.actions(s)
            vals = [value(game.result(s, a)) for a in (acts[::-1] if reverse else acts)]
            return max(vals) if max_everywhere or game.to_move(s) == player else min(vals)
        return value(state)
    return lambda: {"expectimax_value": expectimax_value}


LAB06 = {
    "expectimax-average": _ref06("expectimax_value", chance="min"),
    "expectimax-probabilities": _ref06("expectimax_value", chance="uniform"),
    "expectimax-max-min": _expecti(max_everywhere=True),
    "expectimax-root-utility": _ref06("expectimax_value", view="mover"),
    "expectimax-to-move": _ref06("expectimax_value", flip=True),
    "expectimax-order-once": _expecti(reverse=True),
    "expectimax-value-once": _expecti(twice=True),
    "expectimax-cutoff": _expecti(chance_first=True),
    "maxn-own-entry": _ref06("maxn_value", rule="player0"),
    "maxn-first-best": _ref06("maxn_value", rule="last"),
    "maxn-move-twice": _ref06("maxn_value", rule="depth"),
    "maxn-players-order": _ref06("maxn_value", vector="reversed"),
    "maxn-not-rotated": _ref06("maxn_value", vector="mover_first"),
    "shallow-prunes": _shallow06("none"),
    "shallow-on-equality": _shallow06("strict"),
    "shallow-parent-bound-only": _shallow06("deep"),
    "shallow-sum-bound": _shallow06("alphabeta"),
    "shallow-same-player": _shallow06("same_player"),
}
CORRECT["06_beyond_two_players"] = _lab06
BREAKERS["06_beyond_two_players"] = LAB06


# -- lab 07 ------------------------------------------------------------------------------------------

def _lab07() -> dict[str, Any]:
    from coursetools.checks.lab07 import reference as ref
    return {"ucb1": ref.ucb1, "rollout": ref.rollout, "mcts_search": ref.mcts_search,
            "mcts_decision": ref.mcts_decision}


def _ref07(name: str, **kw: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab07 import reference as ref
        return {name: partial(getattr(ref, name), **kw)}
    return make


def _rollout07(kind: str) -> Callable[[], dict]:
    def rollout(game, state, rng):
        import random
        if kind == "own-rng":
            rng = random.Random(0)
        if kind == "draw-first":
            rng.random()
        s = state
        while not game.is_terminal(s):
            acts = game.actions(s)
            if kind == "two-draws":
                rng.random()
            s = game.result(s, rng.choice(acts))
        return s
    return lambda: {"rollout": rollout}


def _mcts07(pop_last: bool = False, tie_last: bool = False, skip_terminal: bool = False) -> Callable:
    """The lab's search with one rule broken (the decision over it when `decision`)."""
    def mcts_search(game, state, iterations, rng, c=2 ** 0.5, clock=None):
        from coursetools.checks.lab07 import reference as ref

        def new(s, parent=None, action=None, player=None):
            return ref.Node(s, parent, action, player, [] if game.is_terminal(s) else game.actions(s))
        if clock is not None:
            game = clock.watch(game)
        root = new(state)
        for _ in range(iterations):
            if clock is not None and clock.expired():
                break
            node = root
            while not node.untried and node.children:
                scores = [ref.ucb1(ch.total, ch.visits, node.visits, c) for ch in node.children]
                best = max(scores)
                i = (len(scores) - 1 - scores[::-1].index(best)) if tie_last else scores.index(best)
                node = node.children[i]
            if node.untried:
                a = node.untried.pop(-1 if pop_last else 0)
                child = new(game.result(node.state, a), node, a, game.to_move(node.state))
                node.children.append(child)
                node = child
            elif skip_terminal:
                continue
            s = ref.rollout(game, node.state, rng)
            while node is not None:
                node.visits += 1
                if node.player is not None:
                    node.total += game.utility(s, node.player)
                node = node.parent
        return root
    return mcts_search


def _decide07(**kw: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab07 import reference as ref
        return {"mcts_decision": partial(ref.mcts_decision, **kw)}
    return make


def _decision_twice(game, state, iterations, rng, c=2 ** 0.5, clock=None):
    from coursetools.checks.lab07 import reference as ref
    ref.mcts_search(game, state, iterations, rng, c, clock)
    return ref.mcts_decision(game, state, iterations, rng, c, clock)


def _decision_none(game, state, iterations, rng, c=2 ** 0.5, clock=None):
    from coursetools.checks.lab07 import reference as ref
    best = ref.best_child(ref.mcts_search(game, state, iterations, rng, c, clock))
    return None if best is None else best.action


def _search_no_cap(game, state, iterations, rng, c=2 ** 0.5, clock=None):
    """With a clock, iterations left out: the search runs until the clock expires (here: at most 50 times the
    iterations, so that a tree completed before the budget does not loop for ever)."""
    from coursetools.checks.lab07 import reference as ref
    return ref.mcts_search(game, state, iterations if clock is None else 50 * iterations, rng, c, clock)


LAB07 = {
    "ucb1-unvisited-infinity": _ref07("ucb1", bug="unvisited_zero"),
    "ucb1-parent-over-child": _ref07("ucb1", bug="swapped"),
    "ucb1-square-root": _ref07("ucb1", bug="no_sqrt"),
    "ucb1-mean-reward": _ref07("ucb1", bug="parent_mean"),
    "rollout-one-draw-per-move": _rollout07("two-draws"),
    "rollout-terminal-no-draw": _rollout07("draw-first"),
    "rollout-given-rng": _rollout07("own-rng"),
    "search-untried-first": _ref07("mcts_search", select="children"),
    "search-parent-visits": _ref07("mcts_search", counts="root"),
    "search-selection-ties": lambda: {"mcts_search": _mcts07(tie_last=True)},
    "search-one-child": _ref07("mcts_search", expand="all"),
    "search-first-untried": lambda: {"mcts_search": _mcts07(pop_last=True)},
    "search-rollout-outside-tree": _ref07("mcts_search", tree_rollout=True),
    "search-reward-for-mover": _ref07("mcts_search", view="root"),
    "search-reward-not-opponent": _ref07("mcts_search", view="opponent"),
    "search-terminal-node": lambda: {"mcts_search": _mcts07(skip_terminal=True)},
    "decision-most-visited": _decide07(rule="value"),
    "decision-first-on-ties": _decide07(rule="last"),
    "decision-search-once": lambda: {"mcts_decision": _decision_twice},
    "decision-no-child": lambda: {"mcts_decision": _decision_none},
    "clock-before-each-iteration": _ref07("mcts_search", honour_clock="never"),
    "clock-iteration-finishes": _ref07("mcts_search", honour_clock="inside"),
    "clock-watched-game": _ref07("mcts_search", honour_clock="discarded"),
    "clock-iterations-cap": lambda: {"mcts_search": _search_no_cap},
}
CORRECT["07_mcts"] = _lab07
BREAKERS["07_mcts"] = LAB07


# -- lab 08 ------------------------------------------------------------------------------------------

def _lab08() -> dict[str, Any]:
    from coursetools.checks.lab08 import reference as ref
    return {"td_update": ref.td_update, "move_values": ref.move_values, "self_play_episode": ref.self_play_episode,
            "td_leaf_update": ref.td_leaf_update}


def _ref08(name: str, **kw: Any) -> Callable[[], dict]:
    def make() -> dict:
        from functools import partial

        from coursetools.checks.lab08 import reference as ref
        return {name: partial(getattr(ref, name), **kw)}
    return make


def _td_in_place(weights, feats, target, alpha):
    from course_lib.learning import value
    v = value(weights, feats)
    for i, f in enumerate(feats):
        weights[i] += alpha * (target - v) * v * (1 - v) * f
    return weights


def _td_value_each_time(weights, feats, target, alpha):
    from course_lib.learning import value
    w = list(weights)
    for i, f in enumerate(feats):
        v = value(w, feats)
        w[i] += alpha * (target - v) * v * (1 - v) * f
    return w


def _moves_reversed(game, state, weights):
    from coursetools.checks.lab08 import reference as ref
    return ref.move_values(game, state, weights)[::-1]


def _play(best_last: bool = False, draw_if_epsilon: bool = False, in_place: bool = False,
          shared_record: bool = False, carry: bool = False, value_after: bool = False) -> Callable[[], dict]:
    """The lab's self-play with one rule broken."""
    def make() -> dict:
        box: list = [None]

        def self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0):
            from course_lib.learning import Step, features, value

            from coursetools.checks.lab08 import reference as ref
            w = weights if in_place else list(weights)
            if shared_record:
                w = list(weights)
            trace = list(box[0]) if carry and box[0] is not None else [0.0] * len(w)
            s, history = game.initial, []
            while not game.is_terminal(s):
                p = game.to_move(s)
                f = features(s, p)
                moves = ref.move_values(game, s, w)
                best_value = max(v for _, v in moves)
                picks = [a for a, v in moves if v == best_value]
                best = picks[-1] if best_last else picks[0]
                explore = (epsilon > 0 and rng.random() < epsilon) if draw_if_epsilon else rng.random() < epsilon
                a = rng.choice(game.actions(s)) if explore else best
                if value_after:
                    f = features(game.result(s, a), p)
                v = value(w, f)
                target = dict(moves)[best]
                error = target - v
                new_trace = [-lam * e + v * (1 - v) * x for e, x in zip(trace, f)]
                new = [x + alpha * error * e for x, e in zip(w, new_trace)]
                if shared_record:  # one list each, changed in place: every record shows the last numbers
                    trace[:] = new_trace
                else:
                    trace = new_trace
                if in_place or shared_record:
                    w[:] = new
                else:
                    w = new
                history.append(Step(s, a, v, target, error, trace if shared_record else list(trace),
                                    w if shared_record else list(w)))
                s = game.result(s, a)
            box[0] = trace
            return w, history
        return {"self_play_episode": self_play_episode}
    return make


def _leaf(finished_gradient: bool = False, updated_next: bool = False) -> Callable[[], dict]:
    def td_leaf_update(game, weights, state, next_state, search, depth, alpha):
        from course_lib.learning import LeafStep, features, reward, value
        p = game.to_move(state)
        w = list(weights)
        leaf = search(state, depth, w)
        if game.is_terminal(leaf):
            v = reward(game, leaf, p)
            grad = [v * (1 - v) * x for x in features(leaf, p)] if finished_gradient else [0.0] * len(w)
        else:
            f = features(leaf, p)
            v = value(w, f)
            grad = [v * (1 - v) * x for x in f]
        if game.is_terminal(next_state):
            target = reward(game, next_state, p)
        else:
            used = [x + alpha * 0.5 * g for x, g in zip(w, grad)] if updated_next else w
            nleaf = search(next_state, depth, used)
            if game.is_terminal(nleaf):
                target = reward(game, nleaf, p)
            else:
                target = 1 - value(used, features(nleaf, game.to_move(next_state)))
        error = target - v
        return LeafStep(leaf, v, target, error, [x + alpha * error * g for x, g in zip(w, grad)])
    return lambda: {"td_leaf_update": td_leaf_update}


def _leaf_in_place(game, weights, state, next_state, search, depth, alpha):
    """The lab's update, written into the list of weights it was given."""
    from coursetools.checks.lab08 import reference as ref
    step = ref.td_leaf_update(game, weights, state, next_state, search, depth, alpha)
    weights[:] = step.weights
    return step


LAB08 = {
    "td-slope": _ref08("td_update", bug="no_slope"),
    "td-error-sign": _ref08("td_update", bug="sign"),
    "td-new-list": lambda: {"td_update": _td_in_place},
    "td-value-once": lambda: {"td_update": _td_value_each_time},
    "moves-terminal-reward": _ref08("move_values", bug="no_reward"),
    "moves-one-minus-opponent": _ref08("move_values", bug="view"),
    "moves-actions-order": lambda: {"move_values": _moves_reversed},
    "play-value-before-move": _play(value_after=True),
    "play-best-first": _play(best_last=True),
    "play-one-draw": _play(draw_if_epsilon=True),
    "play-target-best-move": _ref08("self_play_episode", bug="explore_value"),
    "play-target-not-own-value": _ref08("self_play_episode", bug="current"),
    "play-weights-unchanged": _play(in_place=True),
    "play-record-copies": _play(shared_record=True),
    "trace-minus-lam": _ref08("self_play_episode", bug="no_sign"),
    "trace-decays": _ref08("self_play_episode", bug="no_decay"),
    "trace-new-each-game": _play(carry=True),
    "leaf-features": _ref08("td_leaf_update", bug="root"),
    "leaf-view-searched-player": _ref08("td_leaf_update", bug="view"),
    "leaf-next-searched": _ref08("td_leaf_update", bug="next_static"),
    "leaf-finished-no-gradient": _leaf(finished_gradient=True),
    "leaf-weights-before": _leaf(updated_next=True),
    "leaf-new-list": lambda: {"td_leaf_update": _leaf_in_place},
}
CORRECT["08_learning"] = _lab08
BREAKERS["08_learning"] = LAB08
