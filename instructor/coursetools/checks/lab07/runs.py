"""Lab 07's runs (grader only): one run of a case, compared step by step; the correct search replayed with the
rollouts a student's own run made.

A rollout that draws from elsewhere than the rng it is lent never repeats itself, and one that raises stops the
search: the search groups then read the rollouts off the student's recorded steps (after each expansion, the
steps that continue from the state just expanded to a terminal state), so that only test_rollout charges a
rollout's mistake.
"""

from __future__ import annotations

import random
import traceback
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from course_lib.trace import Traced

from .. import common, kit
from ..common import LentRandom
from ..kit import Case
from . import cases as data
from . import reference as ref
from .explain import read_root


_UCB1, _ROLLOUT = ref.ucb1, ref.rollout  # the lab's own, whatever a lent name holds during a call


def _lent(name: str, fn: Callable[..., Any], args: tuple, shown: str) -> Any:
    """`fn(*args)`; an error it raises says that it was raised in the lab's function, called with what (`shown`)."""
    try:
        return fn(*args)
    except Exception as exc:  # noqa: BLE001 - raised again, in the student's search, with where it came from
        text = (f"{exc} (raised in the lab's {name}, called by your search as {name}({shown}); this test runs your "
                f"search with the lab's {name} in place of yours, test_{name} grades yours)")
        try:
            again = type(exc)(text)
        except Exception:  # noqa: BLE001 - an error that cannot be made with a message of its own
            raise exc from None
        raise again from None


def lab_ucb1(total: Any, visits: Any, parent_visits: Any, c: Any) -> Any:
    """The lab's UCB1, lent to a student's search in place of their ucb1 (test_ucb1 grades theirs)."""
    shown = ", ".join(f"{k}={v!r:.40}" for k, v in
                      (("total", total), ("visits", visits), ("parent_visits", parent_visits), ("c", c)))
    return _lent("ucb1", _UCB1, (total, visits, parent_visits, c), shown)


def lab_rollout(game: Any, state: Any, rng: Any) -> Any:
    """The lab's rollout, lent to a student's search in place of theirs (test_rollout grades theirs): the same moves
    on the grader's game and the same draws from the lent generator as a correct rollout of theirs."""
    return _lent("rollout", _ROLLOUT, (game, state, rng), f"game, {state!r:.80}, rng")


#: What a search or decision group lends the student's functions: the other graded functions they call.
LAB_HELPERS = {"ucb1": lab_ucb1, "rollout": lab_rollout}


