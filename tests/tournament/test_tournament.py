"""The class tournament (`coursetools.tournament.runner`) through the real sandbox and real kernels.

A small class of lab 05 is built from the release notebook and the source's solutions: an honest
agent and agents that crash, hang, answer an illegal value or play an illegal move part-way into a
game (once five squares are blocked: the openings block four). Each runs its submitted notebook in a
bubblewrap sandbox of its own; the coordinator decides every game.
"""

from __future__ import annotations

import csv
import random
import re
from pathlib import Path

import pytest

from coursetools.course.labfiles import solution_answers
from coursetools.quality.submission import build_submission
from coursetools.tournament.runner import (BOOTSTRAP, MIN_GAMES, GameRecord, Player, Tournament, budget_decision,
                                           find_event, fit_elo, isolation_mobility, isolation_openings, pseudonyms,
                                           ratings, run_tournament, write)
from coursetools.tournament.agents import cells_to_run

ROOT = Path(__file__).resolve().parents[2]
LAB = "05_heuristics"
LATE = "bin(state.blocked).count('1') >= 5"  # true from the first move on: the openings block four squares

TROUBLE = {
    "honest": {},
    "crasher": {"isolation_improved": f"""
_mine = isolation_improved
def isolation_improved(state, player):
    if {LATE}:
        return 1 / 0
    return _mine(state, player)
"""},
    "hanger": {"isolation_improved": f"""
_mine = isolation_improved
def isolation_improved(state, player):
    while {LATE}:
        pass
    return _mine(state, player)
"""},
    "illegal_value": {"isolation_improved": f"""
_mine = isolation_improved
def isolation_improved(state, player):
    return 7.5 if {LATE} else _mine(state, player)
"""},
    "mcts_illegal": {"mcts_decision": """
_mine = mcts_decision
def mcts_decision(game, state, iterations, rng, c=2 ** 0.5, clock=None):
    return 99 if state.board.count('.') < 38 else _mine(game, state, iterations, rng, c, clock)
"""},
    "illegal_move": {"depth_limited_decision": """
_mine = depth_limited_decision
def depth_limited_decision(game, state, depth, evaluate):
    return (9, 9) if bin(state.blocked).count('1') >= 5 else _mine(game, state, depth, evaluate)
"""},
}


def make_class(root: Path, students: list[str], lab: str = LAB) -> Path:
    """submitted/<student>/<lab>/<lab>.ipynb for each student: the solutions, with their trouble appended."""
    solutions = solution_answers(ROOT / "source" / lab / f"{lab}.ipynb")
    for s in students:
        answers = dict(solutions)
        for gid, extra in TROUBLE.get(s, {}).items():
            answers[gid] = solutions[gid].rstrip() + "\n\n" + extra.lstrip()
        build_submission(ROOT / "release" / lab / f"{lab}.ipynb", answers,
                         root / "submitted" / s / lab / f"{lab}.ipynb")
    return root


needs_sandbox = pytest.mark.skipif(not Path("/usr/bin/bwrap").exists(), reason="bubblewrap is not installed")


# --- without kernels ---------------------------------------------------------------------------------------------

def test_elo_orders_by_results_and_stays_finite():
    games = [("a", "b", 1.0)] * 3 + [("b", "c", 1.0)] * 3 + [("a", "c", 0.5)]
    r = fit_elo(["a", "b", "c"], games)
    assert r["a"] > r["b"] > r["c"]
    lone = fit_elo(["w", "l"], [("w", "l", 1.0)] * 4)
    assert 1500 < lone["w"] < 2500 and 500 < lone["l"] < 1500
    assert abs((lone["w"] - 1500) + (lone["l"] - 1500)) < 0.01  # symmetric around the anchor


def _games(results: list[tuple[str, str, float]]) -> list[GameRecord]:
    return [GameRecord(f"g{i:03d}", a, b, 0, None, result=r) for i, (a, b, r) in enumerate(results, 1)]


