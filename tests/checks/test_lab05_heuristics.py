"""Lab 05's grader on its own: the source's solutions pass every hidden group, fast and the
same way twice; the fixed positions the checks rely on say what their descriptions say.

(test_labs.py runs the notebooks and the bug bank through nbgrader; these are the quick checks.)
"""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import pytest

from coursetools.checks.lab05 import cases as lab05
from coursetools.checks.lab05 import positions
from coursetools.checks.lab05 import groups
from coursetools.checks.lab05 import reference as ref
from coursetools.checks.lab05 import tournament as tour
from course_lib.trace import Traced
from coursetools.hidden import CheckFailed, check

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "source" / "05_heuristics" / "05_heuristics.ipynb"
SKIP = ("tournament(", "draw_tree(", "PLAY", "### BEGIN HIDDEN TESTS")

GROUPS = {
    "value_cutoff": ["depth_limited_value"],
    "value_games": ["depth_limited_value"],
    "decision": ["depth_limited_decision"],
    "isolation_mobility": ["isolation_mobility"],
    "isolation_improved": ["isolation_improved"],
    "connect_four_windows": ["connect_four_windows"],
    "food_grid_evaluate": ["food_grid_evaluate"],
    "chess_material": ["chess_material"],
    "quiescence": ["quiescence_value"],
}


@pytest.fixture(scope="module")
def solution() -> dict:
    """The namespace of the source notebook's set-up and solution cells (no tests, figures or tournaments)."""
    nb = nbformat.read(SOURCE, as_version=4)
    namespace: dict = {"display": lambda *args, **kwargs: None}
    for cell in nb.cells:
        if cell.cell_type != "code" or any(s in cell.source for s in SKIP):
            continue
        source = "\n".join(line for line in cell.source.splitlines()
                           if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
        exec(compile(source, "05_heuristics", "exec"), namespace)
    return namespace


def test_lab05_solution_passes_every_hidden_group_within_budget(solution, capsys):
    start = time.process_time()
    for group, names in GROUPS.items():
        check("05_heuristics", group, **{n: solution[n] for n in names})
    used = time.process_time() - start
    out = capsys.readouterr().out
    assert all(f"'{group}': all" in out for group in GROUPS), out
    assert used < 10, f"the hidden tests took {used:.1f} s of CPU (budget: 20 s in all, aim: 6 s)"


def test_lab05_tournaments_are_deterministic(solution):
    openings = positions.isolation_openings("determinism", count=2)

    def run() -> list:
        rows = tour.tournament(openings, lambda game: ref.searcher(2, solution["isolation_improved"]),
                               tour.isolation_baselines(2), tag="determinism")
        return [(r.wins, r.draws, r.losses, tuple(r.lost_games)) for r in rows]

    assert run() == run()


def test_lab05_ranking_series_are_what_they_claim():
    iso = positions.ISOLATION
    for series, player in positions.isolation_series():
        other = iso.opponent(player)
        diffs = [iso.mobility(s, player) - iso.mobility(s, other) for _, s in series]
        assert diffs == sorted(set(diffs)), diffs
        assert not any(iso.is_terminal(s) for _, s in series)
    game, series = positions.food_series()
    keys = []
    for _, s in series:
        assert not game.is_terminal(s)
        r, c = divmod(s.positions[0], s.width)
        food = [divmod(i, s.width) for i in range(s.width * s.height) if s.food >> i & 1]
        nearest = min(abs(r - fr) + abs(c - fc) for fr, fc in food)
        keys.append((s.scores[0] - s.scores[1], -nearest))
    assert keys == sorted(set(keys))
    c4 = positions.connect_four_series()
    assert [s.board.count("X") for _, s in c4] == list(range(len(c4)))
    assert len({s.board.count("O") for _, s in c4}) == 1


def test_lab05_reference_search_follows_the_conventions():
    tree = lab05._nested([[3, [1, 2]], [[4, 5], 7]])
    estimates = {n: 0 for n in tree.nodes()}
    estimates.update({"P1.1": 6, "P1.2": 2})
    evaluate = lab05.Estimates("MAX", ("MAX", "MIN"), tuple(estimates.items()))
    assert ref.depth_limited_value(tree, tree.initial, 0, evaluate) == 0
    assert ref.depth_limited_value(tree, tree.initial, 2, evaluate) == 3  # L.0 is terminal: utility 3
    assert ref.depth_limited_value(tree, tree.initial, 3, evaluate) == 5  # every leaf reached
    assert ref.depth_limited_decision(tree, tree.initial, 1, evaluate) == 0  # both children 0: the first


@pytest.mark.parametrize("fen, white", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0),
    ("4k3/8/8/8/8/8/8/4K2R b K - 0 1", 5),
    ("4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1", 27),
])
def test_lab05_reference_material(fen, white):
    assert ref.material(fen, "w") == white and ref.material(fen, "b") == -white


