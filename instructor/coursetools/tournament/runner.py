"""``python -m coursetools tournament LAB``: a class tournament of the students' graded agents.

Every student whose submission of LAB holds the graded function of the lab's *event* (see `EVENTS`)
plays every other one, from the same fixed openings, once with each colour; the course's house agents
play too, as fixed points of the scale. Each student's agent runs in a sandboxed kernel of its own
(`coursetools.tournament.agents`); the coordinator, this process, keeps the board, asks for moves and
decides every game:

- an **evaluation** event (lab 05) searches in the coordinator: iterative-deepening alpha-beta under a
  `NodeBudget` of the coordinator's own, on its own game, calling the student's evaluation over the
  channel (about 0.3 ms a call, and each (state, player) is asked once). So the moves are legal, the
  node count is the coordinator's, and the student's code decides only the values; a value that is not
  a number strictly between -1 and 1 is an illegal answer;
- a **decision** event (lab 07) asks the student's decision function for a move, giving it the course
  game by value (the search runs at full speed in the kernel, on its own copy), a fixed iteration
  budget and a random generator of the kernel seeded from the tournament's seed; the coordinator checks
  that the move is one of ``actions(state)``. Tracing its game instead would send each ``result`` call
  back here: a few thousand round trips a move, seconds instead of milliseconds.

A crash (an exception, a dead kernel, a broken channel), a hang (a move past its processor-time limit,
counted in this process and the kernel) or an illegal move or value loses that game; the page names
the agent, the game and what happened. The seed (``--seed``, else ``COURSE_SECRET_SEED``, else a fixed
default) decides the openings and the random generators; no clock decides anything, so the same
class gives the same leaderboard on any machine.

Output, beside the grades export (``exports/``): ``<lab>-tournament.html`` (leaderboard with points and
Elo ratings with their uncertainty, head-to-head table, forfeits, every game), ``<lab>-tournament.png``
(the ratings), ``<lab>-tournament.csv`` (the games), and a replay figure of a game
(``<lab>-replay-<game id>.png``: the final between the two best agents, or ``--replay GAME_ID``).
"""

from __future__ import annotations

import csv
import hashlib
import html
import math
import os
import random
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from course_lib.clock import NodeBudget

from coursetools.grading.sanitize import PAGE_CSP as CSP
from coursetools.sandbox.safecopy import copy_submission, limits, printable, read_regular
from coursetools.tournament.agents import RANDOM_NAME, AgentFault, AgentKernel

DEFAULT_SEED = "course-tournament"
LOAD_AT_ONCE = 8  # kernels starting together (a lab 05 kernel holds about 105 MB)
INF = math.inf


# --- the coordinator's search (evaluation events) --------------------------------------------------------------

class OutOfNodes(Exception):
    """The move's node budget ran out in the middle of a depth."""


def _alphabeta(game: Any, state: Any, depth: int, alpha: float, beta: float, player: Any,
               evaluate: Callable[[Any, Any], float], clock: NodeBudget, seen: dict) -> float:
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        seen["cut"] = True
        return evaluate(state, player)
    maximise = game.to_move(state) == player
    v = -INF if maximise else INF
    for a in game.actions(state):
        if clock.expired():
            raise OutOfNodes()
        child = _alphabeta(game, game.result(state, a), depth - 1, alpha, beta, player, evaluate, clock, seen)
        if maximise:
            v = max(v, child)
            if v >= beta:
                return v
            alpha = max(alpha, v)
        else:
            v = min(v, child)
            if v <= alpha:
                return v
            beta = min(beta, v)
    return v


def budget_decision(game: Any, state: Any, evaluate: Callable[[Any, Any], float], nodes: int,
                    max_depth: int = 30) -> tuple[Any, int, int]:
    """(action, deepest depth completed, states generated): alpha-beta at depth 1, 2, ... until `nodes`
    generated states (``result`` calls, counted by a `NodeBudget` on this process's game) run out; the
    move of the deepest completed depth, the first best in ``actions()`` order (depth 0: the first action)."""
    clock = NodeBudget(nodes)
    watched = clock.watch(game)
    player = game.to_move(state)
    actions = game.actions(state)
    best, done = actions[0], 0
    for depth in range(1, max_depth + 1):
        seen = {"cut": False}
        try:
            choice, alpha = None, -INF
            for a in actions:
                if clock.expired():
                    raise OutOfNodes()
                v = _alphabeta(watched, watched.result(state, a), depth - 1, alpha, INF, player, evaluate, clock,
                               seen)
                if choice is None or v > alpha:
                    choice, alpha = a, v
        except OutOfNodes:
            break
        best, done = choice, depth
        if not seen["cut"]:  # every line reached its end: a deeper search finds nothing new
            break
    return best, done, clock.used


# --- events ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Event:
    """What a lab's tournament plays: the graded function, the game, how a move is asked, the budgets."""

    lab: str
    name: str
    function: str                 # the graded function each student's agent is made of
    kind: str                     # "evaluation" (the coordinator searches) or "decision" (the student's search)
    game: Callable[[], Any]       # the game (course_lib)
    openings: Callable[[Any, random.Random, int], list]  # (game, rng, count) -> start states
    budget: int                   # nodes per move (evaluation) or iterations per move (decision)
    openings_count: int = 2
    max_plies: int = 60           # past it, `adjudicate` (or a draw) decides
    move_seconds: float = 5.0     # processor seconds per move (this process and the kernel)
    house: tuple = ()             # (name, make(game) -> evaluation or agent) of the course's own agents
    adjudicate: Callable[[Any, Any], float] | None = None
    board: Callable[[Any], Any] | None = None  # state -> a state `course_lib.draw.draw_board` can draw
    title: str = ""
    # decision events: how a move is asked, ask(kernel, game, state, budget, seed) -> the kernel's answer
    ask: Callable[..., Any] | None = None
    also: tuple = ()              # other graded functions the agent uses (served by the same kernel)
    demo: tuple = ()              # (option, value) pairs `make demo` plays with, to keep it short

    @property
    def functions(self) -> list[str]:
        return [self.function, *self.also]