def test_an_agent_that_won_every_game_gets_an_interval_of_real_width():
    """Every resample of all-won games is the same games: the bootstrap alone would say "± 0"."""
    players = [Player("w", "w"), Player("l", "l")]
    for per_colour in (2, MIN_GAMES):  # 4 games (the page), then enough for an interval
        elo, spread = ratings(players, _games([("w", "l", 1.0), ("l", "w", 0.0)] * per_colour), "seed")
        s = spread["w"]
        assert s.games == 2 * per_colour and elo["w"] > 1700
        if s.games < MIN_GAMES:
            assert not s.shown and s.sd is None and s.low is None
            continue
        assert s.shown and s.sd > 100, s
        assert s.low < elo["w"] - 200 and s.high > elo["w"] + 200, s
        assert spread["l"].high > elo["l"] + 200 and spread["l"].low < elo["l"] - 200


def test_interval_narrows_with_games_and_is_never_narrower_than_the_bootstrap():
    rng = random.Random(7)
    keys = list("abcde")
    players = [Player(k, k) for k in keys]
    widths = []
    for rounds in (2, 8):  # 16, then 64 games per agent
        results = [(a, b, rng.choice((1.0, 1.0, 0.5, 0.0)) if a < b else rng.choice((1.0, 0.5, 0.0, 0.0)))
                   for _ in range(rounds) for a in keys for b in keys if a != b]
        elo, spread = ratings(players, _games(results), "seed")
        assert all(spread[k].shown and spread[k].low < elo[k] < spread[k].high for k in keys)
        widths.append(sum(spread[k].high - spread[k].low for k in keys) / len(keys))
        # the bootstrap's own quantiles lie inside the interval shown
        boot = random.Random("seed/bootstrap")
        data = [(a, b, r) for a, b, r in results]
        fits = [fit_elo(keys, [data[boot.randrange(len(data))] for _ in data], iterations=200)
                for _ in range(BOOTSTRAP)]
        for k in keys:
            xs = sorted(f[k] for f in fits)
            assert spread[k].low <= xs[int(0.025 * (len(xs) - 1))] + 1e-9
            assert spread[k].high >= xs[-1 - int(0.025 * (len(xs) - 1))] - 1e-9
    assert widths[1] < 0.7 * widths[0], widths


def test_budget_decision_counts_its_nodes_and_is_the_same_twice():
    game = find_event(LAB).game()
    start = isolation_openings(game, random.Random(1), 1)[0]
    evaluate = isolation_mobility(game)
    first = budget_decision(game, start, evaluate, 150)
    assert first == budget_decision(game, start, evaluate, 150)
    action, depth, used = first
    assert action in game.actions(start) and depth >= 1 and used <= 150
    # a budget too small for depth 1 falls back to the first action
    assert budget_decision(game, start, evaluate, 1)[:2] == (game.actions(start)[0], 0)


def test_pseudonyms_are_stable_and_say_nothing():
    names = pseudonyms(["zoe", "adam", "mia"], "seed")
    assert names == pseudonyms(["mia", "zoe", "adam"], "seed")
    assert sorted(names.values()) == ["Agent A", "Agent B", "Agent C"]
    assert not any(s in n for s, n in names.items())


def test_cells_to_run_stop_before_the_test_of_the_last_function():
    import nbformat

    nb = nbformat.read(ROOT / "release" / LAB / f"{LAB}.ipynb", as_version=4)
    code = cells_to_run(nb, ["isolation_improved"])
    assert any("def isolation_improved" in c for c in code)
    assert not any("def connect_four_windows" in c for c in code)
    assert not any("BEGIN HIDDEN TESTS" in c or "assert " in c.split("\n", 1)[0] for c in code)
    with pytest.raises(ValueError, match="no solution cell nope"):
        cells_to_run(nb, ["nope"])


def test_bad_lab_or_event_is_named():
    with pytest.raises(ValueError, match="no tournament for lab '99_x'"):
        find_event("99_x")
    with pytest.raises(ValueError, match="has no tournament event 'chess'"):
        find_event(LAB, "chess")


# --- through the sandbox ------------------------------------------------------------------------------------------

