"""Lab 08's test groups (one TD step, the move values, self-play, eligibility traces): one small function each.

A self-play case lends one grader-owned `LentRandom(seed)` to a few games in a row. The student's record of each
game (one `Step` per move: position, move, value, target, TD error, trace, weights) is compared step by step with
the correct learner REPLAYED FROM THE STUDENT'S OWN STATE at that step (their position, their weights and trace
before it, the generator where the correct draws leave it), so floats never drift apart and a game starts from
the weights the student's previous game returned. Floats agree within `TOL`. The first step that differs is
explained with its numbers (`course_lib.learning.first_wrong_update`); a mistake is named only when its model
reproduces every case of the group seen.
"""

from __future__ import annotations

import math
import random
from functools import partial
from typing import Any, Callable, Sequence

from course_lib.learning import (N_FEATURES, LeafStep, Step, features, first_wrong_leaf_update, first_wrong_update,
                                 pack, shared_note, value)

from coursetools.checks.common import LentRandom

from .. import common, kit
from ..kit import Case, Mistake
from . import cases as data
from . import reference as ref

data = kit.DrawnFirst(data)  # a self-check meets the cases drawn for it first; final grading: as built

TOL = 1e-6  # absolute and relative tolerance on every float of a record
PROOF_CASES = 3
FIELDS = ("state", "action", "value", "target", "error", "trace", "weights")


def close(a: Any, b: Any) -> bool:
    """Numbers within `TOL` (lists of numbers element by element)."""
    if isinstance(b, (list, tuple)) and not isinstance(b, str):
        return isinstance(a, (list, tuple)) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if common.is_number(b):
        return common.is_number(a) and math.isclose(a, b, rel_tol=TOL, abs_tol=TOL)
    return common.same(a, b)


def _weights(w: Any, what: str, n: int = N_FEATURES) -> list:
    if not isinstance(w, (list, tuple)) or len(w) != n or not all(common.is_number(x) for x in w):
        common.fail(f"{what} should be a list of {n} numbers, one weight per feature; it is {w!r:.120}")
    return list(w)


# -- td_update ------------------------------------------------------------------------------------------

def _prove(mistakes: Sequence[Mistake], observed: list[tuple[Case, Any]], run: Callable[[Callable, Case], Any],
           same: Callable[[Any, Any], bool]) -> list[Mistake]:
    named = []
    for m in mistakes:
        try:
            if all(same(run(m.model, c), seen) for c, seen in observed):
                named.append(m)
        except Exception:  # noqa: BLE001 - a model that cannot run on a case reproduces nothing there
            continue
    return named


def _more(todo: list[Case], i: int, run: Callable[[Case], Any]) -> list[tuple[Case, Any]]:
    out = []
    for c in todo[i + 1:i + 1 + PROOF_CASES]:
        try:
            out.append((c, run(c)))
        except common.CheckFailed:
            continue
    return out


def _known(named: Sequence[Mistake], cases: int, advice: str) -> str:
    return kit.known_line(named, cases) if named else f"this matches none of the known mistakes. {advice}"


def check_td_update(td_update: Callable[..., Any]) -> int:
    """One TD(0) step: new weights within TOL of the rule's, on each case."""
    todo = data.td_rows()
    passed: list[tuple[Case, Any]] = []

    def mine(c: Case) -> Any:
        w, f, target, alpha = c.args
        return _weights(common.call(td_update, list(w), list(f), target, alpha, where=f"on {c.name}"),
                        f"td_update on {c.name}", len(w))

    for i, case in enumerate(todo):
        got = mine(case)
        w, f, target, alpha = case.args
        want = ref.td_update(w, f, target, alpha)
        if close(got, want):
            passed.append((case, got))
            continue
        v = value(w, f)
        j = next(k for k in range(len(want)) if not close(got[k], want[k]))
        observed = [(case, got), *passed, *_more(todo, i, mine)]
        named = _prove(ref.TD_MISTAKES, observed, lambda m, c: m(*c.args), close)
        common.fail(
            f"td_update on {case.name}: your new weights first differ from the correct ones at weight {j}.\n"
            f"There the correct step has value v = {v:.4g}, TD error target - v = {target - v:.4g}, slope "
            f"v * (1 - v) = {v * (1 - v):.4g} and feature {j} = {f[j]:.4g}.\n"
            f"Each weight moves by alpha * error * v * (1 - v) * feature, so weight {j} goes from {w[j]:.4g} to "
            f"{want[j]:.4g}.\nYours returned {got[j]:.4g}.",
            _known(named, len(observed), "Compute v = value(weights, features) once, before changing any weight."))
    for case in todo:  # the list given is the caller's: it must come back as it was
        w, f, target, alpha = case.args
        given = list(w)
        common.call(td_update, given, list(f), target, alpha, where=f"on {case.name}")
        if not close(given, list(w)):
            common.fail(f"td_update on {case.name} changed the list of weights it was given: {list(w)} became "
                        f"{given}.", KEEP_WEIGHTS_HINT)
    return len(todo)


