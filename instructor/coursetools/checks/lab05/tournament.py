"""Lab 05's tournaments and the checks every evaluation function gets (grader only).

- Baseline heuristics the students' evaluations play against (weak on purpose), and agents.
- `tournament`: seeded, deterministic matches (both sides of every opening) between a student's
  agent and baseline agents, with a text table of the results. No clock is read anywhere: the
  same seed gives the same games and the same grade.
- `check_properties` (a number strictly inside (-1, 1), the same twice, exactly opposite for the
  two players), `check_ranking` (a series of positions in increasing order) and `play_tournament`
  (the reference search with the student's evaluation against the baselines).
"""

from __future__ import annotations

import random
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from .. import common
from .reference import searcher

Agent = Callable[[Any, Any], Any]


# -- baseline heuristics (weak on purpose) ----------------------------------------------------

def isolation_mobility(game: Any) -> Callable[[Any, Any], float]:
    """Own moves minus the opponent's, scaled into (-1, 1)."""
    scale = 4 * (game.size - 1) + 1

    def mobility(state: Any, player: Any) -> float:
        return (game.mobility(state, player) - game.mobility(state, game.opponent(player))) / scale

    return mobility


def isolation_own_moves(game: Any) -> Callable[[Any, Any], float]:
    """Own moves only: a heuristic that ignores the opponent."""
    scale = 4 * (game.size - 1) + 1

    def own_moves(state: Any, player: Any) -> float:
        return game.mobility(state, player) / scale

    return own_moves


def connect_four_centre(game: Any) -> Callable[[Any, Any], float]:
    """Discs in the centre column, own minus the opponent's, scaled into (-1, 1)."""
    cols, rows = game.cols, game.rows
    middle = cols // 2
    cells = [r * cols + middle for r in range(rows)]

    def centre(state: Any, player: Any) -> float:
        other = game.opponent(player)
        column = [state.board[i] for i in cells]
        return (column.count(player) - column.count(other)) / (rows + 1)

    return centre


def food_score(game: Any) -> Callable[[Any, Any], float]:
    """Food eaten, own minus the opponent's, scaled into (-1, 1); blind to where the food is."""

    def score(state: Any, player: Any) -> float:
        me = 0 if player == game.players[0] else 1
        total = bin(state.food).count("1") + state.scores[0] + state.scores[1]
        return (state.scores[me] - state.scores[1 - me]) / (total + 1)

    return score


# -- agents -------------------------------------------------------------------------------------

def random_agent(seed: str) -> Agent:
    """An agent that plays uniformly at random, from its own seeded generator."""
    rng = random.Random(seed)
    return lambda game, state: rng.choice(game.actions(state))


# -- tournaments --------------------------------------------------------------------------------

@dataclass
class Opening:
    """Where a game starts: a game (board) and a state of it."""

    game: Any
    state: Any
    name: str


@dataclass
class Baseline:
    """An opponent: `make(game, seed)` builds its agent; the student must score at least `threshold`."""

    name: str
    make: Callable[[Any, str], Agent]
    threshold: float


@dataclass
class Row:
    """The student's results against one baseline."""

    baseline: Baseline
    wins: int = 0
    draws: int = 0
    losses: int = 0
    lost_games: list[str] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Wins count 1, draws 1/2, as a fraction of the games."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def passed(self) -> bool:
        return self.score >= self.baseline.threshold - 1e-12


def play(game: Any, state: Any, agents: dict, max_plies: int,
         adjudicate: Callable[[Any, Any], float] | None = None) -> float:
    """Play from `state` to the end (or `max_plies`); the result for ``game.players[0]``."""
    for _ in range(max_plies):
        if game.is_terminal(state):
            return game.utility(state, game.players[0])
        state = game.result(state, agents[game.to_move(state)](game, state))
    if game.is_terminal(state):
        return game.utility(state, game.players[0])
    return adjudicate(game, state) if adjudicate else 0