def ask_mcts(k: AgentKernel, game: Any, state: Any, budget: int, seed: str) -> Any:
    """Lab 07: ``mcts_decision(game, state, iterations, rng, clock=clock)`` with the kernel's own seeded
    `random.Random` and a `NodeBudget` of `budget` generated states counted here, on this process's own
    traced game (the kernel answers on a copy and sends each call as a record, which is made again here).
    `iterations` is `budget` too: an iteration generates at least one state until the tree holds the whole
    rest of the game, where a node budget alone would never run out."""
    clock = NodeBudget(budget)
    return k.call("mcts_decision", clock.watch(game), state, budget, k.call(RANDOM_NAME, seed), clock=clock)


def ask_search(k: AgentKernel, game: Any, state: Any, budget: int, seed: str) -> Any:
    """Lab 05: the student's ``depth_limited_decision(game, state, depth, evaluate)`` with their own
    ``isolation_improved`` (handed back to their kernel, where it runs)."""
    return k.call("depth_limited_decision", game, state, budget, k.proxies["isolation_improved"])


def isolation_openings(game: Any, rng: random.Random, count: int) -> list:
    """Random squares for both pieces, then four random moves; both players keep three moves or more."""
    from course_lib.games import Isolation

    out: list = []
    squares = [(r, c) for r in range(game.size) for c in range(game.size)]
    while len(out) < count:
        a, b = rng.sample(squares, 2)
        s = Isolation(game.size, start=(a, b)).initial
        for _ in range(4):
            if game.is_terminal(s):
                break
            s = game.result(s, rng.choice(game.actions(s)))
        if game.is_terminal(s) or min(game.mobility(s, p) for p in game.players) < 3 or s in out:
            continue
        out.append(s)
    return out


def connect_four_openings(game: Any, rng: random.Random, count: int) -> list:
    """Two random first discs; no opening twice."""
    out: list = []
    while len(out) < count:
        s = game.initial
        for _ in range(2):
            s = game.result(s, rng.choice(game.actions(s)))
        if s not in out:
            out.append(s)
    return out


def isolation_mobility(game: Any) -> Callable[[Any, Any], float]:
    """The house evaluation: own moves minus the opponent's, scaled into (-1, 1)."""
    scale = 4 * (game.size - 1) + 1
    return lambda state, player: (game.mobility(state, player) - game.mobility(state, game.opponent(player))) / scale


def _isolation() -> Any:
    from course_lib.games import Isolation

    return Isolation(5)


def _connect_four() -> Any:
    from course_lib.games import ConnectFour

    return ConnectFour()


EVENTS: dict[str, list[Event]] = {
    "05_heuristics": [
        Event("05_heuristics", "isolation", "isolation_improved", "evaluation", _isolation, isolation_openings,
              budget=150, openings_count=2, max_plies=30,
              house=(("house: mobility", isolation_mobility),),
              title="Isolation 5x5, alpha-beta ({budget} states a move) with each student's isolation_improved"),
        Event("05_heuristics", "isolation_search", "depth_limited_decision", "decision", _isolation,
              isolation_openings, budget=2, openings_count=2, max_plies=30,
              ask=ask_search, also=("isolation_improved",),
              title="Isolation 5x5, each student's own depth_limited_decision at depth {budget} with their "
                    "isolation_improved"),
        Event("05_heuristics", "connect_four", "connect_four_windows", "evaluation", _connect_four,
              connect_four_openings, budget=150, openings_count=2, max_plies=42,
              title="Connect Four 6x7, alpha-beta ({budget} states a move) with each student's connect_four_windows"),
    ],
    # Lab 07: each student's own Monte Carlo tree search, asked for a move with a node budget.
    "07_mcts": [
        Event("07_mcts", "connect_four", "mcts_decision", "decision", _connect_four, connect_four_openings,
              budget=3000, openings_count=2, max_plies=42, move_seconds=10.0, ask=ask_mcts,
              demo=(("budget", 1000), ("openings", 1)),
              title="Connect Four 6x7: each student's mcts_decision, {budget} states a move"),
    ],
}


def find_event(lab: str, name: str | None = None) -> Event:
    """The event `name` of `lab` (default: its first); a clear error for a lab or event without one."""
    events = EVENTS.get(lab)
    if not events:
        raise ValueError(f"no tournament for lab {lab!r}: labs with one are {', '.join(sorted(EVENTS))}")
    if name is None:
        return events[0]
    for e in events:
        if e.name == name:
            return e
    raise ValueError(f"lab {lab} has no tournament event {name!r}: its events are {', '.join(e.name for e in events)}")


ASK_BUDGET = {ask_mcts: "generated states (a node budget counted by the grader), with a random generator seeded "
                        "from the tournament's seed",
              ask_search: "plies deep"}


# --- players and games ----------------------------------------------------------------------------------------

@dataclass
class Player:
    """A student's agent (`kernel`) or a house agent (`local`), under the name the page shows."""

    key: str                      # the student id, or the house agent's name
    shown: str
    kernel: AgentKernel | None = None
    local: Any = None
    memo: dict = field(default_factory=dict)  # (state, player) -> value: each position is asked once
    faults: list = field(default_factory=list)  # (game id, kind, detail)
    house: bool = False


@dataclass
class GameRecord:
    gid: str
    first: str                    # player keys, first = the game's players[0]
    second: str
    opening: int
    start: Any
    moves: list = field(default_factory=list)
    result: float = 0.0           # for `first`: 1 win, 0.5 draw, 0 loss
    ending: str = ""              # how it ended, in words
    forfeit: str | None = None    # the key of the player who lost by a fault
    both_forfeit: bool = False
    depths: list = field(default_factory=list)  # evaluation events: depth reached per move