KEEP_WEIGHTS_HINT = ("return the new weights as a new list (new = [w + ... for w, f in zip(weights, features)]) and "
                     "leave the list you were given unchanged: its caller still holds it")


# -- move_values ----------------------------------------------------------------------------------------

def check_move_values(move_values: Callable[..., Any]) -> int:
    """The value of each move for the player who makes it, in actions() order."""
    todo = data.positions()
    passed: list[tuple[Case, Any]] = []

    def mine(c: Case) -> Any:
        got = common.call(move_values, c.game, c.state, list(c.args[0]), where=f"on {c.name}")
        if not isinstance(got, (list, tuple)) or not all(isinstance(x, tuple) and len(x) == 2 for x in got):
            common.fail(f"move_values on {c.name} should return a list of (action, value) pairs; it returned "
                        f"{got!r:.120}")
        return [tuple(x) for x in got]

    for i, case in enumerate(todo):
        got = mine(case)
        want = ref.move_values(case.game, case.state, case.args[0])
        if close(got, want):
            passed.append((case, got))
            continue
        j = next((k for k in range(min(len(got), len(want))) if not close(got[k], want[k])), min(len(got), len(want)))
        p = case.game.to_move(case.state)
        lines = [f"move_values on {case.name}: your list first differs from the correct one at move {j + 1}.",
                 "  " + str(case.state).split("\n(")[0].replace("\n", "\n  ")]
        if j < len(want):
            a, v = want[j]
            child = case.game.result(case.state, a)
            if case.game.is_terminal(child):
                lines.append(f"There {p} plays {a}, which ends the game: the correct value is its reward for {p}, "
                             f"{v:.4g} (1 win, 0.5 draw, 0 loss).")
            else:
                q = case.game.to_move(child)
                lines.append(f"There {p} plays {a}; the game goes on with {q} to move, whose value there is "
                             f"{1 - v:.4g}, so the move is worth 1 - {1 - v:.4g} = {v:.4g} to {p}.")
            lines.append(f"Yours gave {got[j]!r:.60}." if j < len(got) else "Yours listed no more moves.")
        else:
            lines.append(f"The correct list has {len(want)} moves, one per action in actions() order; yours has more.")
        observed = [(case, got), *passed, *_more(todo, i, mine)]
        named = _prove(ref.MOVE_MISTAKES, observed, lambda m, c: m(c.game, c.state, c.args[0]), close)
        common.fail("\n".join(lines), _known(named, len(observed),
                                              "List every action in actions() order with its value for the mover."))
    return len(todo)


# -- self-play ------------------------------------------------------------------------------------------

def _step(x: Any, where: str) -> Step:
    if not isinstance(x, tuple) or len(x) != 7:
        common.fail(f"self_play_episode {where}: each item of the record should be a Step (state, action, value, "
                    f"target, error, trace, weights); found {x!r:.120}")
    return Step(*x)


def play(fn: Callable[..., Any], case: Case, student: bool) -> list[tuple[list, list]]:
    """The games of `case` in a row, each call fed the weights the previous one returned: [(weights, record)]."""
    w0, seed, alpha, epsilon, lam, games = case.args
    rng = LentRandom(seed) if student else random.Random(seed)
    extra = () if lam is None else (lam,)
    w, out = list(w0), []
    for g in range(games):
        where = f"on {case.name}, game {g + 1}"
        given = list(w)
        got = common.call(fn, case.game, given, rng, alpha, epsilon, *extra, where=where) if student else \
            fn(case.game, given, rng, alpha, epsilon, *extra)
        if student and not close(given, list(w)):
            common.fail(f"self_play_episode {where} changed the list of weights it was given: {list(w)} became "
                        f"{given}.", KEEP_WEIGHTS_HINT)
        if not isinstance(got, tuple) or len(got) != 2 or not isinstance(got[1], list):
            common.fail(f"self_play_episode {where} should return (weights, record), the record a list of Steps; it "
                        f"returned {got!r:.120}")
        w = _weights(got[0], f"the weights self_play_episode returned {where}")
        out.append((w, [_step(x, where) for x in got[1]]))
    out.append(("rng", rng.getstate()))
    return out