def test_lab05_exact_evaluations_match_the_solution(solution):
    """The references of the evaluations the lab specifies exactly give the solution's values."""
    from coursetools.checks import common

    for s in positions.isolation_states("exact"):
        for p in ("P1", "P2"):
            assert common.same(solution["isolation_mobility"](s, p), ref.mobility(positions.ISOLATION, s, p))
    for s in positions.connect_four_states("exact"):
        for p in ("X", "O"):
            assert common.same(solution["connect_four_windows"](s, p), ref.windows(s, p))
    for _, fen in positions.chess_cases():
        assert solution["chess_material"](fen, "w") == ref.material(fen, "w")


SEARCH_CHECKS = {"value": (groups.check_value_cutoff, groups.check_value_games), "decision": (groups.check_decision,)}


def _mistake_runs():
    yield from ((m, ref.VALUE_MISTAKES, SEARCH_CHECKS["value"]) for m in ref.VALUE_MISTAKES)
    yield from ((m, ref.DECISION_MISTAKES, SEARCH_CHECKS["decision"]) for m in ref.DECISION_MISTAKES)
    mobility = ref.MOBILITY_MISTAKES
    yield from ((m, mobility, (groups.check_isolation_mobility,)) for m in mobility)
    yield from ((m, ref.WINDOWS_MISTAKES, (groups.check_connect_four_windows,)) for m in ref.WINDOWS_MISTAKES)
    yield from ((m, ref.MATERIAL_MISTAKES, (groups.check_chess_material,)) for m in ref.MATERIAL_MISTAKES)
    yield from ((m, ref.QUIESCENCE_MISTAKES, (groups.check_quiescence,)) for m in ref.QUIESCENCE_MISTAKES)


@pytest.mark.parametrize("mistake, mistakes, checks", [pytest.param(*r, id=r[0].key) for r in _mistake_runs()])
def test_lab05_each_mistake_model_is_named_by_its_own_hint_only(mistake, mistakes, checks):
    """A mistake model handed in as a student's answer fails with its hint, and no other mistake's."""
    messages = []
    for fn in checks:
        try:
            fn(mistake.model)
        except CheckFailed as failure:
            messages.append(str(failure))
    assert messages, f"{mistake.key} passes every group"
    assert any(mistake.hint in m for m in messages), messages
    assert not any(other.hint in m for m in messages for other in mistakes if other is not mistake), messages


def test_lab05_an_unknown_mistake_is_not_given_a_known_name():
    """A search that returns the negated value is no known mistake: the hint says where its values first differ
    (the deepest node, with its depth and the rule there), and an evaluation off by a little gets the correct value
    worked out."""

    def negated(game, state, depth, evaluate):
        return -ref.depth_limited_value(game, state, depth, evaluate) or 0.5

    with pytest.raises(CheckFailed) as failure:
        groups.check_value_cutoff(negated)
    text = str(failure.value)
    assert "your values first differ from the correct ones at P1.0 > P2.0 > P1.1" in text
    assert "with depth=0, the value is evaluate(state, 'MAX') = 3" in text and "Yours, called on P1.1, returned -3" in text
    assert "Known mistake" not in text and not any(m.hint in text for m in ref.VALUE_MISTAKES)

    def off_by_a_little(state, player):
        return ref.mobility(positions.ISOLATION, state, player) * 0.999

    with pytest.raises(CheckFailed, match=r"\(mine - theirs\) / \(mine \+ theirs \+ 1\) = \(4 - 2\) / \(4 \+ 2 \+ 1\) = "
                       r"0.2857. Yours returned 0.2854."):
        groups.check_isolation_mobility(off_by_a_little)