def pseudonyms(students: list[str], seed: str) -> dict[str, str]:
    """Neutral names in an order that says nothing about the students' names or ids."""
    order = sorted(students, key=lambda s: hashlib.sha256(f"{seed}/pseudonym/{s}".encode()).hexdigest())
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def name(i: int) -> str:
        return letters[i] if i < 26 else name(i // 26 - 1) + letters[i % 26]

    return {s: f"Agent {name(i)}" for i, s in enumerate(order)}


def _derived(seed: str, *parts: Any) -> str:
    """A seed for the kernel made from the tournament's seed: it says nothing about the seed itself."""
    return hashlib.sha256("/".join([seed, *map(str, parts)]).encode()).hexdigest()[:16]


class Tournament:
    """One event of one lab for a class; `run` plays it, `write` writes the page."""

    def __init__(self, root: Path, lab: str, *, event: str | None = None, seed: str | None = None,
                 students: list[str] | None = None, anonymous: bool = False, budget: int | None = None,
                 openings: int | None = None, move_seconds: float | None = None, cell_timeout: float = 20.0,
                 sandbox: bool = True, progress: Callable[[str], None] | None = print) -> None:
        self.root, self.lab = Path(root).resolve(), lab
        self.event = find_event(lab, event)
        self.seed = seed or os.environ.get("COURSE_SECRET_SEED") or DEFAULT_SEED
        self.seed_source = "--seed" if seed else "COURSE_SECRET_SEED" if os.environ.get("COURSE_SECRET_SEED") \
            else "the default seed"
        self.only, self.anonymous = students, anonymous
        self.budget = budget or self.event.budget
        self.openings_count = openings or self.event.openings_count
        self.move_seconds = move_seconds or self.event.move_seconds
        self.cell_timeout, self.sandbox = cell_timeout, sandbox
        self.progress = progress or (lambda line: None)
        self.game = self.event.game()
        self.players: list[Player] = []
        self.games: list[GameRecord] = []
        self.seconds = self.load_seconds = 0.0
        self.work = self.root / "build" / "tournament" / lab

    # -- the class --

    def students(self) -> list[str]:
        base = self.root / "submitted"
        found = sorted(p.name for p in base.iterdir() if (p / self.lab).is_dir()) if base.is_dir() else []
        if self.only is not None:
            unknown = [s for s in self.only if s not in found]
            if unknown:
                raise ValueError(f"no submission of {self.lab} in submitted/ for {', '.join(unknown)}")
            found = [s for s in found if s in self.only]
        return found

    def _make_players(self) -> None:
        students = self.students()
        if not students:
            raise ValueError(f"no submissions of {self.lab} in {self.root / 'submitted'}: nothing to play")
        names = pseudonyms(students, self.seed) if self.anonymous else {s: s for s in students}
        self.work.mkdir(parents=True, exist_ok=True)
        for s in students:
            kernel = AgentKernel(s, self._intake(s), self.lab, self.event.functions,
                                 work=self.work, move_seconds=self.move_seconds, cell_timeout=self.cell_timeout,
                                 sandbox=self.sandbox)
            self.players.append(Player(s, names[s], kernel=kernel))
        for name, make in self.event.house:
            self.players.append(Player(name, name, local=make(self.game), house=True))

    def _intake(self, student: str) -> Path:
        """A copy of `student`'s folder that follows nothing (links, FIFOs, devices left out and flagged)."""
        dest = self.work / "intake" / student / self.lab
        shutil.rmtree(dest, ignore_errors=True)
        try:
            copied = copy_submission(self.root / "submitted" / student / self.lab, dest,
                                     first=(f"{self.lab}.ipynb",))
        except OSError as exc:
            dest.mkdir(parents=True, exist_ok=True)  # empty: its notebook cannot be read, so it cannot play
            self.progress(f"[{self.lab} tournament] FLAGGED {printable(student)}: its folder could not be read "
                          f"({printable(exc)})")
            return dest
        if copied.problems:
            self.progress(f"[{self.lab} tournament] FLAGGED {printable(student)}: "
                          + "; ".join(printable(p) for p in copied.problems[:6]))
        return dest

    # -- playing --

    def run(self) -> "Tournament":
        from coursetools.sandbox.launcher import probe, sweep_cgroups

        t0 = time.monotonic()
        if self.sandbox:
            probe()
        self._make_players()
        try:
            self._load([p for p in self.players if p.kernel is not None])
            rng = random.Random(f"{self.seed}/{self.lab}/{self.event.name}/openings")
            self.openings = self.event.openings(self.game, rng, self.openings_count)
            n = 0
            for i, a in enumerate(self.players):
                for b in self.players[i + 1:]:
                    for k, start in enumerate(self.openings):
                        for first, second in ((a, b), (b, a)):
                            n += 1
                            g = self._play(f"g{n:03d}", first, second, k, start)
                            self.games.append(g)
            total = len(self.games)
            self.progress(f"[{self.lab} tournament] {total} games played")
        finally:
            for p in self.players:
                if p.kernel is not None:
                    p.kernel.close()
            if self.sandbox:
                sweep_cgroups()
            shutil.rmtree(self.work / "sandboxes", ignore_errors=True)  # the kernels' private copies
            shutil.rmtree(self.work / "intake", ignore_errors=True)  # the submissions as the kernels took them
            self.seconds = time.monotonic() - t0
        self._save()
        return self

    # -- the record of the games, for replays without playing again --

    def fingerprint(self) -> str:
        """What decides the games: the seed, the event and its budgets, and each submission's notebook."""
        parts = [self.seed, self.lab, self.event.name, str(self.budget), str(self.openings_count),
                 f"{self.move_seconds:g}", str(self.anonymous)]
        for s in self.students():
            nb = self.root / "submitted" / s / self.lab / f"{self.lab}.ipynb"
            try:
                digest = hashlib.sha256(read_regular(nb, limits()[1])).hexdigest()
            except (OSError, ValueError):  # missing, a link, a FIFO, too big: it cannot play anyway
                digest = "-"
            parts += [s, digest]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()

    @property
    def record(self) -> Path:
        return self.work / f"{self.event.name}-games.json"

    def _save(self) -> None:
        import json

        data = {"fingerprint": self.fingerprint(), "seconds": self.seconds, "load_seconds": self.load_seconds,
                "players": [[p.key, p.shown, p.house, [list(f) for f in p.faults]] for p in self.players],
                "games": [[g.gid, g.first, g.second, g.opening, [repr(a) for a in g.moves], g.result, g.ending,
                           g.forfeit, g.both_forfeit, g.depths] for g in self.games]}
        self.work.mkdir(parents=True, exist_ok=True)
        self.record.write_text(json.dumps(data))

    def load_record(self) -> bool:
        """Take the games of the last run when nothing that decides them changed; False when they must be played."""
        import ast
        import json

        try:
            data = json.loads(self.record.read_text())
        except (OSError, ValueError):
            return False
        if data.get("fingerprint") != self.fingerprint():
            return False
        rng = random.Random(f"{self.seed}/{self.lab}/{self.event.name}/openings")
        self.openings = self.event.openings(self.game, rng, self.openings_count)
        self.players = [Player(key, shown, faults=[tuple(f) for f in faults], house=house)
                        for key, shown, house, faults in data["players"]]
        self.games = [GameRecord(gid, first, second, opening, self.openings[opening],
                                 [ast.literal_eval(a) for a in moves], result, ending, forfeit, both, depths)
                      for gid, first, second, opening, moves, result, ending, forfeit, both, depths in data["games"]]
        self.seconds, self.load_seconds = data["seconds"], data["load_seconds"]
        return True

    def _load(self, players: list[Player]) -> None:
        """Start the kernels `LOAD_AT_ONCE` at a time: while one runs its notebook, the others start."""
        t0 = time.monotonic()
        for i in range(0, len(players), LOAD_AT_ONCE):
            batch = [p for p in players[i:i + LOAD_AT_ONCE] if p.kernel.launch()]
            batch = [p for p in batch if p.kernel.send_cells()]
            for p in batch:
                p.kernel.finish()
        for p in players:
            self.progress(f"[{self.lab} tournament] {printable(p.shown)}: " + (
                "ready" if p.kernel.alive else f"CANNOT PLAY: {printable(p.kernel.problem)}"))
        self.load_seconds = time.monotonic() - t0

    def _ready(self, p: Player) -> bool:
        """True when `p` can play now: a house agent, a running kernel, or one started again after a fault."""
        if p.house or p.kernel.alive:
            return True
        if p.kernel.problem is not None:  # it never loaded, or it used its restarts
            return False
        return p.kernel.restart()

    def _play(self, gid: str, first: Player, second: Player, opening: int, start: Any) -> GameRecord:
        game = self.game
        rec = GameRecord(gid, first.key, second.key, opening, start)
        seat = {game.players[0]: first, game.players[1]: second}
        ready = {p.key: self._ready(p) for p in (first, second)}
        if not ready[first.key] or not ready[second.key]:
            down = [p for p in (first, second) if not ready[p.key]]
            for p in down:
                p.faults.append((gid, "crash", p.kernel.problem or "its kernel is not running"))
            if len(down) == 2:
                rec.both_forfeit, rec.result, rec.ending = True, 0.0, "neither agent could play: both lose"
            else:
                rec.forfeit = down[0].key
                rec.result = 0.0 if down[0] is first else 1.0
                rec.ending = f"forfeit: {down[0].shown} could not play ({down[0].kernel.problem})"
            return rec
        state = start
        for _ply in range(self.event.max_plies):
            if game.is_terminal(state):
                break
            mover = seat[game.to_move(state)]
            try:
                action = self._move(mover, state, gid, len(rec.moves), rec)
            except AgentFault as fault:
                mover.faults.append((gid, fault.kind, fault.detail))
                rec.forfeit = mover.key
                rec.result = 0.0 if mover is first else 1.0
                rec.ending = f"{fault.kind} by {mover.shown} at ply {len(rec.moves) + 1}: {fault.detail}"
                return rec
            rec.moves.append(action)
            state = game.result(state, action)
        if game.is_terminal(state):
            u = game.utility(state, game.players[0])
            rec.ending = "game over"
        else:
            u = self.event.adjudicate(game, state) if self.event.adjudicate else 0
            rec.ending = f"stopped after {self.event.max_plies} plies" + (
                ": adjudicated" if self.event.adjudicate else ": a draw")
        rec.result = 1.0 if u > 0 else 0.0 if u < 0 else 0.5
        return rec

    def _move(self, mover: Player, state: Any, gid: str, ply: int, rec: GameRecord) -> Any:
        game, ev = self.game, self.event
        if ev.kind == "evaluation":
            evaluate = self._evaluation(mover)
            if mover.house:
                action, depth, _ = budget_decision(game, state, evaluate, self.budget)
            else:
                from coursetools.hidden import CheckTimeout

                try:
                    with mover.kernel.limited():
                        action, depth, _ = budget_decision(game, state, evaluate, self.budget)
                except CheckTimeout:
                    raise mover.kernel.timed_out(f"its search with {ev.function}") from None
            rec.depths.append(depth)
            return action
        if mover.house:
            return mover.local(game, state)
        from coursetools.hidden import CheckTimeout

        k = mover.kernel
        try:
            with k.limited():
                action = ev.ask(k, game, state, self.budget, _derived(self.seed, self.lab, gid, ply))
        except CheckTimeout:
            raise k.timed_out(ev.function) from None
        legal = game.actions(state)
        if action not in legal or type(action) is not type(legal[0]):
            raise AgentFault("illegal", f"{ev.function} chose {action!r}, not one of the legal moves {legal}")
        return action

    def _evaluation(self, mover: Player) -> Callable[[Any, Any], float]:
        if mover.house:
            return mover.local
        name = self.event.function

        def evaluate(state: Any, player: Any) -> float:
            key = (state, player)
            if key not in mover.memo:
                v = mover.kernel.call(name, state, player)
                if type(v) not in (int, float) or not -1 < v < 1:
                    raise AgentFault("illegal", f"{name}(state, {player!r}) = {v!r}: not a number strictly between "
                                                f"-1 and 1, on this position:\n{state}")
                mover.memo[key] = v
            return mover.memo[key]

        return evaluate

    # -- results --

    def standings(self) -> list[dict]:
        """One row per player, best first: points, games, wins, draws, losses, forfeits, Elo and its `Spread`."""
        elo, spread = ratings(self.players, self.games, self.seed)
        rows = []
        for p in self.players:
            mine = [g for g in self.games if p.key in (g.first, g.second)]
            pts = [g.result if g.first == p.key else (0.0 if g.both_forfeit else 1.0 - g.result) for g in mine]
            rows.append({"player": p, "games": len(mine), "points": sum(pts),
                         "wins": sum(x == 1.0 for x in pts), "draws": sum(x == 0.5 for x in pts),
                         "losses": sum(x == 0.0 for x in pts), "faults": len(p.faults),
                         "elo": elo[p.key], "spread": spread[p.key]})
        rows.sort(key=lambda r: (-r["points"], -r["elo"], r["player"].shown))
        return rows

    def head_to_head(self) -> dict[tuple[str, str], float]:
        """(a, b) -> points a scored against b."""
        out: dict[tuple[str, str], float] = {}
        for g in self.games:
            a_pts = g.result
            b_pts = 0.0 if g.both_forfeit else 1.0 - g.result
            out[(g.first, g.second)] = out.get((g.first, g.second), 0.0) + a_pts
            out[(g.second, g.first)] = out.get((g.second, g.first), 0.0) + b_pts
        return out

    @property
    def title(self) -> str:
        return self.event.title.format(budget=self.budget)

    def names(self) -> dict[str, str]:
        return {p.key: p.shown for p in self.players}


# --- ratings ----------------------------------------------------------------------------------------------------

ELO_BASE, ELO_SCALE = 1500.0, 400.0
BOOTSTRAP = 200
MIN_GAMES = 10  # an agent with fewer rated games gets no interval: its rating is a rough guess
Z95 = 1.959964  # the 97.5 % quantile of the normal distribution


def _newton(keys: list[str], games: list[tuple[str, str, float]], iterations: int) -> tuple[Any, Any]:
    """(log-strengths, Hessian of the log-likelihood there) of the Bradley-Terry fit with one virtual draw each."""
    import numpy as np

    index = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    wins = np.full(n, 0.5)  # the virtual draw
    met = np.zeros((n, n))  # games between each pair
    for a, b, s in games:
        i, j = index[a], index[b]
        wins[i] += s
        wins[j] += 1.0 - s
        met[i, j] += 1
        met[j, i] += 1
    theta = np.zeros(n)  # natural log of each player's strength; the virtual opponent's is 0

    def hessian(theta: Any) -> tuple[Any, Any]:
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i's expected score against j
        pv = 1.0 / (1.0 + np.exp(-theta))  # against the virtual opponent
        w = met * p * (1.0 - p)
        return p, pv, w - np.diag(w.sum(axis=1) + pv * (1.0 - pv))  # negative definite: Newton's step is safe

    for _ in range(iterations):
        p, pv, hess = hessian(theta)
        grad = wins - (met * p).sum(axis=1) - pv
        step = np.linalg.solve(hess, grad)
        theta = theta - step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return theta, hessian(theta)[2]


def fit_elo(keys: list[str], games: list[tuple[str, str, float]], iterations: int = 500) -> dict[str, float]:
    """Bradley-Terry ratings on the Elo scale from (a, b, a's score) games, a draw counting half a win each.

    Each player also gets one virtual draw against a player rated `ELO_BASE`, which anchors the scale and
    keeps the rating of an agent that won or lost everything finite (maximum likelihood by Newton's method).

    >>> r = fit_elo(["a", "b"], [("a", "b", 1.0), ("a", "b", 1.0), ("a", "b", 0.5)])
    >>> r["a"] > 1500 > r["b"]
    True
    """
    if not keys:
        return {}
    theta, _ = _newton(keys, games, iterations)
    return {k: ELO_BASE + ELO_SCALE * float(theta[i]) / math.log(10) for i, k in enumerate(keys)}


def model_errors(keys: list[str], games: list[tuple[str, str, float]]) -> dict[str, float]:
    """Each rating's standard error on the Elo scale, from the curvature of the fit's likelihood, of its gap to
    the average rating of all the agents (what a comparison between agents rests on; the scale's anchor is
    left out, as resampling the games leaves it out too).

    Never zero (the virtual draws keep the curvature finite), and it shrinks as games accumulate; unlike a
    bootstrap it does not collapse for an agent that won, drew or lost every game.

    >>> se = model_errors(["w", "l"], [("w", "l", 1.0), ("l", "w", 0.0)] * 2)
    >>> 100 < se["w"] < 300
    True
    """
    import numpy as np

    if not keys:
        return {}
    _, hess = _newton(keys, games, 500)
    covariance = np.linalg.inv(-hess)
    out = {}
    for i, k in enumerate(keys):
        gap = np.full(len(keys), -1.0 / len(keys))
        gap[i] += 1.0
        out[k] = ELO_SCALE / math.log(10) * math.sqrt(max(0.0, float(gap @ covariance @ gap)))
    return out


@dataclass(frozen=True)
class Spread:
    """How sure a rating is: the rated games it rests on and, from `MIN_GAMES` on, a 95 % interval."""

    games: int
    sd: float | None = None  # the larger of the bootstrap's standard deviation and the model's standard error
    low: float | None = None
    high: float | None = None

    @property
    def shown(self) -> bool:
        return self.sd is not None


def spread_of(elo: float, games: int, resampled: list[float], model_sd: float) -> Spread:
    """The spread of one rating: none below `MIN_GAMES` rated games, else the wider of the bootstrap's
    percentile interval and the model's normal interval (a bootstrap in which every resample repeats the
    same results, as for an agent that won every game, has no width of its own).

    >>> spread_of(1723.0, 4, [1723.0] * 200, 250.0).shown
    False
    >>> s = spread_of(1723.0, 12, [1723.0] * 200, 250.0)
    >>> round(s.sd), round(s.low), round(s.high)
    (250, 1233, 2213)
    """
    if games < MIN_GAMES:
        return Spread(games)
    xs = sorted(resampled)
    sd, low, high = model_sd, elo - Z95 * model_sd, elo + Z95 * model_sd
    if len(xs) > 1:
        mean = sum(xs) / len(xs)
        sd = max(sd, math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)))
        low, high = min(low, xs[int(0.025 * (len(xs) - 1))]), max(high, xs[int(math.ceil(0.975 * (len(xs) - 1)))])
    return Spread(games, sd, low, high)