def _same_games(a: list, b: list) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x[0] == "rng":
            if y[0] != "rng" or x[1] != y[1]:
                return False
        elif not (close(x[0], y[0]) and len(x[1]) == len(y[1])
                  and all(s1[0] == s2[0] and s1[1] == s2[1] and close(list(s1[2:]), list(s2[2:]))
                          for s1, s2 in zip(x[1], y[1]))):
            return False
    return True


def _model_play(factory: Callable[[], Callable[..., Any]], case: Case) -> list:
    return play(factory(), case, student=False)


def _first_wrong(case: Case, games: list, fields: Sequence[str], helpers: dict, carry: bool = False) -> str | None:
    """The first step of the student's games that the correct learner, replayed from the student's own state,
    does not take; None when every step agrees. With `carry` the learner replayed keeps its trace from one game
    to the next (the model of a trace never reset: the trace it held before the case is taken as the one that
    explains the student's first step)."""
    w0, seed, alpha, epsilon, lam, _ = case.args
    lam = 0.0 if lam is None else lam
    rng = random.Random(seed)
    w = list(w0)
    compared = ("state", *fields)
    earlier = None  # (game, update) where the trace, which this group does not compare, first differed
    for g, (w_end, record) in enumerate(games[:-1]):
        s = case.game.initial
        if not carry or g == 0:
            trace = [0.0] * N_FEATURES
        if carry and g == 0 and record and lam:
            grad = [record[0].value * (1 - record[0].value) * x for x in features(s, case.game.to_move(s))]
            trace = [(x - e) / lam for x, e in zip(grad, record[0].trace)]
        name = f"{case.name}, game {g + 1}"
        for i, got in enumerate(record):
            if case.game.is_terminal(s):
                return (f"{name}: your record first differs from the correct one at update {i + 1}: the game had "
                        f"ended after update {i} (an episode records one update per move, until the game ends).\n"
                        f"Yours recorded {len(record)} updates.")
            before = rng.getstate()
            given = (got.value, got.target, got.error) if "value" not in fields else None
            want = ref.step(case.game, s, w, trace, rng, alpha, epsilon, lam,
                            action=got.action if "action" not in fields else None, given=given)
            bad = _differ(got, want, fields, s)
            if bad:
                alt = _helpers_step(case, s, w, trace, before, alpha, epsilon, lam, helpers, fields, got)
                if alt is not None and not _differ(got, alt, fields, s):
                    want = alt
                else:
                    message = _explain(case, name, i, s, w, trace, before, alpha, epsilon, lam, fields, got, want,
                                       bad, compared)
                    message += "".join(shared_note(record, f) for f in ("trace", "weights") if f in bad)
                    if earlier is not None:
                        message += (f"\n(Your record's trace, which this test does not compare, already differs from "
                                    f"the correct learner's earlier: at game {earlier[0]}, update {earlier[1]}.)")
                    return message
            if earlier is None and "trace" not in fields and got.state == s and not close(got.trace, want.trace):
                earlier = (g + 1, i + 1)
            w, trace = list(got.weights), list(got.trace)
            s = case.game.result(s, want.action if "action" in fields else got.action)
        if not case.game.is_terminal(s):
            want = ref.step(case.game, s, w, trace, random.Random(), alpha, 0.0, lam)
            return first_wrong_update(name, len(record), want, None, ["length"], compared=compared)
        if not close(w_end, w):
            return (f"{name}: self_play_episode returned weights {[round(x, 4) for x in w_end]}, but its last "
                    f"update left {[round(x, 4) for x in w]}.\nReturn the weights after the last update.")
    if "action" in fields and games[-1][1] != rng.getstate():
        return (f"{case.name}: every update of yours agrees with the correct one, but your games left the generator "
                "in another state than the correct draws do.\nThe lab's order: at each position exactly one "
                "rng.random(), then rng.choice(game.actions(s)) only when that number is below epsilon; nothing else "
                "is drawn.")
    return None