def test_lab05_secret_cases_come_from_the_seed_and_the_student(monkeypatch):
    """Without a seed only public cases; with one, each student gets secret cases of their own, the same twice."""
    from coursetools.checks import common

    def secret_states(student):
        with common.for_student(student):
            return [(c.id, c.state) for c in lab05.value_games_cases() if c.id.startswith("secret")]

    monkeypatch.delenv("COURSE_SECRET_SEED", raising=False)
    assert secret_states("alice") == []
    monkeypatch.setenv("COURSE_SECRET_SEED", "lab05-test-seed")
    alice = secret_states("alice")
    assert alice and alice == secret_states("alice")
    assert alice != secret_states("bob")
    with common.for_student("alice"):
        fens = positions.chess_cases()
    assert len(fens) == len(positions.CHESS_CASES) + 8 + 12 and "secret" in fens[-1][0]


def test_lab05_quiescence_removes_the_horizon_effect_of_the_notebooks_exchange():
    """At depth 1 the depth-limited search takes the defended pawn (value 1); quiescence sees PxQ (value 0)."""
    tree = lab05.exchange_tree(lab05.EXCHANGE, lab05.EXCHANGE_NOISY, "start")
    guess = lab05.own_estimates(tree)
    assert ref.depth_limited_value(tree, "start", 1, guess) == 1
    assert ref.depth_limited_decision(tree, "start", 1, guess) == "QxP"
    assert ref.quiescence_value(tree, "start", 1, guess) == 0
    for case in lab05.quiescence_cases():
        depth, evaluate = case.args
        game = Traced(case.game)
        ref.quiescence_value(game, case.state, depth, game.evaluator(evaluate))
        noisy_guessed = [e.node for e in game.trace.events("evaluate") if case.game.is_noisy(e.node)]
        assert not noisy_guessed, (case.id, noisy_guessed)


def test_lab05_class_report_knows_every_mistake_by_its_key():
    """Each mistake model's hint is in the catalogue the class report reads, under the model's key."""
    from coursetools.grading.misconceptions import catalogue

    known = dict((text, key) for key, text in catalogue("05_heuristics"))
    for m in (ref.VALUE_MISTAKES + ref.DECISION_MISTAKES + ref.MOBILITY_MISTAKES + ref.WINDOWS_MISTAKES
              + ref.MATERIAL_MISTAKES + ref.QUIESCENCE_MISTAKES):
        assert known.get(m.hint) == m.key, m.key


def test_lab05_first_wrong_step_states_the_cut_off_rule_at_its_depth():
    """A search that stops at depth 1 (and at depth 0) is shown the first node it evaluated where the correct search
    goes on (its depth, window and the rule there); a search that evaluates below a terminal state's depth is shown
    the terminal state; nothing claims what the search does at depth 0."""

    def stops_at_one(game, state, depth, evaluate):
        flags = ref.Flags(cut=1)
        if depth == 0:
            return ref.depth_limited_value(game, state, 0, evaluate)
        return ref.depth_limited_value(game, state, depth, evaluate, flags)

    with pytest.raises(CheckFailed) as failure:
        groups.check_value_cutoff(stops_at_one)
    text = str(failure.value)
    assert "the 16-leaf tree with depth=2: your search first differs from the correct one at step 2, below P1.0 > " \
           "P2.0." in text
    assert "MIN node P2.0, window (alpha, beta) = (-inf, inf), no child searched yet, depth 1." in text
    assert "It is not terminal and its depth is 1 > 0, so the cut-off rule does not apply" in text
    assert "Yours evaluated P2.0." in text and "never stops" not in text

    with pytest.raises(CheckFailed) as failure:
        groups.check_value_cutoff(with_flags(ref.Flags(terminal_first=False)))
    text = str(failure.value)
    assert "a terminal state.\nA terminal state is valued by game.utility(state, 'MAX') at any depth" in text


