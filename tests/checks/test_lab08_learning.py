"""Lab 08 (learning an evaluation from self-play): the grader's models and hidden-test groups, run directly and
over the checker's real channel to a second process (the bank runs them through nbgrader)."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path

import nbformat
import pytest

from course_lib.games import TicTacToe
from course_lib.learning import (EXACT_POSITIONS, HAND_WEIGHTS, N_FEATURES, curve_text, encode_record, features,
                                 learning_curve, record_message, values_chart, weights_chart)
from course_lib.learning import leaf_record_message as record_leaf_message
from coursetools.checks import lab08
from coursetools.checks.kit import Case
from coursetools.checks.lab08 import reference as ref
from coursetools.course.labfiles import solution_answers
from coursetools.grading import checker
from coursetools.hidden import CheckFailed

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "source" / "08_learning" / "08_learning.ipynb"
TTT = TicTacToe()
COMPARED = "in what this test compares (position, move, value, target, TD error, weights) at update"


def _all(td, mv, sp) -> list[int]:
    return [lab08.check_td_update(td), lab08.check_move_values(mv), lab08.check_self_play(sp, mv, td),
            lab08.check_traces(sp)]


def _fails(group, *fns) -> str | None:
    try:
        group(*fns)
    except CheckFailed as exc:
        return str(exc)
    return None


def test_lab08_checks_pass_the_references_quickly():
    start = time.process_time()
    assert _all(ref.td_update, ref.move_values, ref.self_play_episode) == [9, 7, 7, 4]
    assert time.process_time() - start < 5


@pytest.mark.parametrize("mistake", ref.TD_MISTAKES, ids=lambda m: m.key)
def test_lab08_each_td_mistake_is_named_in_its_group_only(mistake):
    text = _fails(lab08.check_td_update, mistake.model)
    assert text is not None and "Known mistake" in text and mistake.hint in text
    assert "weight" in text.split("\n")[0] and "TD error" in text
    assert _fails(lab08.check_self_play, ref.self_play_episode, ref.move_values, mistake.model) is None


@pytest.mark.parametrize("mistake", ref.MOVE_MISTAKES, ids=lambda m: m.key)
def test_lab08_each_move_mistake_is_named_and_costs_nothing_in_self_play(mistake):
    text = _fails(lab08.check_move_values, mistake.model)
    assert text is not None and mistake.hint in text
    # a self-play that uses the student's own (wrong) move_values is not charged again
    def playing(game, weights, rng, alpha, epsilon, lam=0.0):
        return ref.self_play_episode.__wrapped__(game, weights, rng, alpha, epsilon, lam, mistake.model) \
            if hasattr(ref.self_play_episode, "__wrapped__") else _own(game, weights, rng, alpha, epsilon, lam,
                                                                        mistake.model)
    assert _fails(lab08.check_self_play, playing, mistake.model, ref.td_update) is None
    assert _fails(lab08.check_traces, playing) is None


def _own(game, weights, rng, alpha, epsilon, lam, values):
    w, trace, s, history = list(weights), [0.0] * N_FEATURES, game.initial, []
    while not game.is_terminal(s):
        st = ref.step(game, s, w, trace, rng, alpha, epsilon, lam, values=values)
        history.append(st)
        w, trace, s = st.weights, st.trace, game.result(s, st.action)
    return w, history


@pytest.mark.parametrize("mistake", ref.SELF_PLAY_MISTAKES, ids=lambda m: m.key)
def test_lab08_each_self_play_mistake_is_named_with_its_first_wrong_update(mistake):
    text = _fails(lab08.check_self_play, mistake.model(), ref.move_values, ref.td_update)
    assert text is not None and mistake.hint in text
    assert "first differs from the correct one " + COMPARED in text


@pytest.mark.parametrize("mistake", ref.TRACE_MISTAKES[:3], ids=lambda m: m.key)
def test_lab08_each_trace_mistake_is_named(mistake):
    text = _fails(lab08.check_traces, mistake.model())
    assert text is not None and mistake.hint in text


@pytest.mark.parametrize("key", ["target_current_value", "explore_value"])
def test_lab08_a_lam0_mistake_costs_nothing_in_the_traces_group(key):
    mistake = next(m for m in ref.SELF_PLAY_MISTAKES if m.key == key)
    assert _fails(lab08.check_traces, mistake.model()) is None


@pytest.mark.parametrize("key", ["trace_no_sign", "trace_not_reset"])
def test_lab08_a_trace_mistake_costs_nothing_with_lam_0(key):
    mistake = next(m for m in ref.TRACE_MISTAKES if m.key == key)
    assert _fails(lab08.check_self_play, mistake.model(), ref.move_values, ref.td_update) is None


def test_lab08_the_default_lam_is_checked():
    def default_half(game, weights, rng, alpha, epsilon, lam=0.5):
        return ref.self_play_episode(game, weights, rng, alpha, epsilon, lam)
    text = _fails(lab08.check_self_play, default_half, ref.move_values, ref.td_update)
    assert text is not None and "matches none of the known mistakes" in text


def test_lab08_an_unknown_mistake_gets_its_first_wrong_update_and_no_name():
    def double_alpha(game, weights, rng, alpha, epsilon, lam=0.0):
        return ref.self_play_episode(game, weights, rng, 2 * alpha, epsilon, lam)
    text = _fails(lab08.check_self_play, double_alpha, ref.move_values, ref.td_update)
    assert "game 1: your record first differs from the correct one " + COMPARED in text
    assert "matches none of the known mistakes" in text
    assert not any(m.hint in text for m in ref.SELF_PLAY_MISTAKES + ref.TRACE_MISTAKES)


def test_lab08_each_update_is_replayed_from_the_students_own_state():
    """A game is replayed from the weights the student's previous game returned (here off by 3e-7 from the
    correct ones, within the tolerance, so the games that follow differ from the correct run's in their last
    digits), and a learner wrong only in its second game is told about game 2."""
    def noisy(game, weights, rng, alpha, epsilon, lam=0.0):
        w, history = ref.self_play_episode(game, weights, rng, alpha, epsilon, lam)
        last = history[-1]._replace(weights=[x + 3e-7 for x in history[-1].weights])
        return last.weights, history[:-1] + [last]
    assert _fails(lab08.check_self_play, noisy, ref.move_values, ref.td_update) is None
    calls = []

    def second_game_wrong(game, weights, rng, alpha, epsilon, lam=0.0):
        calls.append(1)
        return ref.self_play_episode(game, weights, rng, alpha, epsilon, lam,
                                     bug="current" if len(calls) == 2 else "")
    text = _fails(lab08.check_self_play, second_game_wrong, ref.move_values, ref.td_update)
    assert "game 2: your record first differs from the correct one " + COMPARED in text


def test_lab08_a_learner_drawing_more_numbers_is_told_the_order_of_draws():
    def extra_draw(game, weights, rng, alpha, epsilon, lam=0.0):
        out = ref.self_play_episode(game, weights, rng, alpha, epsilon, lam)
        rng.random()
        return out
    text = _fails(lab08.check_self_play, extra_draw, ref.move_values, ref.td_update)
    assert "exactly one rng.random()" in text


def test_lab08_the_visible_record_check_grades_its_own_function_only():
    w = list(HAND_WEIGHTS)
    _, rec = ref.self_play_episode(TTT, w, random.Random(1), 0.5, 0.3)
    moves, before = [], w
    for st in rec:
        moves.append(ref.move_values(TTT, st.state, before))
        before = st.weights
    want = encode_record(rec, moves)
    assert record_message("c", rec, want) is None
    bad_mv = ref.MOVE_MISTAKES[0].model
    _, theirs = _own(TTT, w, random.Random(1), 0.5, 0.3, 0.0, bad_mv)
    assert record_message("c", theirs, want) is not None
    assert record_message("c", theirs, want, game=TTT, move_values=bad_mv, start=w) is None
    _, slip = ref.self_play_episode(TTT, w, random.Random(1), 0.5, 0.3, bug="explore_value")
    text = record_message("c", slip, want, game=TTT, move_values=ref.move_values, start=w)
    assert text is not None and "first differs from the correct one at update" in text


def _minimax(state) -> float:
    @lru_cache(maxsize=None)
    def v(s):
        if TTT.is_terminal(s):
            return TTT.utility(s, TTT.to_move(s))
        return max(-v(TTT.result(s, a)) for a in TTT.actions(s))
    return (v(state) + 1) / 2


def test_lab08_the_exact_values_shown_are_minimax_values():
    for name, rows, exact in EXACT_POSITIONS:
        assert _minimax(TTT.state_from(list(rows))) == exact, name


def test_lab08_figures_carry_text_alternatives_with_their_numbers():
    curve = [(0, {"random": (3, 1, 6), "hand-made": (0, 2, 8)}), (50, {"random": (9, 1, 0), "hand-made": (4, 4, 2)})]
    p = learning_curve(curve)
    assert p.alt == curve_text(curve)
    assert "after 50 games, against random: 9 won, 1 drawn, 0 lost; against hand-made: 4 won, 4 drawn, 2 lost" in p.alt
    line = p.find("line:random:win")
    assert list(line.get_ydata()) == [0.3, 0.9]
    h = [(0, [0.0] * N_FEATURES), (10, [0.5, 0, 0, 0, 0, 0, -1.25])]
    assert "bias from 0 to 0.5" in weights_chart(h).alt and "corners from 0 to -1.25" in weights_chart(h).alt
    rows = [("empty board", "X", 0.61, 0.5)]
    assert values_chart(rows).alt.endswith("empty board (X to move): learned 0.61, exact 0.50.")


def test_lab08_features_count_open_lines():
    s = TTT.state_from(["XX.", "O..", "..."])
    assert features(s, "X") == [1.0, 2.0, 1.0, 1.0, 0.0, 0.0, 1.0]
    assert features(s, "O") == [1.0, 1.0, 0.0, 2.0, 1.0, 0.0, -1.0]


# -- over the channel: the lab's own solution in a second process, as in a grading kernel -------------------------

def _solution_code() -> str:
    answers = solution_answers(SOURCE)
    parts = ["from course_lib.learning import LeafStep, Step, features, reward, value"] + [
        answers[g] for g in ("td_update", "move_values", "self_play_episode", "td_leaf_update")]
    return "\n\n".join(p.replace("### BEGIN SOLUTION\n", "").replace("### END SOLUTION\n", "") for p in parts)


def test_lab08_the_solution_passes_every_group_over_the_channel_within_the_time_limit():
    names = ["td_update", "move_values", "self_play_episode", "td_leaf_update"]
    run = checker.HiddenRun(checker.CheckCall("08_learning", "self_play", {n: n for n in names}), "/tmp")
    proc = subprocess.Popen([sys.executable, "-c", _solution_code() + "\n" + run.code()])
    sock = run._accept(lambda: proc.poll() is None)
    assert sock is not None
    peer = checker.CheckerPeer(sock, time.monotonic() + 60)
    try:
        hello = peer.receive()
        assert hello["op"] == "hello"
        fns = {name: peer.dec(v) for name, v in hello["names"].items()}
        run.close()
        start = time.monotonic()
        counts = _all(fns["td_update"], fns["move_values"], fns["self_play_episode"])
        counts.append(lab08.check_td_leaf(fns["td_leaf_update"], fns["td_update"]))
        took = time.monotonic() - start
        assert counts == [9, 7, 7, 4, 6]
        assert took < 20, f"the hidden checks of a correct submission took {took:.1f} s"
        print(f"lab 08 hidden checks over the channel: {took:.2f} s")
    finally:
        peer.send({"op": "bye"})
        proc.wait(10)


def test_lab08_source_states_its_graded_functions():
    nb = nbformat.read(SOURCE, as_version=4)
    text = "\n".join(c.source for c in nb.cells)
    for sig in ("td_update(weights, features, target, alpha)", "move_values(game, state, weights)",
                "self_play_episode(game, weights, rng, alpha, epsilon, lam=0.0)",
                "td_leaf_update(game, weights, state, next_state, search, depth, alpha)"):
        assert sig in text


def test_lab08_training_runs_within_the_lab_and_cell_limits():
    """The lab's training cell (1000 games of self-play and its test matches), run with the solutions, takes well
    under the lab's 60 s and under the demo's per-cell limit, and the learner beats the random player more often
    after training than before."""
    from coursetools.quality.demo import DEMO_CELL_TIMEOUT

    nb = nbformat.read(SOURCE, as_version=4)
    namespace: dict = {"display": lambda *a, **k: None}
    training = None
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or "colab-setup" in cell.metadata.get("tags", []) or meta.get("grade"):
            continue
        if "def train(" in cell.source:
            training = cell.source
            break
        exec(compile(cell.source, "lab08", "exec"), namespace)  # noqa: S102 - the lab's own cells
    assert training is not None
    start = time.process_time()
    exec(compile(training, "lab08-training", "exec"), namespace)  # noqa: S102
    took = time.process_time() - start
    print(f"lab 08 training: {took:.1f} s of processor time")
    assert took < min(60, DEMO_CELL_TIMEOUT) / 2
    curve = namespace["curve"]
    assert curve[-1][1]["random"][0] > curve[0][1]["random"][0]
    assert curve[-1][1]["hand-made"][0] > curve[0][1]["hand-made"][0]


# -- cases drawn for each submission --------------------------------------------------------------------------

STAMPS = [f"2026-11-{day:02d} {hour:02d}:17:03.{day * hour:06d} UTC" for day, hour in zip(range(1, 21), range(3, 23))]
GROUPS = {"td_update": ("td_update",), "move_values": ("move_values",),
          "self_play": ("self_play_episode", "move_values", "td_update"), "traces": ("self_play_episode",)}


def _lab08(entry: str | None) -> dict:
    """Lab 08's graded functions: the solution, with a bank entry's cells in place of its own."""
    from coursetools.quality.submission import parse_answers

    answers = solution_answers(SOURCE)
    if entry:
        answers.update(parse_answers((ROOT / "bank" / "08_learning" / f"{entry}.py").read_text()))
    namespace: dict = {}
    exec("from course_lib.learning import N_FEATURES, Step, features, reward, value", namespace)  # noqa: S102
    for code in answers.values():
        exec(code, namespace)  # noqa: S102
    return namespace


def _failing(fns: dict) -> list[str]:
    from coursetools.hidden import check

    out = []
    for group, names in GROUPS.items():
        try:
            check("08_learning", group, **{n: fns[n] for n in names})
        except CheckFailed:
            out.append(group)
    return out


def test_lab08_a_submission_meets_its_own_draw(monkeypatch):
    from coursetools.checks import common
    from coursetools.checks.lab08 import cases as data

    monkeypatch.setenv("COURSE_SECRET_SEED", "draws-test-seed")
    for make in (data.td_rows, data.positions, data.self_play, data.traces):
        with common.for_student("ada", STAMPS[0]):
            first = [(c.id, repr((c.state, c.args))) for c in make()]
        with common.for_student("ada", STAMPS[0]):
            again = [(c.id, repr((c.state, c.args))) for c in make()]
        with common.for_student("ada", STAMPS[1]):
            later = [(c.id, repr((c.state, c.args))) for c in make()]
        assert first == again and [i for i, _ in first] == [i for i, _ in later]
        assert [c for i, c in first if i.startswith("secret")] != [c for i, c in later if i.startswith("secret")]


@pytest.mark.slow
@pytest.mark.parametrize("entry, failing", [(None, []), ("no_squash_gradient", ["td_update"]),
                                            ("trace_not_reset", ["traces"]), ("explore_value", ["self_play"])])
def test_lab08_a_bank_entry_scores_the_same_under_twenty_timestamps(monkeypatch, entry, failing):
    from coursetools.checks import common

    monkeypatch.setenv("COURSE_SECRET_SEED", "draws-test-seed")
    fns = _lab08(entry)
    for stamp in STAMPS:
        with common.for_student("bank", stamp):
            assert _failing(fns) == failing, stamp


def test_lab08_a_wrong_move_is_explained_with_the_draw_and_the_move_values():
    def last_of_ties(game, weights, rng, alpha, epsilon, lam=0.0):
        w, trace, s, history = list(weights), [0.0] * N_FEATURES, game.initial, []
        while not game.is_terminal(s):
            st = ref.step(game, s, w, trace, rng, alpha, epsilon, lam,
                          values=lambda g, state, ws: list(reversed(ref.move_values(g, state, ws))))
            history.append(st)
            w, trace, s = st.weights, st.trace, game.result(s, st.action)
        return w, history
    text = _fails(lab08.check_self_play, last_of_ties, ref.move_values, ref.td_update)
    assert "game 1: your record first differs from the correct one " + COMPARED + " 1" in text
    assert ("rng.random() gives 0.1344, not below epsilon = 0, so it plays the first move of largest value, (0, 0) "
            "(worth 0.5)") in text
    assert "Yours played (2, 2)." in text and "matches none of the known mistakes" in text


def _learner(record_after: bool = False, value_of_x: bool = False):
    """A self-play learner built on the reference step with one slip: the position after the move recorded, or O's
    value and trace taken from X's features."""
    def episode(game, weights, rng, alpha, epsilon, lam=0.0):
        w, trace, s, history = list(weights), [0.0] * N_FEATURES, game.initial, []
        while not game.is_terminal(s):
            st = ref.step(game, s, w, trace, rng, alpha, epsilon, lam)
            if value_of_x and game.to_move(s) == "O":
                fx = features(s, "X")
                v = ref.value(w, fx)
                tr = [-lam * e + v * (1 - v) * x for e, x in zip(trace, fx)]
                st = st._replace(value=v, error=st.target - v, trace=tr,
                                 weights=[wi + alpha * (st.target - v) * e for wi, e in zip(w, tr)])
            history.append(st._replace(state=game.result(s, st.action)) if record_after else st)
            w, trace, s = st.weights, st.trace, game.result(s, st.action)
        return w, history
    return episode