def _explain(case: Case, name: str, i: int, s: Any, w: list, trace: list, before: Any, alpha: float,
             epsilon: float, lam: float, fields: Sequence[str], got: Step, want: Step, bad: list[str],
             compared: Sequence[str] = ()) -> str:
    """The message of the first wrong step, from the student's state before it only (position, weights, trace,
    generator): where the record's own value, target or error (taken as given by a group that does not grade them)
    differ from the correct learner's, that is said first, and the correct learner's numbers are shown."""
    probe = random.Random()
    probe.setstate(before)
    number = probe.random()
    chosen = probe.choice(case.game.actions(s)) if number < epsilon else None
    if "value" not in fields:
        replay = random.Random()
        replay.setstate(before)
        want = ref.step(case.game, s, w, trace, replay, alpha, epsilon, lam, action=got.action)
        own = [f for f in ("value", "target", "error") if not close(getattr(got, f), getattr(want, f))]
        bad = [f for f in bad if f == "state"] + own + [f for f in bad if f != "state"]
    values = ref.move_values(case.game, s, w) if bad[0] == "action" else None
    return first_wrong_update(name, i, want, got, bad, values, TOL, drawn=(number, epsilon, chosen),
                              compared=compared)


def _differ(got: Step, want: Step, fields: Sequence[str], state: Any) -> list[str]:
    bad = []
    if got.state != state:
        bad.append("state")
    for f in fields:
        if f == "action":
            if got.action != want.action:
                bad.append(f)
        elif not close(getattr(got, f), getattr(want, f)):
            bad.append(f)
    return bad


def _helpers_step(case: Case, s: Any, w: list, trace: list, rng_state: Any, alpha: float, epsilon: float,
                  lam: float, helpers: dict, fields: Sequence[str], got: Step) -> Step | None:
    """The correct step computed with the student's own move_values and td_update (graded in their own groups), so a
    mistake there costs nothing here."""
    mv, tu = helpers.get("move_values"), helpers.get("td_update")
    if mv is None and tu is None:
        return None
    rng = random.Random()
    rng.setstate(rng_state)
    try:
        values = (lambda game, state, weights: [tuple(x) for x in common.call(mv, game, state, list(weights))]) \
            if mv is not None else ref.move_values
        given = (got.value, got.target, got.error) if "value" not in fields else None
        st = ref.step(case.game, s, w, trace, rng, alpha, epsilon, lam, values=values,
                      action=got.action if "action" not in fields else None, given=given)
        if tu is not None and lam == 0:
            new_w = common.call(tu, list(w), features(s, case.game.to_move(s)), st.target, alpha)
            st = st._replace(weights=list(new_w))
        return st
    except (common.CheckFailed, Exception):  # noqa: BLE001 - helpers that fail give no alternative
        return None


SELF_PLAY_FIELDS = ("action", "value", "target", "error", "weights")
TRACE_FIELDS = ("trace", "weights")


def _group(fn: Callable[..., Any], todo: list[Case], fields: Sequence[str], mistakes: Sequence[Mistake],
           helpers: dict, advice: str) -> int:
    passed: list[tuple[Case, Any]] = []
    for i, case in enumerate(todo):
        games = play(fn, case, student=True)
        message = _first_wrong(case, games, fields, helpers)
        if message is None:
            passed.append((case, games))
            continue
        observed = [(case, games), *passed, *_more(todo, i, lambda c: play(fn, c, student=True))]
        named = _prove([m for m in mistakes if m.key != "trace_not_reset"], observed, _model_play, _same_games)
        named += [m for m in mistakes if m.key == "trace_not_reset"
                  and all(_first_wrong(c, seen, fields, {}, carry=True) is None for c, seen in observed)]
        common.fail(message, _known(named, len(observed), advice))
    return len(todo)


def check_self_play(self_play_episode: Callable[..., Any], move_values: Callable[..., Any] | None = None,
                    td_update: Callable[..., Any] | None = None) -> int:
    """Self-play with lam left out (0): each step's move, value, target, TD error and weights."""
    return _group(self_play_episode, data.self_play(), SELF_PLAY_FIELDS, ref.SELF_PLAY_MISTAKES,
                  {"move_values": move_values, "td_update": td_update},
                  "Follow the lab's order at each position: value, move values, one rng.random(), the move, the "
                  "target (the best move value), the update.")