@needs_sandbox
def test_faulty_agents_lose_their_games_and_are_named(tmp_path):
    students = ["honest", "crasher", "hanger", "illegal_value"]
    make_class(tmp_path, students)
    t = Tournament(tmp_path, LAB, seed="test", openings=1, budget=60, move_seconds=1.0, progress=None).run()
    paths = write(t)
    faults = {p.key: p.faults for p in t.players}
    assert faults["honest"] == [] and faults["house: mobility"] == []
    assert faults["crasher"] and {k for _g, k, _d in faults["crasher"]} == {"crash"}
    assert "ZeroDivisionError" in faults["crasher"][0][2]
    assert faults["hanger"][0][1] == "hang" and "processor-time limit" in faults["hanger"][0][2]
    assert faults["illegal_value"] and {k for _g, k, _d in faults["illegal_value"]} == {"illegal"}
    assert "7.5" in faults["illegal_value"][0][2]
    # every game an agent lost by a fault is a loss for it, and its opponent scores the point
    for g in t.games:
        if g.forfeit:
            assert g.result == (0.0 if g.forfeit == g.first else 1.0)
    # the honest agent beats every faulty one in every game
    for g in t.games:
        if "honest" in (g.first, g.second) and {g.first, g.second} & {"crasher", "hanger", "illegal_value"}:
            assert g.forfeit and g.forfeit != "honest", g
    rows = t.standings()
    assert {r["player"].key for r in rows[:2]} == {"honest", "house: mobility"}
    text = paths["html"].read_text()
    assert all(r["games"] == 8 < MIN_GAMES and not r["spread"].shown for r in rows)
    board = text.split("<h2>Leaderboard</h2>", 1)[1].split("<h2>", 1)[0]
    assert board.count(f"none: 8 games, fewer than {MIN_GAMES}") == len(rows) and "± 0" not in board
    assert f"fewer than {MIN_GAMES} games gets no interval" in board
    section = text.split("Games lost by a fault", 1)[1].split("<h2>", 1)[0]
    for s in ("crasher", "hanger", "illegal_value"):
        assert s in section
    assert "honest" not in section
    assert paths["png"].stat().st_size > 10_000
    assert any(k.startswith("replay") and p.stat().st_size > 10_000 for k, p in paths.items())


@needs_sandbox
def test_an_illegal_move_loses_the_game(tmp_path):
    make_class(tmp_path, ["honest", "illegal_move"])
    t = Tournament(tmp_path, LAB, event="isolation_search", seed="test", openings=1, progress=None).run()
    mover = next(p for p in t.players if p.key == "illegal_move")
    assert mover.faults and {k for _g, k, _d in mover.faults} == {"illegal"}
    assert "(9, 9)" in mover.faults[0][2]
    assert all(g.forfeit == "illegal_move" and g.result == (0.0 if g.first == "illegal_move" else 1.0)
               for g in t.games)
    assert next(p for p in t.players if p.key == "honest").faults == []
    t.budget = 3  # the page and figure say the budget the games were played with
    assert "depth_limited_decision at depth 3 with" in write(t)["html"].read_text()


@needs_sandbox
def test_same_class_same_seed_same_games_and_pseudonyms_hide_the_names(tmp_path):
    students = ["honest", "illegal_value", "crasher"]
    make_class(tmp_path, students)
    first = Tournament(tmp_path, LAB, seed="det", openings=2, budget=80, progress=None).run()
    named = write(first)
    rows_named = (named["csv"].read_text(), [(r["player"].key, r["points"], round(r["elo"], 6))
                                            for r in first.standings()])
    second = Tournament(tmp_path, LAB, seed="det", openings=2, budget=80, anonymous=True, progress=None).run()
    anon = write(second, ["g003"])
    names = second.names()
    # the same games, move for move, and the same leaderboard, under other names
    renamed = rows_named[0]
    for key, shown in sorted(names.items(), key=lambda kv: -len(kv[0])):
        renamed = re.sub(rf"\b{re.escape(key)}\b", shown, renamed)
    assert anon["csv"].read_text() == renamed
    assert [(names[k], p, e) for k, p, e in rows_named[1]] == \
        [(r["player"].shown, r["points"], round(r["elo"], 6)) for r in second.standings()]
    # no student id anywhere in what the pseudonymous run wrote
    for path in (anon["html"], anon["csv"]):
        text = path.read_text()
        assert not any(s in text for s in students), path
    assert "Agent A" in anon["html"].read_text()
    with open(anon["csv"], newline="") as f:
        assert len(list(csv.DictReader(f))) == len(second.games) == 2 * 2 * 6  # 6 pairs of 4 agents
    assert (tmp_path / "exports" / f"{LAB}-replay-g003.png").stat().st_size > 5_000
    # a replay of the unchanged class draws from the record of the games, without playing them again
    csv_before = anon["csv"].read_text()
    again, paths = run_tournament(tmp_path, LAB, ["g005"], seed="det", openings=2, budget=80, anonymous=True,
                                  progress=None)
    assert again.seconds == second.seconds and paths["csv"].read_text() == csv_before
    assert paths["replay g005"].stat().st_size > 5_000
    # a changed submission is played again
    nb = tmp_path / "submitted" / "crasher" / LAB / f"{LAB}.ipynb"
    nb.write_text(nb.read_text().replace("return 1 / 0", "return 1 // 0"))
    assert not Tournament(tmp_path, LAB, seed="det", openings=2, budget=80, anonymous=True).load_record()


