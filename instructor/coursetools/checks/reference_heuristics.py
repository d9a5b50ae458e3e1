"""Reference pieces of lab 05 (heuristics and tournaments). Grader-only.

- `depth_limited_value` / `depth_limited_decision`: alpha-beta to a fixed depth in
  plies, following the course's conventions: values from the root player's view, terminal states
  valued by `utility` (at any depth), ``evaluate(state, root_player)`` called only on
  non-terminal states at depth 0, fail-soft pruning on equality, children in
  actions() order, the first best action.
- Baseline heuristics the students' evaluations play against (weak on purpose).
- `tournament`: seeded, deterministic matches (both sides of every opening) between a
  student's agent and baseline agents, with a text table of the results. No clock is
  read anywhere: the same seed gives the same games and the same grade.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

INF = math.inf
Agent = Callable[[Any, Any], Any]


# -- depth-limited alpha-beta ---------------------------------------------------------------

def _search(game: Any, state: Any, depth: int, alpha: float, beta: float, player: Any,
            evaluate: Callable[[Any, Any], float]) -> float:
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        return evaluate(state, player)
    if game.to_move(state) == player:
        v = -INF
        for a in game.actions(state):
            v = max(v, _search(game, game.result(state, a), depth - 1, alpha, beta, player, evaluate))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v
    v = INF
    for a in game.actions(state):
        v = min(v, _search(game, game.result(state, a), depth - 1, alpha, beta, player, evaluate))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


def depth_limited_value(game: Any, state: Any, depth: int, evaluate: Callable[[Any, Any], float]) -> float:
    """Alpha-beta value of `state` searched `depth` plies deep (depth 0: evaluate now)."""
    return _search(game, state, depth, -INF, INF, game.to_move(state), evaluate)


def depth_limited_decision(game: Any, state: Any, depth: int, evaluate: Callable[[Any, Any], float]) -> Any:
    """The first best action, each root action searched ``depth - 1`` plies below its child."""
    player = game.to_move(state)
    best, alpha = None, -INF
    for a in game.actions(state):
        v = _search(game, game.result(state, a), depth - 1, alpha, INF, player, evaluate)
        if best is None or v > alpha:
            best, alpha = a, v
    return best


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

def searcher(depth: int, evaluate: Callable[[Any, Any], float]) -> Agent:
    """An agent that plays `depth_limited_decision` with `evaluate`."""
    return lambda game, state: depth_limited_decision(game, state, depth, evaluate)


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