def check_traces(self_play_episode: Callable[..., Any]) -> int:
    """Self-play with lam > 0: each step's trace and weights, from your own value, target and move."""
    return _group(self_play_episode, data.traces(), TRACE_FIELDS, ref.TRACE_MISTAKES, {},
                  "Start each game with a trace of zeros; at each step trace = -lam * trace + v * (1 - v) * "
                  "features, then weights += alpha * error * trace.")


# -- TDLeaf ---------------------------------------------------------------------------------------------
#
# A case is a whole game: the group calls td_leaf_update on each position and the next, in a row, from the weights
# the previous call returned, and lends it a search of the grader's (`_lent_search`): a plain function whose body runs
# here, in the grader (nothing of the grader reaches the student's process), returning the leaf of the principal
# variation (`reference.pv_leaf`) and recording what it was asked. Each update is compared with the correct one from
# the student's weights before it.

LEAF_FIELDS = ("leaf", "value", "target", "error", "weights")


def _lent_search(case: Case, asked: list, before: list) -> Callable[..., Any]:
    game, kind = case.game, type(case.game.initial)

    def search(state: Any, depth: Any, weights: Any) -> Any:
        """search(state, depth, weights): the leaf of the principal variation of a depth-limited alpha-beta."""
        if not isinstance(state, kind):
            raise TypeError(f"search(state, depth, weights): state should be a Tic-Tac-Toe position; it is "
                            f"{state!r:.80}")
        if type(depth) is not int or not 0 <= depth <= 9:
            raise ValueError(f"search(state, depth, weights): depth should be an int from 0 to 9; it is "
                             f"{depth!r:.40}")
        if not isinstance(weights, (list, tuple)) or len(weights) != N_FEATURES or \
                not all(common.is_number(x) for x in weights):
            raise ValueError(f"search(state, depth, weights): weights should be a list of {N_FEATURES} numbers; "
                             f"it is {weights!r:.80}")
        asked.append((state.board, depth, close(list(weights), before)))
        return ref.pv_leaf(game, state, depth, list(weights))

    return search


def _leaf_step(x: Any, where: str) -> LeafStep:
    if not isinstance(x, tuple) or len(x) != 5 or not all(common.is_number(v) for v in x[1:4]):
        common.fail(f"td_leaf_update {where} should return LeafStep(leaf, value, target, error, weights), the value, "
                    f"target and error numbers; it returned {x!r:.120}")
    return LeafStep(x[0], x[1], x[2], x[3], _weights(x[4], f"the weights td_leaf_update returned {where}"))


def leaf_play(fn: Callable[..., Any], case: Case, student: bool) -> list[tuple[LeafStep, list, list]]:
    """The updates of `case` in a row: [(the update, the searches it asked for, the weights before it)]."""
    w0, boards, depth, alpha = case.args
    game = case.game
    w, out = list(w0), []
    for t in range(len(boards) - 1):
        s, nxt = game.state_from(boards[t]), game.state_from(boards[t + 1])
        asked: list = []
        if student:
            where = f"on {case.name}, update {t + 1}"
            given = list(w)
            got = _leaf_step(common.call(fn, game, given, s, nxt, _lent_search(case, asked, w), depth, alpha,
                                         where=where), where)
            if not close(given, list(w)):
                common.fail(f"td_leaf_update {where} changed the list of weights it was given: {list(w)} became "
                            f"{given}.", KEEP_WEIGHTS_HINT)
        else:
            got = fn(game, list(w), s, nxt, partial(ref.pv_leaf, game), depth, alpha)
        out.append((got, asked, list(w)))
        w = list(got.weights)
    return out


def _leaf_differ(got: LeafStep, want: LeafStep) -> list[str]:
    bad = []
    if getattr(got.leaf, "board", None) != want.leaf.board or getattr(got.leaf, "to_move", None) != want.leaf.to_move:
        bad.append("leaf")
    return bad + [f for f in LEAF_FIELDS[1:] if not close(getattr(got, f), getattr(want, f))]