# --- lab 07 -----------------------------------------------------------------------------------------------------

@needs_sandbox
@pytest.mark.skipif(not (ROOT / "source" / "07_mcts").is_dir(), reason="lab 07 (source/07_mcts) is not written yet")
def test_lab07_mcts_agents_play(tmp_path):
    game = find_event("07_mcts").game()
    make_class(tmp_path, ["honest", "mcts_illegal", "other"], lab="07_mcts")
    t = Tournament(tmp_path, "07_mcts", seed="test", openings=1, budget=600, progress=None).run()
    faults = {p.key: p.faults for p in t.players}
    assert faults["honest"] == faults["other"] == []
    assert faults["mcts_illegal"] and {k for _g, k, _d in faults["mcts_illegal"]} == {"illegal"}
    assert "chose 99" in faults["mcts_illegal"][0][2]
    assert len(t.games) == 6
    for g in t.games:
        s = g.start
        for a in g.moves:
            assert a in game.actions(s)
            s = game.result(s, a)
        if "mcts_illegal" in (g.first, g.second):
            assert g.forfeit == "mcts_illegal"
        else:
            assert g.forfeit is None and (game.is_terminal(s) or len(g.moves) == find_event("07_mcts").max_plies)


@needs_sandbox
def test_kernels_seeded_generators_agree_and_get_nothing_private(tmp_path, monkeypatch):
    """What a decision agent (lab 07) gets as its rng: the kernel's own random.Random, seeded alike in any
    kernel; and the kernel's environment holds no secret seed of the coordinator's."""
    from coursetools.tournament.agents import RANDOM_NAME, AgentKernel

    monkeypatch.setenv("COURSE_SECRET_SEED", "very-secret-seed")
    make_class(tmp_path, ["honest"])
    draws = []
    for _ in range(2):
        k = AgentKernel("honest", tmp_path / "submitted" / "honest" / LAB, LAB, ["isolation_improved"],
                        work=tmp_path / "work", move_seconds=5)
        assert k.start(), k.problem
        try:
            env = Path(f"/proc/{k.kernel_pid}/environ").read_bytes()
            assert b"very-secret-seed" not in env and b"PYTHONHASHSEED=0" in env
            rng = k.call(RANDOM_NAME, "a derived seed")
            draws.append([rng.random() for _ in range(3)])
        finally:
            k.close()
    local = random.Random("a derived seed")
    assert draws[0] == draws[1] == [local.random() for _ in range(3)]


def test_cli_names_a_lab_without_a_tournament(capsys):
    from coursetools.cli import main

    assert main(["tournament", "01_game_trees"]) == 2
    assert "no tournament for lab '01_game_trees'" in capsys.readouterr().err


def test_cli_refuses_a_replay_of_a_game_that_cannot_exist(tmp_path, capsys, monkeypatch):
    from coursetools.cli import main

    make_class(tmp_path, ["honest"])
    (tmp_path / "nbgrader_config.py").write_text("c = get_config()  # noqa: F821\n")
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", LAB, "--replay", "g005"]) == 2  # honest and the house: 4 games
    assert "no game g005 in this tournament: its games are g001 to g004" in capsys.readouterr().err
