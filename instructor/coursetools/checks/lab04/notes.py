"""Notes of lab 04's correct searches for the first-wrong-step explainer (`course_lib.explain`): alpha-beta with
each node's children in key order (the order and the keys kept in each frame), depth-limited, and iterative deepening
as one such search per depth with the previous depth's best action first at the root."""

from __future__ import annotations

import math
from typing import Any, Callable, Hashable, Iterator

from course_lib.explain import Frame, Note, first_wrong_step, num

from ..explainer import snapshot, take_cuts, search_kind


def ordered_notes(game: Any, state: Hashable, key: Callable[[Any, Any], Any] | None = None, depth: float = math.inf,
                  evaluate: Callable | None = None, root_order: list | None = None) -> tuple[Any, list[Note]]:
    """The course's fail-soft alpha-beta (prunes on equality) with each node's children sorted by `key` (stable;
    None: actions() order), `depth` plies deep (then `evaluate(state, root player)`), the root's actions in
    `root_order` when given: its value and a note per step."""
    player = game.to_move(state)
    notes: list[Note] = []
    path: list[Frame] = []
    pending: list[tuple] = []

    def search(s: Hashable, a: float, b: float, d: float) -> Any:
        if game.is_terminal(s):
            notes.append(Note(("utility", s), snapshot(path), take_cuts(pending)))
            return game.utility(s, player)
        if d == 0:
            notes.append(Note(("evaluate", s), snapshot(path), take_cuts(pending)))
            return evaluate(s, player)
        maxing = game.to_move(s) == player
        acts = list(game.actions(s))
        order: list = []
        if root_order is not None and not path:
            acts = list(root_order)
            if acts != list(game.actions(s)):
                order = [(game.result(s, x), None) for x in acts]
        elif key is not None:
            keys = {x: key(s, x) for x in acts}
            acts = sorted(acts, key=lambda x: keys[x])
            order = [(game.result(s, x), keys[x]) for x in acts]
        frame = Frame(s, search_kind(game, s, maxing), a, b, -math.inf if maxing else math.inf, width=len(acts),
                      order=order)
        path.append(frame)
        for x in acts:
            child = game.result(s, x)
            notes.append(Note(("generate", child), snapshot(path), take_cuts(pending)))
            frame.done.append((child, None))
            w = search(child, frame.alpha, frame.beta, d - 1)
            frame.done[-1] = (child, w)
            if maxing:
                frame.v = max(frame.v, w)
                if frame.v >= frame.beta:
                    return leave(frame, len(frame.done) < frame.width)
                frame.alpha = max(frame.alpha, frame.v)
            else:
                frame.v = min(frame.v, w)
                if frame.v <= frame.alpha:
                    return leave(frame, len(frame.done) < frame.width)
                frame.beta = min(frame.beta, frame.v)
        return leave(frame, False)

    def leave(frame: Frame, cut: bool) -> Any:
        if cut:
            pending.append(snapshot(path))
        path.pop()
        return frame.v

    value = search(state, -math.inf, math.inf, depth)
    notes.append(Note(None, (), take_cuts(pending)))
    return value, notes


def _depths(game: Any, state: Hashable, max_depth: int, evaluate: Callable) -> Iterator[tuple[int, list, Any, list]]:
    """The correct iterative deepening, depth by depth: (depth, the root's actions in the order searched, the
    previous depth's best action or None, the notes of that depth's search)."""
    best = None
    for d in range(1, max_depth + 1):
        acts = list(game.actions(state))
        if best is not None:
            acts = [best] + [a for a in acts if a != best]
        yield d, acts, best, ordered_notes(game, state, None, d, evaluate, root_order=acts)[1]
        best = _choice(game, state, acts, d, evaluate)


def deepening_where(case_name: str, game: Any, state: Hashable, max_depth: int, evaluate: Callable,
                    got: list[tuple], name: Callable[[Hashable], str] = str) -> str | None:
    """The first wrong step of an iterative deepening (its steps `got`): the depth it is in, the order of the root's
    actions at that depth (the previous depth's best first), and the first wrong step inside that depth."""
    start = 0
    for d, acts, best, notes in _depths(game, state, max_depth, evaluate):
        steps = [n.step for n in notes if n.step is not None]
        end = start + len(steps)
        if (got[start:end] != steps or (d == max_depth and len(got) != end)
                or (len(got) > end and _goes_on(game, state, got[end]))):
            order = ", ".join(f"{a!r}" for a in acts)
            lead = (f"the root's actions in actions() order, {order}" if best is None else
                    f"the root's actions in the order {order}: depth {d - 1}'s best action, {best!r}, first, then the "
                    "others in actions() order")
            where = (f"{case_name}, depth {d} of {max_depth} (after the {start} steps of depths 1..{d - 1}; it searches "
                     f"{lead}, each to depth {d - 1})" if d > 1 else
                     f"{case_name}, depth 1 of {max_depth} (it searches {lead}, each to depth 0: valued at once)")
            return first_wrong_step(where, game, notes, got[start:], name)
        start = end
    return None


def wrong_evaluation(case_name: str, game: Any, state: Hashable, max_depth: int, evaluate: Callable,
                     got: list[Any], name: Callable[[Hashable], str] = str) -> str | None:
    """The first state the student's iterative deepening (its generate/utility/evaluate events `got`) valued with
    evaluate for another player than the root's, at a step before any step differs from the correct search; None
    when there is none. A value comes before every step that depends on it (the next depth's order), so it is told
    first."""
    player, start = game.to_move(state), 0
    for d, _, _, notes in _depths(game, state, max_depth, evaluate):
        steps = [n.step for n in notes if n.step is not None]
        for i, step in enumerate(steps, start):
            if i >= len(got) or (got[i].kind, got[i].node) != step:
                return None
            g = got[i]
            if g.kind != "evaluate" or g.player == player:
                continue
            leaf = name(g.node)
            return (f"{case_name}, depth {d} of {max_depth}: your search first differs from the correct one at step "
                    f"{i + 1}, where it values {leaf} with evaluate.\n"
                    f"The correct search values every state at its depth limit for the player to move at the root, "
                    f"{player!r}: evaluate({leaf}, {player!r}) = {num(evaluate(g.node, player))}.\n"
                    f"Yours asked evaluate({leaf}, {g.player!r}) = {num(g.value)}.")
        start += len(steps)
    return None


def _goes_on(game: Any, state: Hashable, step: tuple) -> bool:
    """Whether a step the student made just after a depth's last correct step carries that depth on: every depth
    starts by making a root child, so any other step belongs to the depth before (which the correct search had
    ended there: its last note says why, e.g. a cut)."""
    roots = [game.result(state, a) for a in game.actions(state)]
    return not (step[0] == "generate" and step[1] in roots)


def _choice(game: Any, state: Hashable, acts: list, d: int, evaluate: Callable) -> Any:
    """The action a depth-`d` search picks: the first best in the order searched (alpha passed down, fail-soft)."""
    player, choice, alpha = game.to_move(state), None, -math.inf
    for a in acts:
        v = _value(game, game.result(state, a), alpha, d - 1, evaluate, player)
        if choice is None or v > alpha:
            choice, alpha = a, v
    return choice


def _value(game: Any, s: Hashable, alpha: float, d: float, evaluate: Callable, player: Any,
           beta: float = math.inf) -> Any:
    if game.is_terminal(s):
        return game.utility(s, player)
    if d == 0:
        return evaluate(s, player)
    maxing = game.to_move(s) == player
    v = -math.inf if maxing else math.inf
    for a in game.actions(s):
        w = _value(game, game.result(s, a), alpha, d - 1, evaluate, player, beta)
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