def _first_wrong_leaf(case: Case, run: list, td_update: Callable[..., Any] | None) -> str | None:
    w0, boards, depth, alpha = case.args
    game = case.game
    for t, (got, asked, before) in enumerate(run):
        s, nxt = game.state_from(boards[t]), game.state_from(boards[t + 1])
        want = ref.td_leaf_update(game, before, s, nxt, partial(ref.pv_leaf, game), depth, alpha)
        bad = _leaf_differ(got, want)
        if bad == ["weights"] and td_update is not None and not game.is_terminal(want.leaf):
            try:  # the student's own td_update on the leaf's features (graded in test_td_update) is accepted
                mine = common.call(td_update, list(before), features(want.leaf, game.to_move(s)), got.target, alpha)
                if close(list(got.weights), list(mine)):
                    bad = []
            except (common.CheckFailed, Exception):  # noqa: BLE001 - a td_update that fails gives no alternative
                pass
        if bad:
            return first_wrong_leaf_update(case.name, t, s, nxt, depth, want, got, bad, asked,
                                           ref.searched(game, s, nxt, depth),
                                           finished=(game.is_terminal(want.leaf), game.is_terminal(nxt)))
    return None


def _plain_leaves(run: list) -> list:
    return [(getattr(st.leaf, "board", None), st.value, st.target, st.error, list(st.weights)) for st, _, _ in run]


def _same_leaves(a: list, b: list) -> bool:
    x, y = _plain_leaves(a), _plain_leaves(b)
    return len(x) == len(y) and all(p[0] == q[0] and close(list(p[1:4]), list(q[1:4])) and close(p[4], q[4])
                                    for p, q in zip(x, y))


def leaf_public(case_id: str) -> str:
    """A public TDLeaf case as the visible test reads it (`course_lib.learning.leaf_record_message`): its game, start
    weights, depth and alpha, the leaves of every search of its correct run (with the weights searched with) and the
    correct record, packed."""
    case = next(c for c in data.td_leaf() if c.id == case_id)
    w0, boards, depth, alpha = case.args
    game, leaves, record = case.game, [], []
    for t, (st, _, before) in enumerate(leaf_play(ref.td_leaf_update, case, student=False)):
        s, nxt = game.state_from(boards[t]), game.state_from(boards[t + 1])
        wanted = ref.searched(game, s, nxt, depth)
        for board, d, _ in wanted:
            leaves.append([board, d, before, ref.pv_leaf(game, game.state_from(board), d, before).board])
        record.append([st.leaf.board, st.value, st.target, st.error, st.weights, [b for b, _, _ in wanted]])
    return pack({"boards": list(boards), "weights": list(w0), "depth": depth, "alpha": alpha, "leaves": leaves,
                 "record": record})


def check_td_leaf(td_leaf_update: Callable[..., Any], td_update: Callable[..., Any] | None = None) -> int:
    """TDLeaf along whole games: each update's leaf, value, target, TD error and weights, from your weights before it."""
    todo = data.td_leaf()
    passed: list[tuple[Case, Any]] = []
    for i, case in enumerate(todo):
        run = leaf_play(td_leaf_update, case, student=True)
        message = _first_wrong_leaf(case, run, td_update)
        if message is None:
            passed.append((case, run))
            continue
        observed = [(case, run), *passed, *_more(todo, i, lambda c: leaf_play(td_leaf_update, c, student=True))]
        named = _prove(ref.LEAF_MISTAKES, observed, lambda m, c: leaf_play(m, c, student=False), _same_leaves)
        common.fail(message, _known(named, len(observed),
                                    "Search the position and the next one with the same depth and weights; value each "
                                    "leaf for the player to move at the position searched; move the weights along "
                                    "the leaf's features."))
    return len(todo)


def _golden(kind: str) -> Callable[..., Any]:
    def model(game: Any, state: Any, *args: Any) -> Any:
        if kind == "td":
            return ref.td_update(*args)
        if kind == "moves":
            return ref.move_values(game, state, args[0])
        if kind == "leaf":
            case = Case("", "", game, state, args)
            return [(st.leaf.board, st.value, st.target, st.error, st.weights, [list(a) for a in
                     ref.searched(game, game.state_from(args[1][t]), game.state_from(args[1][t + 1]), args[2])])
                    for t, (st, _, _) in enumerate(leaf_play(ref.td_leaf_update, case, student=False))]
        case = Case("", "", game, state, args)
        return [(w, [tuple(s) for s in rec]) if w != "rng" else ("rng", None)
                for w, rec in play(ref.self_play_episode, case, student=False)]
    return model


#: Each group's public cases and correct model: what `python -m coursetools golden` writes down.
GOLDEN = {
    "td_update": (data.td_rows, _golden("td")),
    "move_values": (data.positions, _golden("moves")),
    "self_play": (data.self_play, _golden("play")),
    "traces": (data.traces, _golden("play")),
    "td_leaf": (data.td_leaf, _golden("leaf")),
}