def tournament(openings: Sequence[Opening], student: Callable[[Any], Agent], baselines: Sequence[Baseline], *,
               tag: str, max_plies: int = 200,
               adjudicate: Callable[[Any, Any], float] | None = None) -> list[Row]:
    """Every baseline plays every opening twice against the student's agent, once on each side."""
    rows = []
    for baseline in baselines:
        row = Row(baseline)
        for i, opening in enumerate(openings):
            game = opening.game
            first, second = game.players[:2]
            for student_first in (True, False):
                seed = f"{tag}/{baseline.name}/{i}/{student_first}"
                mine, theirs = student(game), baseline.make(game, seed)
                agents = {first: mine, second: theirs} if student_first else {first: theirs, second: mine}
                u = play(game, opening.state, agents, max_plies, adjudicate)
                u = u if student_first else -u
                if u > 0:
                    row.wins += 1
                elif u < 0:
                    row.losses += 1
                    row.lost_games.append(f"{opening.name}, you as {first if student_first else second}")
                else:
                    row.draws += 1
        rows.append(row)
    return rows


def table(rows: Sequence[Row], title: str) -> str:
    """The results as text: one line per baseline, the threshold and whether it was met."""
    lines = [title,
             f"  {'opponent':34} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4} {'score':>6} {'needed':>6}"]
    for r in rows:
        mark = "ok" if r.passed else "TOO LOW"
        lines.append(f"  {r.baseline.name:34} {r.games:5} {r.wins:4} {r.draws:5} {r.losses:4} "
                     f"{r.score:6.0%} {r.baseline.threshold:6.0%}  {mark}")
    return "\n".join(lines)


# -- properties of evaluation functions -------------------------------------------------------------

def _value(fn: Callable[..., Any], name: str, state: Any, player: Any, text: str) -> float:
    v = common.call(fn, state, player, where=f"on this position with player={player!r}:\n{text}\n")
    if not common.is_number(v) or v != v:
        common.fail(f"{name}(state, {player!r}) should return a number (int or float), but it returned "
                    f"{v!r:.80} ({type(v).__name__}) on this position:\n{text}",
                    "return a plain Python number: float(...) turns a numpy number into one.")
    return v


def check_properties(fn: Callable[..., Any], name: str, game: Any, states: Sequence[Any]) -> int:
    """A number strictly inside (-1, 1), the same twice, opposite for the two players, on every state."""
    p1, p2 = game.players[:2]
    for state in states:
        text = game.display(state)
        a = _value(fn, name, state, p1, text)
        b = _value(fn, name, state, p2, text)
        for player, v in ((p1, a), (p2, b)):
            if not -1 < v < 1:
                common.fail(f"{name}(state, {player!r}) = {v!r} on this position:\n{text}\n"
                            "Evaluations must stay strictly between -1 and 1.",
                            "a win is worth +1 and a loss -1 (the utilities): an estimate of an unfinished "
                            "game must never look as good as a win. Divide by a bound of what you count, "
                            "for example (mine - theirs) / (mine + theirs + 1).")
        again = _value(fn, name, state, p1, text)
        if not common.same(again, a):
            common.fail(f"{name} gave two different values for the same position and player "
                        f"({a!r}, then {again!r}):\n{text}",
                        "an evaluation depends only on the state and the player: no randomness, no memory "
                        "of earlier calls.")
        if not common.same(b, -a):
            common.fail(f"{name} is not symmetric between the players on this position:\n{text}\n"
                        f"  {name}(state, {p1!r}) = {a!r}\n  {name}(state, {p2!r}) = {b!r}  "
                        f"(expected {-a!r}, the opposite)",
                        "in a zero-sum game what is good for one player is equally bad for the other: "
                        "evaluate(state, opponent) must be exactly -evaluate(state, player). Count what is "
                        "good for the player MINUS the same thing for the opponent: a heuristic that "
                        "ignores the opponent is not symmetric.")
    return len(states)


def check_ranking(fn: Callable[..., Any], name: str, game: Any, series: Sequence[tuple[str, Any]],
                  player: Any, why: str) -> None:
    """The positions of `series` must get strictly increasing values for `player`."""
    in_order(fn, name, game, series, player, why)


def check_outweighs(fn: Callable[..., Any], name: str, game: Any, pair: Sequence[tuple[str, Any]],
                    player: Any, why: str) -> None:
    """The second position of `pair` (one more point for `player`, the worst distances) must be worth more for
    `player` than the first (equal scores, the best distances): a part of its own, after the ranking."""
    in_order(fn, name, game, pair, player, why)