def with_flags(flags):
    def search(game, state, depth, evaluate):
        return ref.depth_limited_value(game, state, depth, evaluate, flags)

    return search


def test_lab05_a_wrong_window_count_shows_the_students_tally_beside_the_correct_one():
    """A window count wrong in which windows it counts: the message shows the correct tally and the student's own
    number in the same terms (its difference of weighted totals over the same scale), at the position that differs."""
    from coursetools.checks.lab05 import groups
    from coursetools.checks.lab05 import reference as ref
    from coursetools.hidden import CheckFailed

    blocked = next(m for m in ref.WINDOWS_MISTAKES if m.key == "windows_blocked_counted")
    with pytest.raises(CheckFailed) as failure:
        groups.check_connect_four_windows(blocked.model)
    assert ("(11 - 9) / (9 * 69 + 1) = 2 / 622 = 0.003215. Yours returned 0.006431, which is 4 / 622: a difference "
            "of 4 between the weighted totals, where the correct one is 2.") in str(failure.value)
    unscaled = next(m for m in ref.WINDOWS_MISTAKES if m.key == "windows_unscaled")
    with pytest.raises(CheckFailed) as failure:
        groups.check_connect_four_windows(unscaled.model)
    assert "Yours returned -11: the difference of the weighted totals itself, not over 622." in str(failure.value)


def test_lab05_one_more_eaten_is_one_point_ahead_with_the_distances_turned_against_a(solution):
    game, (first, second) = positions.food_one_more_eaten()
    (_, best), (_, worst) = first, second

    def food_left(s):
        return bin(s.food).count("1")

    assert food_left(best) + sum(best.scores) == food_left(worst) + sum(worst.scores)  # as much food in all
    assert best.scores[0] - best.scores[1] == 0 and worst.scores[0] - worst.scores[1] == 1
    assert best.food >> best.positions[0] & 1  # A on food
    walled = best.positions[1]
    assert worst.positions[0] == walled and not game.is_terminal(best) and not game.is_terminal(worst)
    assert game.actions(worst) == ["block"]  # A walled in: no move, no food to eat
    assert ref.food_evaluation(worst, "A") > ref.food_evaluation(best, "A")
    assert solution["food_grid_evaluate"](worst, "A") > solution["food_grid_evaluate"](best, "A")


def _slow_after(calls: int, seconds: float):
    """An evaluation that answers quickly `calls` times, then busies itself `seconds` of processor time a call."""
    count = [0]

    def slow_evaluation(state, player):
        count[0] += 1
        if count[0] > calls:
            end = time.process_time() + seconds
            while time.process_time() < end:
                pass
        return 0.0
    return slow_evaluation


def _stopped(fn, limit: float) -> str:
    from coursetools.hidden import time_limit
    name = "isolation_improved"
    with pytest.raises(CheckFailed) as failed:
        with time_limit(limit, wall=60 * limit):
            tour.play_tournament(fn, name, positions.isolation_openings(name), 3, tour.isolation_baselines(3),
                                 title="a slow tournament", tag="slow",
                                 yardstick=tour.Yardstick("a correct isolation_mobility",
                                                          lambda s, p: ref.mobility(positions.ISOLATION, s, p)))
    return str(failed.value)


def test_lab05_a_tournament_stopped_by_slow_calls_says_each_call_is_slow_with_the_numbers():
    message = _stopped(_slow_after(0, 0.01), 3)
    assert "Each call of yours is slow" in message and "endless loop" not in message, message
    per = float(message.split("a call of yours took ")[1].split(" ms")[0])
    assert 8 <= per < 14, message  # 10 ms a call, read from the processor clock
    assert "a correct isolation_mobility" in message and "of the 3 s" in message


def test_lab05_a_tournament_stopped_inside_one_call_says_both_possibilities():
    message = _stopped(_slow_after(200, 1000), 1.0)
    assert "answered 200 positions" in message and "Either one call of yours never returned" in message, message
    assert "Each call of yours is slow" not in message
