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


def _count(no_root: bool = False, terminal: int = 1, from_nodes: bool = False) -> Callable[[], dict]:
    def count_nodes(game, state):
        if from_nodes and hasattr(game, "nodes"):
            nodes = game.nodes()
            return len(nodes) if state == nodes[0] else _walk(game, state)
        return _walk(game, state) - (1 if no_root else 0)

    def _walk(game, state):
        if game.is_terminal(state):
            return terminal
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
    "count-only-actions-result": _count(from_nodes=True),
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
    "decision-keeps-action": _flags("minimax_decision", returns="value"),
    "decision-every-action": _flags("minimax_decision", early="first"),
    "decision-to-move": _flags("minimax_decision", turns="depth"),
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
    "fail-soft": _ab("alphabeta_value", fail_hard=True),
    "fail-soft-at-the-end": _ab("alphabeta_value", v_window=True),
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