def in_order(fn: Callable[..., Any], name: str, game: Any, series: Sequence[tuple[str, Any]],
             player: Any, why: str) -> None:
    values = [_value(fn, name, s, player, game.display(s)) for _, s in series]
    for i in range(1, len(series)):
        if not values[i] > values[i - 1]:
            (da, a), (db, b) = series[i - 1], series[i]
            common.fail(
                f"{name} does not rank these positions in order for {player!r}. The second is better for "
                f"{player!r} ({db}) than the first ({da}), but yours gives "
                f"{values[i]!r} <= {values[i - 1]!r}.\nFirst:\n{game.display(a)}\nSecond:\n{game.display(b)}\n"
                f"All values along the series: {[round(v, 4) for v in values]}", why)


def play_tournament(fn: Callable[..., Any], name: str, openings: list[Opening], depth: int,
                baselines: list[Baseline], *, title: str, tag: str, max_plies: int = 200,
                adjudicate: Callable[[Any, Any], float] | None = None,
                yardstick: Yardstick | None = None) -> int:
    """Play the tournament with the reference search and the student's evaluation; print the table.

    An evaluation is a function of (state, player), so each pair is asked once: a position the
    searches meet again (a transposition, the next move's search) costs no second call to the kernel.
    Every `PACE_EVERY`-th call is timed beside `yardstick` (`Pace`), so that a tournament stopped at the
    time limit can say whether each call is slow.
    """
    known: dict[tuple[Any, Any], float] = {}
    pace = Pace(yardstick) if yardstick else None

    def guarded(state: Any, player: Any) -> float:
        key = (state, player)
        if key not in known:
            timed = pace is not None and len(known) % PACE_EVERY == 0
            known[key] = pace.timed(judged, state, player) if timed else judged(state, player)
        return known[key]

    def judged(state: Any, player: Any) -> float:
        try:
            v = fn(state, player)
        except common.CheckFailed:
            raise
        except Exception:
            return _value(fn, name, state, player, str(state))  # reports the error in the student's words
        if not common.is_number(v) or not -1 < v < 1:
            _value(fn, name, state, player, str(state))
            common.fail(f"{name}(state, {player!r}) = {v!r} during a tournament game, on this position:\n"
                        f"{state}\nEvaluations must stay strictly between -1 and 1.")
        return v

    from coursetools.hidden import CheckTimeout

    try:
        rows = tournament(openings, lambda game: searcher(depth, guarded), baselines,
                          tag=tag, max_plies=max_plies, adjudicate=adjudicate)
    except CheckTimeout:
        raise common.CheckFailed(stopped_in_tournament(name, len(known), pace)) from None
    text = table(rows, title)
    print(text)
    bad = [r for r in rows if not r.passed]
    if bad:
        lost = "; ".join(bad[0].lost_games[:4])
        common.fail(f"{name} did not reach the needed score against {', '.join(r.baseline.name for r in bad)}.\n"
                    f"{text}\nSome games lost against {bad[0].baseline.name}: {lost}",
                    "watch a lost game with your agent (the notebook's play cell): where does your "
                    "evaluation prefer a position that turns out badly? Make sure it counts what matters for "
                    "BOTH players.")
    return sum(r.games for r in rows)

# -- time: whether each call of an evaluation is slow ----------------------------------------------

@dataclass(frozen=True)
class Yardstick:
    """A correct evaluation ``evaluate(state, player)`` to time the student's against, and its name."""

    label: str
    evaluate: Callable[[Any, Any], float]


PACE_EVERY = 16      # time one call in this many of the student's evaluation in the games
PACE_SECONDS = 0.1   # and give a figure once the calls timed have used this much processor time together


@dataclass
class Pace:
    """Processor seconds of the calls timed (every `PACE_EVERY`-th call of the games): the student's evaluation
    (its kernel and the grader's side of the channel together, read from outside the kernel) and a correct
    evaluation's on the same positions (in the grader)."""

    yardstick: Yardstick
    calls: int = 0
    yours: float = 0.0
    correct: float = 0.0

    @property
    def readable(self) -> bool:
        """Whether the calls timed spanned enough clock ticks (10 ms each) to give a figure."""
        return self.calls > 0 and self.yours >= PACE_SECONDS

    def timed(self, judged: Callable[[Any, Any], float], state: Any, player: Any) -> float:
        """`judged(state, player)`, timed in processor seconds, and the yardstick on the same position."""
        from coursetools.hidden import processor_seconds

        start = processor_seconds()
        v = judged(state, player)
        end = processor_seconds()
        if start is None or end is None:
            return v
        t = time.process_time()
        self.yardstick.evaluate(state, player)
        self.correct += time.process_time() - t
        self.yours += end - start
        self.calls += 1
        return v