def ratings(players: list[Player], games: list[GameRecord], seed: str) -> tuple[dict, dict]:
    """Elo ratings from every game where both played (a double forfeit is no game), and per player its
    `Spread`: the bootstrap over `BOOTSTRAP` seeded resamplings of the games, widened to the model's own
    interval where that is wider, and no interval at all below `MIN_GAMES` rated games."""
    keys = [p.key for p in players]
    data = [(g.first, g.second, g.result) for g in games if not g.both_forfeit]
    elo = fit_elo(keys, data)
    errors = model_errors(keys, data)
    rng = random.Random(f"{seed}/bootstrap")
    samples: dict[str, list[float]] = {k: [] for k in keys}
    for _ in range(BOOTSTRAP if data else 0):
        fit = fit_elo(keys, [data[rng.randrange(len(data))] for _ in data], iterations=200)
        for k in keys:
            samples[k].append(fit[k])
    played = {k: sum(k in (a, b) for a, b, _s in data) for k in keys}
    return elo, {k: spread_of(elo[k], played[k], samples[k], errors[k]) for k in keys}


# --- output -----------------------------------------------------------------------------------------------------

def draw_ratings(rows: list[dict], path: Path, title: str) -> None:
    """The leaderboard as a figure: each agent's Elo with its 95 % bootstrap interval, best at the top."""
    from matplotlib.figure import Figure

    n = len(rows)
    fig = Figure(figsize=(7.5, 0.45 * n + 1.4), layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(n))[::-1]
    for y, r in zip(ys, rows):
        colour = "#7f7f7f" if r["player"].house else ("#D55E00" if r["faults"] else "#0072B2")
        marker = "s" if r["player"].house else ("X" if r["faults"] else "o")  # the shape says it too
        s = r["spread"]
        if s.shown:
            ax.errorbar(r["elo"], y, xerr=[[r["elo"] - s.low], [s.high - r["elo"]]], fmt=marker, color=colour,
                        capsize=4, markersize=7)
        else:  # a hollow marker: too few games for an interval
            ax.plot(r["elo"], y, marker, markerfacecolor="white", markeredgecolor=colour, markersize=7)
        ax.annotate(f"{r['elo']:.0f}", (r["elo"], y), textcoords="offset points", xytext=(0, 7), ha="center",
                    fontsize=8)
    ax.set_yticks(ys, [f"{r['player'].shown}  ({r['points']:g} pts)" for r in rows])
    few = any(not r["spread"].shown for r in rows)
    ax.axvline(ELO_BASE, color="#bbbbbb", lw=1, ls="--", zorder=0)
    ax.set_xlabel("Elo rating (dots), with its 95 % interval"
                  + (f"\n(hollow markers: fewer than {MIN_GAMES} games, no interval)" if few else ""))
    ax.set_title(title, fontsize=10)
    ax.margins(y=0.15)
    from matplotlib.lines import Line2D

    kinds = [("#0072B2", "o", "student", any(not r["player"].house and not r["faults"] for r in rows)),
             ("#D55E00", "X", "student who lost a game by a fault", any(r["faults"] for r in rows)),
             ("#7f7f7f", "s", "house agent", any(r["player"].house for r in rows))]
    ax.legend(handles=[Line2D([], [], marker=m, ls="", color=c, label=lab) for c, m, lab, shown in kinds if shown],
              loc="lower right", fontsize=8, framealpha=0.9)
    fig.savefig(path, dpi=100)