def with_lab_helpers(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The student's search or decision, each call made with the lab's ucb1 and rollout lent in place of theirs."""
    return common.lending(fn, LAB_HELPERS)


def steps(game: Traced) -> list:
    """The states `game` generated, as (parent, action), in order."""
    return [(e.parent, e.action) for e in game.trace.events("generate")]


@dataclass
class Seen:
    """What one run did: its answer (as plain data), its generated steps and the generator's state after it."""

    answer: Any
    steps: list
    rng_state: Any
    game: Traced
    clock: kit.AskedBudget | None = None  # a clock case's clock, after the run


#: A clock case's clock answers expired once asked more than ASKS times per iteration given (and ASKS more).
ASKS = 10


def run(fn: Callable[..., Any], case: Case, kind: str, student: bool) -> Seen:
    """`fn` on a traced copy of `case` (a `PlainGame` view when a clock case says so), a fresh generator and clock."""
    game = Traced(case.game)
    rng = LentRandom(case.args[-1] if kind == "rollout" else case.args[1])
    if kind == "rollout":
        args: tuple = (rng,)
    else:  # c = None: the case leaves c out, so the function's own default is used (the course's is math.sqrt(2))
        args = (case.args[0], rng) + (() if case.args[2] is None else (case.args[2],))
    kw = {"clock": kit.AskedBudget(case.args[3], ASKS * case.args[0] + ASKS)} if kind == "clock" else {}
    given = kit.PlainGame(game) if kind == "clock" and case.args[4:] == (True,) else game
    where = f"on {case.name}"
    out = common.call(fn, given, case.state, *args, where=where, **kw) if student else fn(given, case.state, *args, **kw)
    answer = read_root(out, where) if kind == "search" else out
    return Seen(answer, steps(game), rng.getstate(), game, kw.get("clock"))


def model_run(model: Callable[..., Any], case: Case, kind: str) -> Seen | None:
    """A model's run of `case`; None when the model cannot run there."""
    try:
        return run(model, case, kind, student=False)
    except Exception:  # noqa: BLE001 - a model that cannot run on a case reproduces nothing there
        return None


def same_run(a: Seen, b: Seen) -> bool:
    """The same steps, draws and answer."""
    return a.steps == b.steps and a.rng_state == b.rng_state and common.same(a.answer, b.answer)


def repeats(fn: Callable[..., Any], first: Seen, case: Case, kind: str, times: int = 2) -> bool:
    """Whether YOUR `fn`, run `times` more with the same seed on `case`, takes the same steps and draws as `first`
    each time (a search drawing from elsewhere can repeat itself once by chance)."""
    for _ in range(times):
        again = run(fn, case, kind, student=True)
        if again.steps != first.steps or again.rng_state != first.rng_state:
            return False
    return True


class Replay:
    """A rollout that plays the moves a student's own run made (its recorded steps), from the given state to a
    terminal state; it raises when those steps do not continue from that state (no rollout of theirs to replay)."""

    def __init__(self, steps: list) -> None:
        self.steps = steps

    def __call__(self, game: Traced, state: Any, rng: Any) -> Any:
        s = state
        while not game.is_terminal(s):
            i = len(game.trace.events("generate"))
            if i >= len(self.steps) or self.steps[i][0] != s:
                raise LookupError("the student's steps do not continue this rollout")
            s = game.result(s, self.steps[i][1])
        return s



def rollout_wrong(rollout: Callable[..., Any]) -> bool:
    """Whether the student's rollout leaves test_rollout's first public cases elsewhere than the lab's (or raises)."""
    for case in data.rollouts()[:4]:
        game, lent = Traced(case.game), LentRandom(case.args[0])
        try:
            end = common.call(rollout, game, case.state, lent)
        except common.CheckFailed:
            return True
        model, rng = Traced(case.game), random.Random(case.args[0])
        if not common.same(end, ref.rollout(model, case.state, rng)) or steps(game) != steps(model) or \
                lent.getstate() != rng.getstate():
            return True
    return False


def replays(case: Case, mine: Any, ucb: Any, rollout: Any) -> bool:
    """Whether the student's run `mine` (its steps, the rng's state after it, its root as plain data) is the correct
    search, with the lab's ucb1 or the student's own, whose rollouts are the ones the run made. Only a wrong rollout
    that drew nothing from the lent rng is read so (one drawing from elsewhere never repeats itself, so the search
    cannot be run again with it); a search that draws numbers of its own beside a right rollout is never explained
    by its rollouts."""
    iterations, seed, c = case.args
    if rollout is None or mine.rng_state != LentRandom(seed).getstate() or not rollout_wrong(rollout):
        return False
    for u in [ref.ucb1] + ([partial(common.call, ucb)] if ucb is not None else []):
        game, rng = Traced(case.game), LentRandom(seed)
        try:
            root = ref.mcts_search(game, case.state, iterations, rng, ref.SQRT2 if c is None else c, ucb=u,
                                   roll=Replay(mine.steps))
        except (LookupError, common.CheckFailed):
            continue
        if steps(game) == mine.steps and rng.getstate() == mine.rng_state and common.same(read_root(root, ""),
                                                                                             mine.answer):
            return True
    return False


def last_student_frame(exc: BaseException) -> str:
    where = getattr(exc, "student_where", None)  # raised in the kernel: its last student frame
    if where:
        return where[0]
    frames = [f.name for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<string>"]
    return frames[-1] if frames else ""


def stopped_by_rollout(mcts_search: Callable[..., Any], case: Case) -> str:
    """When the student's search raised in their rollout on `case`: what the search did up to there, and why this
    test cannot grade it (it gives its points only to a search seen to run to its end; a rollout that raises on
    purpose must not earn them). Else ""."""
    game, (iterations, seed, c) = Traced(case.game), case.args
    try:
        mcts_search(game, case.state, iterations, LentRandom(seed), *(() if c is None else (c,)))
    except Exception as exc:  # noqa: BLE001 - the student's error, already reported by the group
        if last_student_frame(exc) != "rollout":
            return ""
    else:
        return ""
    mine, model = steps(game), Traced(case.game)
    try:
        ref.mcts_search(model, case.state, iterations, random.Random(seed), ref.SQRT2 if c is None else c,
                        roll=Replay(mine))
    except LookupError:  # the student's steps ran out: the correct search is past their error
        pass
    agree = steps(model)[:len(mine)] == mine
    return ("Your rollout raised this error (test_rollout grades rollout), and it stopped your search, so this test "
            "cannot grade mcts_search here: it gives its points only to a search it has seen run to its end. Up to "
            f"the error your search generated {len(mine)} states, "
            + ("the states the correct search generates with your rollout's moves." if agree else
               "and they are not all the states the correct search generates with your rollout's moves.")
            + " Fix rollout first; this test then grades your search.")