def ms(seconds: float) -> str:
    """Seconds as milliseconds with two significant figures: ``8.7 ms``, ``0.014 ms``, ``12 ms``."""
    v = seconds * 1000
    return f"{v:.0f} ms" if v >= 10 else f"{v:.2g} ms"


def stopped_in_tournament(name: str, answered: int, timed: Pace | None) -> str:
    """What a student reads when the tournament ran past the time limit: each call is slow when the calls
    answered, at the pace of those timed, account for half the limit or more; else both possibilities."""
    from coursetools.hidden import TIME_LIMIT_SECONDS, processor_limit

    limit = processor_limit() or TIME_LIMIT_SECONDS
    head = (f"{name}: the tournament was stopped when this test had used its {limit:g} s of processor time, "
            f"after your {name} had answered {answered:,} positions.")
    either = f"{EITHER}: the search calls your evaluation at every position where it stops. {TIME_YOURS}"
    if timed is None or not timed.readable:
        return f"{head} {either}"
    per, correct = timed.yours / timed.calls, timed.correct / timed.calls
    measured = (f"Timed on {timed.calls:,} of those positions (one in {PACE_EVERY}), a call of yours took {ms(per)} "
                f"of processor time on average (your kernel's time and the grader's for passing each position to "
                f"it), and {timed.yardstick.label} {ms(correct)} on the same positions.")
    if answered * per < limit / 2:
        return f"{head} {measured} {either}"
    return (f"{head} Each call of yours is slow. {measured} At that pace the {answered:,} calls account for "
            f"about {answered * per:.0f} s of the {limit:g} s. Make each call cheaper: the search calls your "
            "evaluation at every position where it stops.")


EITHER = ("Either one call of yours never returned (an endless loop, or a search inside your evaluation that never "
          "stops), or each call is slow")
TIME_YOURS = "Time a few calls of yours on the notebook's positions."


@contextmanager
def told_over_time(name: str, games: bool = False) -> Iterator[None]:
    """An evaluation's test group (with a tournament: `games`) stopped at the time limit outside a tournament:
    one call of the evaluation ran that long, or a great many calls did; say both."""
    from coursetools.hidden import TIME_LIMIT_SECONDS, CheckTimeout, processor_limit

    try:
        yield
    except CheckTimeout:
        limit = processor_limit() or TIME_LIMIT_SECONDS
        raise common.CheckFailed(f"{name}: this test was stopped when it had used its {limit:g} s of processor "
                                 f"time, on single positions{' (before any tournament game)' if games else ''}. {EITHER}. "
                                 f"{TIME_YOURS}") from None


# -- the tournaments of the open evaluations -----------------------------------------------------

ISOLATION_DEPTH = 3
FOOD_DEPTH = 3
FOOD_MAX_PLIES = 40


def zero(state: Any, player: Any) -> float:
    """The constant evaluation: every unfinished position looks like a draw."""
    return 0


def isolation_baselines(depth: int) -> list[Baseline]:
    return [
        Baseline("random moves", lambda g, seed: random_agent(seed), 0.70),
        Baseline("greedy one-ply (mobility)", lambda g, seed: searcher(1, isolation_mobility(g)), 0.50),
        Baseline(f"depth {depth}, evaluation 0", lambda g, seed: searcher(depth, zero), 0.70),
    ]


def food_adjudicate(game: Any, state: Any) -> float:
    """A game stopped after FOOD_MAX_PLIES plies goes to whoever has eaten more."""
    d = state.scores[0] - state.scores[1]
    return (d > 0) - (d < 0)


def food_baselines(depth: int) -> list[Baseline]:
    return [
        Baseline("random moves", lambda g, seed: random_agent(seed), 0.70),
        Baseline("greedy one-ply (score)", lambda g, seed: searcher(1, food_score(g)), 0.60),
        Baseline(f"depth {depth}, score difference only", lambda g, seed: searcher(depth, food_score(g)),
                 0.65),
    ]