def draw_replay(t: Tournament, g: GameRecord, path: Path, per_row: int = 6) -> None:
    """A game as a strip of boards (course_lib's `draw_board`): the opening, then the position after each move."""
    import math as _m

    from matplotlib.figure import Figure

    from course_lib.draw import draw_board

    game, names = t.game, t.names()
    board_of = t.event.board or (lambda s: s)
    states, s = [g.start], g.start
    for a in g.moves:
        s = game.result(s, a)
        states.append(s)
    cols = max(4, min(per_row, len(states)))  # four at least: room for the title
    rows = _m.ceil(len(states) / cols)
    fig = Figure(figsize=(2.0 * cols, 2.25 * rows + 0.7), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    p0, p1 = game.players[:2]
    for i, ax in enumerate(axes.flat):
        if i >= len(states):
            ax.set_axis_off()
            continue
        if i == 0:
            label = "opening"
        else:
            mover = p0 if (game.to_move(states[i - 1]) == p0) else p1
            label = f"{i}. {mover} {g.moves[i - 1]}"
        pic = draw_board(board_of(states[i]), ax=ax, title=label)
        for text in pic.ax.texts:
            if text.get_text() == "#":
                text.set_color("#888888")
    import textwrap

    ending = "" if not g.forfeit else "\n" + textwrap.shorten(g.ending, 110)
    def seat(player: str, mark: str) -> str:
        return player if player == mark else f"{player}, {mark}"

    fig.suptitle(f"{g.gid}: {names[g.first]} ({seat(p0, 'X')}) v {names[g.second]} ({seat(p1, 'O')}): "
                 f"{_result_text(g, names)}{ending}", fontsize=10)
    fig.savefig(path, dpi=90)


def ratings_alt(rows: list[dict]) -> str:
    """The text alternative of the ratings figure: each agent's Elo and interval, best first."""
    def one(r: dict) -> str:
        s = r["spread"]
        interval = f", 95 % interval {s.low:.0f} to {s.high:.0f}" if s.shown else ", no interval (too few games)"
        kind = " (house agent)" if r["player"].house else (" (lost a game by a fault)" if r["faults"] else "")
        return f"{r['player'].shown}{kind}: Elo {r['elo']:.0f}{interval}, {r['points']:g} points"

    return "Elo ratings, best first: " + "; ".join(one(r) for r in rows) + "."


def replay_alt(t: Tournament, g: GameRecord) -> str:
    """The text alternative of a replay: who played whom, the moves in order, the result."""
    names = t.names()
    moves = ", ".join(f"{i}. {a}" for i, a in enumerate(g.moves, 1)) or "none"
    return (f"Boards of game {g.gid}, {names[g.first]} (first) against {names[g.second]}: "
            f"{len(g.moves)} moves ({moves}); {_result_text(g, names)}.")


def _result_text(g: GameRecord, names: dict[str, str]) -> str:
    if g.both_forfeit:
        return "both forfeit"
    if g.result == 0.5:
        return "draw"
    winner = g.first if g.result == 1.0 else g.second
    return f"{names[winner]} wins" + (" by forfeit" if g.forfeit else "")


def final_game(t: Tournament, rows: list[dict]) -> GameRecord | None:
    """The first game between the two best agents, the one the page replays by default."""
    if len(rows) < 2:
        return None
    a, b = rows[0]["player"].key, rows[1]["player"].key
    return next((g for g in t.games if {g.first, g.second} == {a, b}), None)


def write(t: Tournament, replays: list[str] = ()) -> dict[str, Path]:
    """Write the page, the ratings figure, the games table and the replays into exports/; returns their paths."""
    out = t.root / "exports"
    out.mkdir(exist_ok=True)
    stem = t.lab if t.event is EVENTS[t.lab][0] else f"{t.lab}-{t.event.name}"
    paths = {"html": out / f"{stem}-tournament.html", "png": out / f"{stem}-tournament.png",
             "csv": out / f"{stem}-tournament.csv"}
    rows = t.standings()
    names = t.names()
    draw_ratings(rows, paths["png"], t.title)
    by_id = {g.gid: g for g in t.games}
    unknown = [r for r in replays if r not in by_id]
    if unknown:
        raise ValueError(f"no game {', '.join(unknown)} in this tournament: its games are {t.games[0].gid} to "
                         f"{t.games[-1].gid}" if t.games else "this tournament played no game")
    chosen = list(replays) or [g.gid for g in [final_game(t, rows)] if g is not None]
    for gid in chosen:
        paths[f"replay {gid}"] = out / f"{stem}-replay-{gid}.png"
        draw_replay(t, by_id[gid], paths[f"replay {gid}"])
    with open(paths["csv"], "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["game", "first", "second", "opening", "plies", "points_first", "points_second", "ending",
                    "moves"])
        for g in t.games:
            w.writerow([g.gid, names[g.first], names[g.second], g.opening + 1, len(g.moves), g.result,
                        0.0 if g.both_forfeit else 1.0 - g.result, g.ending, " ".join(map(str, g.moves))])
    paths["html"].write_text(page(t, rows, paths, chosen))
    return paths


