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
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

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
                adjudicate: Callable[[Any, Any], float] | None = None) -> int:
    """Play the tournament with the reference search and the student's evaluation; print the table.

    An evaluation is a function of (state, player), so each pair is asked once: a position the
    searches meet again (a transposition, the next move's search) costs no second call to the kernel.
    """
    known: dict[tuple[Any, Any], float] = {}

    def guarded(state: Any, player: Any) -> float:
        key = (state, player)
        if key not in known:
            known[key] = judged(state, player)
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

    rows = tournament(openings, lambda game: searcher(depth, guarded), baselines,
                          tag=tag, max_plies=max_plies, adjudicate=adjudicate)
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