def test_lab08_an_explored_move_is_explained_with_the_move_rng_choice_drew():
    def without_best(game, weights, rng, alpha, epsilon, lam=0.0):
        w, trace, s, history = list(weights), [0.0] * N_FEATURES, game.initial, []
        while not game.is_terminal(s):
            moves = ref.move_values(game, s, w)
            best = max(range(len(moves)), key=lambda i: (moves[i][1], -i))
            explore = rng.random() < epsilon
            a = rng.choice([m for m, _ in moves if m != moves[best][0]]) if explore else moves[best][0]
            rng_free = random.Random()
            st = ref.step(game, s, w, trace, rng_free, alpha, 0.0, lam, action=a)
            history.append(st)
            w, trace, s = st.weights, st.trace, game.result(s, a)
        return w, history
    text = _fails(lab08.check_self_play, without_best, ref.move_values, ref.td_update)
    assert text is not None and "so it explores: rng.choice(game.actions(state)) draws" in text
    assert "the first move of largest value" not in text


def test_lab08_a_wrong_position_or_value_is_said_first_from_the_state_before_the_step():
    text = _fails(lab08.check_traces, _learner(record_after=True))
    assert "at update 1, from the position below (X to move)" in text
    assert "Each Step records the position before its move" in text and "Yours recorded this position (O to move)" in text
    case = Case("hand-made", "", TTT, TTT.initial, (list(HAND_WEIGHTS), 1, 0.5, 0.3, 0.6, 1))
    games = lab08.groups.play(_learner(value_of_x=True), case, student=False)
    text = lab08.groups._first_wrong(case, games, lab08.groups.TRACE_FIELDS, {})
    assert "update 2, from the position below (O to move)" in text and "value 0.4099, target 0.7036" in text
    assert "The value is value(weights, features(state, p))" in text and "Yours recorded value 0.6072." in text