def _spread_cells(s: Spread) -> str:
    """The ± and interval cells of a leaderboard row."""
    if not s.shown:
        return (f"<td class='muted'>-</td><td class='muted'>none: {s.games} game{'s' if s.games != 1 else ''}, "
                f"fewer than {MIN_GAMES}</td>")
    return f"<td>{s.sd:.0f}</td><td>{s.low:.0f} to {s.high:.0f}</td>"


def page(t: Tournament, rows: list[dict], paths: dict[str, Path], replays: list[str]) -> str:
    e, names = t.event, t.names()
    esc = html.escape
    h2h = t.head_to_head()
    per_pair = 2 * len(t.openings)
    budget = (f"{t.budget} generated states (calls of <code>result</code>, counted by the coordinator) per move, "
              "searched by iterative-deepening alpha-beta in the coordinator, which asks the student's "
              f"<code>{e.function}</code> for the value of each position it cuts off"
              if e.kind == "evaluation" else
              f"{t.budget} ({esc(ASK_BUDGET.get(e.ask, 'budget'))}) per move of the student's own "
              f"<code>{e.function}</code>, on its own copy of the game; the coordinator checks every move is legal")
    lines = [
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><meta http-equiv='Content-Security-Policy' "
        f"content=\"{CSP}\">",
        f"<title>{esc(t.lab)} tournament</title>",
        "<style>body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;"
        "text-align:right}td.l,th.l{text-align:left}.bad{color:#b2182b}.muted{color:#666}"
        "pre{white-space:pre-wrap;margin:0;max-width:48em}</style></head><body>",
        f"<h1>{esc(t.lab)}: class tournament</h1>",
        f"<p>{esc(t.title)}. {len(rows)} agents, {len(t.games)} games: every pair plays "
        + (f"each of {len(t.openings)} fixed openings" if len(t.openings) != 1 else "one fixed opening")
        + " twice, once with each colour. "
        f"Budget: {budget}. A move may use at most {t.move_seconds:g} s of processor time. Games longer than "
        f"{e.max_plies} plies are stopped and count as draws. Seed: {esc(t.seed_source)}; the same class and "
        f"seed give the same games on any machine. Played in {t.seconds:.1f} s.</p>",
        "<h2>Leaderboard</h2>",
        "<p>Points: 1 for a win, 1/2 for a draw, 0 for a loss. Elo: ratings fitted to all the games at once "
        "(the Bradley-Terry model on the Elo scale, where a 400-point gap means the stronger agent is expected "
        "to score 10 times as much as the weaker; a draw counts as half a win for each side; every agent also "
        "gets one virtual draw against a 1500-rated opponent, which fixes the scale and keeps the rating of an "
        f"agent that won or lost everything finite). An agent with fewer than {MIN_GAMES} games gets no "
        "interval: its rating is a rough guess. From that many on, ± is the larger of two standard deviations: "
        f"over {BOOTSTRAP} resamplings of the games (seeded), and the model's own (from the curvature of its "
        "likelihood, of the gap to the average rating), and the 95 % interval is the wider of theirs. "
        "Resampling alone gives an agent that won, drew or lost every game no width at all, since every "
        "resample repeats its results. With few games per pair the intervals are wide, and agents whose "
        "intervals overlap are not clearly different.</p>",
        f"<p><img src='{esc(paths['png'].name)}' alt='{esc(ratings_alt(rows))}'></p>",
        "<table><tr><th>#</th><th class='l'>agent</th><th>points</th><th>games</th><th>won</th><th>drawn</th>"
        "<th>lost</th><th>lost by fault</th><th>Elo</th><th>±</th><th>95 % interval</th></tr>",
    ]
    for i, r in enumerate(rows, 1):
        p = r["player"]
        lines.append(f"<tr><td>{i}</td><td class='l'>{esc(p.shown)}{' <span class=muted>(house)</span>' if p.house else ''}"
                     f"</td><td>{r['points']:g}</td><td>{r['games']}</td><td>{r['wins']}</td><td>{r['draws']}</td>"
                     f"<td>{r['losses']}</td><td class='{'bad' if r['faults'] else ''}'>{r['faults']}</td>"
                     f"<td>{r['elo']:.0f}</td>{_spread_cells(r['spread'])}</tr>")
    lines.append("</table>")
    lines.append(f"<h2>Head to head</h2><p>Points the row's agent scored against the column's, out of {per_pair}.</p>")
    order = [r["player"] for r in rows]
    lines.append("<table><tr><th></th>" + "".join(f"<th>{esc(p.shown)}</th>" for p in order) + "</tr>")
    for a in order:
        cells = "".join("<td class='muted'>-</td>" if a is b else f"<td>{h2h.get((a.key, b.key), 0):g}</td>"
                        for b in order)
        lines.append(f"<tr><th class='l'>{esc(a.shown)}</th>{cells}</tr>")
    lines.append("</table>")
    faulty = [p for p in t.players if p.faults]
    lines.append("<h2>Games lost by a fault</h2>")
    if not faulty:
        lines.append("<p>None: every agent answered every move legally and in time.</p>")
    else:
        lines.append("<p>A crash (an exception, a kernel that died), a hang (a move past its processor-time limit) "
                     "or an illegal answer loses that game.</p><table><tr><th class='l'>agent</th><th>games</th>"
                     "<th class='l'>kind</th><th class='l'>first fault</th></tr>")
        for p in sorted(faulty, key=lambda p: p.shown):
            kinds = sorted({k for _g, k, _d in p.faults})
            gids = ", ".join(g for g, _k, _d in p.faults[:6]) + (" ..." if len(p.faults) > 6 else "")
            lines.append(f"<tr><td class='l'>{esc(p.shown)}</td><td class='l'>{len(p.faults)} ({esc(gids)})</td>"
                         f"<td class='l'>{esc(', '.join(kinds))}</td><td class='l'><pre>{esc(p.faults[0][2][:400])}"
                         "</pre></td></tr>")
        lines.append("</table>")
    for gid in replays:
        lines.append(f"<h2>Replay of {esc(gid)}</h2><p><img src='{esc(paths['replay ' + gid].name)}' "
                     f"alt='{esc(replay_alt(t, next(g for g in t.games if g.gid == gid)))}'></p>")
    lines.append(f"<h2>Every game</h2><p>Any game can be replayed as a figure: <code>python -m coursetools "
                 f"tournament {esc(t.lab)} --replay GAME_ID</code> (with the same seed"
                 f"{' and --pseudonyms' if t.anonymous else ''}). The moves are also in "
                 f"<code>{esc(paths['csv'].name)}</code>.</p>")
    lines.append("<table><tr><th>game</th><th class='l'>first</th><th class='l'>second</th><th>opening</th>"
                 "<th>plies</th><th class='l'>result</th><th class='l'>ending</th></tr>")
    for g in t.games:
        lines.append(f"<tr><td>{g.gid}</td><td class='l'>{esc(names[g.first])}</td><td class='l'>"
                     f"{esc(names[g.second])}</td><td>{g.opening + 1}</td><td>{len(g.moves)}</td>"
                     f"<td class='l'>{esc(_result_text(g, names))}</td><td class='l'>{esc(g.ending[:160])}</td></tr>")
    lines.append("</table></body></html>")
    return "\n".join(lines)


def run_tournament(root: Path, lab: str, replays: list[str] = (), **options: Any) -> tuple[Tournament, dict]:
    """Play `lab`'s tournament for the class at `root` and write its page; (the tournament, the paths)."""
    t = Tournament(root, lab, **options)
    n = len(t.students()) + len(t.event.house)
    count = n * (n - 1) * t.openings_count  # every pair, every opening, both colours
    bad = [r for r in replays if not (re.fullmatch(r"g\d{3,}", r) and 1 <= int(r[1:]) <= count)]
    if bad:
        raise ValueError(f"no game {', '.join(bad)} in this tournament: its games are g001 to g{count:03d}")
    if not (replays and t.load_record()):  # a replay of an unchanged class draws from the record
        t.run()
    return t, write(t, list(replays))