def test_lab08_the_visible_record_check_states_the_draw_it_ships():
    w = list(HAND_WEIGHTS)
    rng, s, trace, rec, moves, draws = random.Random(1), TTT.initial, [0.0] * N_FEATURES, [], [], []
    while not TTT.is_terminal(s):
        probe = random.Random()
        probe.setstate(rng.getstate())
        r = probe.random()
        draws.append((r, 0.3, probe.choice(TTT.actions(s)) if r < 0.3 else None))
        moves.append(ref.move_values(TTT, s, w))
        st = ref.step(TTT, s, w, trace, rng, 0.5, 0.3, 0.0)
        rec.append(st)
        w, trace, s = st.weights, st.trace, TTT.result(s, st.action)
    want = encode_record(rec, moves, draws)
    assert record_message("c", rec, want) is None
    slip = [rec[0]._replace(action=(1, 1)), *rec[1:]]
    text = record_message("c", slip, want)
    assert "rng.random() gives 0.1344, below epsilon = 0.3, so it explores: rng.choice(game.actions(state)) draws " \
           "(0, 1)" in text and "Yours played (1, 1)." in text


def test_lab08_a_group_says_which_fields_it_compares_and_an_earlier_ungraded_difference():
    """A learner valuing every position from X's view: with zero weights its first games agree on every field
    the self-play group compares, while its trace (graded by the traces group) differs from game 1, update 2;
    the message names the fields compared and states the earlier trace difference as a fact."""
    def value_for_x(game, weights, rng, alpha, epsilon, lam=0.0):
        w, trace, s, history = list(weights), [0.0] * N_FEATURES, game.initial, []
        while not game.is_terminal(s):
            f = features(s, "X")
            v = ref.value(w, f)
            moves = ref.move_values(game, s, w)
            best = max(range(len(moves)), key=lambda i: (moves[i][1], -i))
            a = rng.choice(game.actions(s)) if rng.random() < epsilon else moves[best][0]
            target = moves[best][1]
            trace = [-lam * e + v * (1 - v) * x for e, x in zip(trace, f)]
            w = [wi + alpha * (target - v) * e for wi, e in zip(w, trace)]
            history.append(ref.Step(s, a, v, target, target - v, list(trace), list(w)))
            s = game.result(s, a)
        return w, history
    text = _fails(lab08.check_self_play, value_for_x, ref.move_values, ref.td_update)
    assert "game 2: your record first differs from the correct one in what this test compares (position, move, " \
           "value, target, TD error, weights) at update 2" in text
    assert "(Your record's trace, which this test does not compare, already differs from the correct learner's " \
           "earlier: at game 1, update 2.)" in text



# -- TDLeaf ---------------------------------------------------------------------------------------------------

def test_lab08_td_leaf_passes_the_reference_and_its_search_is_the_minimax_leaf():
    assert lab08.check_td_leaf(ref.td_leaf_update, ref.td_update) == 6
    rng = random.Random(8)
    for _ in range(60):  # the alpha-beta leaf is the leaf of a plain minimax that keeps the first best child
        s = TTT.initial
        for _ in range(rng.randint(0, 5)):
            s = TTT.result(s, rng.choice(TTT.actions(s)))
        w = [round(rng.uniform(-1, 1), 1) for _ in range(N_FEATURES)]
        depth, p = rng.randint(1, 4), TTT.to_move(s)

        def mm(x, d, w=w, p=p):
            if TTT.is_terminal(x):
                return ref.reward(TTT, x, p), x
            if d == 0:
                return ref.value(w, features(x, p)), x
            kids = [mm(TTT.result(x, a), d - 1, w, p) for a in TTT.actions(x)]
            best = (max if TTT.to_move(x) == p else min)(v for v, _ in kids)
            return next(k for k in kids if k[0] == best)
        assert ref.pv_leaf(TTT, s, depth, w) == mm(s, depth)[1]


@pytest.mark.parametrize("mistake", ref.LEAF_MISTAKES, ids=lambda m: m.key)
def test_lab08_each_td_leaf_mistake_is_named_and_the_visible_test_explains_it(mistake):
    text = _fails(lab08.check_td_leaf, mistake.model, ref.td_update)
    assert text is not None and mistake.hint in text and "at update 1, from the position below" in text
    nb = nbformat.read(SOURCE, as_version=4)
    cell = next(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_td_leaf")
    visible = cell.split("### BEGIN HIDDEN TESTS")[0]
    with pytest.raises(AssertionError, match="first differs from the correct one at update 1"):
        exec(visible, {"leaf_record_message": record_leaf_message, "td_leaf_update": mistake.model, "ttt": TTT})  # noqa: S102


def test_lab08_the_visible_td_leaf_cases_are_the_public_cases_of_the_checks():
    nb = nbformat.read(SOURCE, as_version=4)
    cell = next(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "test_td_leaf")
    for case_id in ("hand-depth-1", "o-wins-depth-3"):
        assert lab08.groups.leaf_public(case_id) in cell


def test_lab08_a_td_leaf_update_is_replayed_from_the_students_weights_and_may_use_its_own_td_update():
    """A learner wrong at one update only is told about that update; one that moves the weights with its own
    td_update (a different, wrong one: graded in test_td_update) on the leaf's features costs nothing here."""
    calls = []

    def third_wrong(game, weights, state, next_state, search, depth, alpha):
        calls.append(1)
        st = ref.td_leaf_update(game, weights, state, next_state, search, depth, alpha)
        return st._replace(error=st.error + 0.01) if len(calls) == 3 else st
    text = _fails(lab08.check_td_leaf, third_wrong, ref.td_update)
    assert "at update 3," in text and "Yours returned error" in text and "none of the known mistakes" in text

    def own_td(weights, feats, target, alpha):
        return ref.td_update(weights, feats, target, 2 * alpha)

    def with_own(game, weights, state, next_state, search, depth, alpha):
        st = ref.td_leaf_update(game, weights, state, next_state, search, depth, alpha)
        if game.is_terminal(st.leaf):
            return st
        return st._replace(weights=own_td(weights, features(st.leaf, game.to_move(state)), st.target, alpha))
    assert _fails(lab08.check_td_leaf, with_own, own_td) is None
    assert _fails(lab08.check_td_leaf, with_own, ref.td_update) is not None


def test_lab08_the_lent_search_records_what_it_is_asked_and_refuses_bad_arguments():
    case = lab08.groups.data.td_leaf()[0]
    asked: list = []
    search = lab08.groups._lent_search(case, asked, [0.0] * N_FEATURES)
    leaf = search(TTT.initial, 2, [0.0] * N_FEATURES)
    assert leaf == ref.pv_leaf(TTT, TTT.initial, 2, [0.0] * N_FEATURES)
    search(TTT.initial, 1, [1.0] * N_FEATURES)
    assert asked == [(TTT.initial.board, 2, True), (TTT.initial.board, 1, False)]
    for bad in (("XO.", 2, [0.0] * 7), (TTT.initial, 2.0, [0.0] * 7), (TTT.initial, 2, [0.0] * 6)):
        with pytest.raises((TypeError, ValueError), match=r"search\(state, depth, weights\)"):
            search(*bad)


def test_lab08_a_td_leaf_message_says_when_the_leaf_or_the_next_position_is_a_finished_game():
    def late(game, weights, state, next_state, search, depth, alpha):
        st = ref.td_leaf_update(game, weights, state, next_state, search, depth, alpha)
        return st._replace(target=st.target + 0.1) if game.is_terminal(next_state) else st
    text = _fails(lab08.check_td_leaf, late, ref.td_update)
    assert "at update 9," in text and "gets this leaf from the search (a finished game)" in text
    assert ("the next position (below) is a finished game, valued by its reward: its reward for X is the target, "
            "0.5; TD error 0.") in text
    assert "TD error 0.\n    0 1 2\n  0 O X X\n  1 X X O\n  2 O O X\n" in text  # the next position, right below
    assert "Yours returned target 0.6." in text


def test_lab08_exploring_when_the_draw_equals_epsilon_is_caught_and_explained():
    """The boundary of the rule: a case whose epsilon is exactly the first number its generator draws. A learner
    exploring at equality (<=) fails there, the message says the number is epsilon itself, and the mistake is named."""
    explore_eq = next(m for m in ref.SELF_PLAY_MISTAKES if m.key == "explore_at_epsilon")
    with pytest.raises(CheckFailed) as failure:
        lab08.check_self_play(explore_eq.model())
    text = str(failure.value)
    assert "epsilon exactly the first number drawn" in text
    assert f"gives {random.Random(7).random()!r}, exactly epsilon: that is not below epsilon" in text
    assert explore_eq.hint in text


def test_lab08_a_tiny_td_error_is_shown_as_0():
    """A TD error that is zero but for float rounding prints as 0, never as 5.551e-17."""
    from course_lib.learning import Step, first_wrong_update

    s = TicTacToe().initial
    want = Step(s, (1, 1), 0.48, 0.48 + 5.551115123125783e-17, 5.551115123125783e-17, [0.0] * 7, [0.0] * 7)
    got = want._replace(value=0.5)
    text = first_wrong_update("a case", 1, want, got, ["value"])
    assert "TD error 0." in text and "e-17" not in text


def test_lab08_steps_sharing_one_trace_list_are_told_so():
    """A learner that stores one trace list, changed in place, in every Step: the message says every recorded step
    holds the same, final trace, and why (the visible record check and the traces group alike)."""
    def shared(game, weights, rng, alpha, epsilon, lam=0.0):
        w, history = ref.self_play_episode(game, weights, rng, alpha, epsilon, lam)
        last = history[-1].trace
        return w, [st._replace(trace=last) for st in history]
    text = _fails(lab08.check_traces, shared)
    assert text is not None and "recorded steps holds the same trace" in text
    assert "one list is kept, changed in place at each step and stored in every Step" in text
