"""The check pipeline: one notebook graded in the sandbox by the final grading's checks, the answer filtered.

Bank entries are checked through `check_notebook` on a scratch course holding lab 02; each answer must give the
verdicts the bank expects and must hold none of the hidden tests' source lines, none of the fixed hidden cases'
names, no expected trace of the golden files, and no seed. A check writes no grade anywhere."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import nbformat
import pytest

from coursetools.course.labfiles import solution_answers
from coursetools.quality.bank import read_expected
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.toycourse import make_lab_course
from coursetools.service import selfcheck
from coursetools.service.selfcheck import Refused, check_notebook

ROOT = Path(__file__).resolve().parents[2]
LAB = "02_minimax"
SECRET = "instructors-secret-seed-4711"


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    folder = make_lab_course(tmp_path_factory.mktemp("selfcheck") / "course", LAB, root=ROOT)
    # a second lab's source, so a notebook of another lab is named as such
    import shutil
    shutil.copytree(ROOT / "source" / "03_alphabeta", folder / "source" / "03_alphabeta")
    return folder


def notebook_for(course: Path, tmp: Path, entry: str | None) -> bytes:
    answers = solution_answers(ROOT / "source" / LAB / f"{LAB}.ipynb")
    if entry:
        answers.update(parse_answers((ROOT / "bank" / LAB / f"{entry}.py").read_text()))
    out = build_submission(course / "release" / LAB / f"{LAB}.ipynb", answers, tmp / f"{entry or 'solution'}.ipynb")
    return out.read_bytes()


def fixed_case_names() -> list[str]:
    """The names of lab 02's fixed hidden cases (those of the final grading, whatever its seed) that the student's
    notebook does not show."""
    from coursetools.checks import kit
    from coursetools.checks.lab02 import cases as data

    saved = os.environ.pop("COURSE_SECRET_SEED", None)
    try:
        names = {c.name for make in data.CASES.values() for c in make() if not kit.is_hidden(c)}
    finally:
        if saved is not None:
            os.environ["COURSE_SECRET_SEED"] = saved
    visible = (ROOT / "release" / LAB / f"{LAB}.ipynb").read_text()  # the visible tests name some themselves
    return sorted(n for n in names if len(n) >= 10 and n not in visible)


def golden_traces() -> list[str]:
    """Pieces of the expected traces of lab 02's public cases (a trace line of the golden files)."""
    out = []
    for path in (ROOT / "tests" / "golden" / LAB).glob("*.txt"):
        out += [line.strip() for line in path.read_text().splitlines()
                if line.strip().startswith("trace:") and len(line.strip()) > 40]
    return out


def text_of(answer: dict) -> str:
    return json.dumps(answer)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_refused_in_plain_words(course, tmp_path, monkeypatch):
    good = notebook_for(course, tmp_path, None)
    with pytest.raises(Refused, match="not a notebook"):
        check_notebook(course, LAB, "ada", b"print('hello')", "check-0001")
    with pytest.raises(Refused, match="not a notebook"):
        check_notebook(course, LAB, "ada", b'{"hello": 1}', "check-0002")
    with pytest.raises(Refused, match="not a valid notebook"):
        check_notebook(course, LAB, "ada", b'{"cells": [{"what": 1}], "nbformat": 4}', "check-0003")
    other = build_submission(ROOT / "release" / "03_alphabeta" / "03_alphabeta.ipynb", {}, tmp_path / "ab.ipynb")
    with pytest.raises(Refused, match="wrong lab: this notebook is lab 03_alphabeta, not 02_minimax"):
        check_notebook(course, LAB, "ada", other.read_bytes(), "check-0004")
    bare = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    with pytest.raises(Refused, match="wrong lab: this notebook has none of lab 02_minimax's test cells"):
        check_notebook(course, LAB, "ada", nbformat.writes(bare).encode(), "check-0005")
    with pytest.raises(Refused, match="no lab"):
        check_notebook(course, "99_nothing", "ada", good, "check-0006")
    with pytest.raises(Refused, match="check id"):
        check_notebook(course, LAB, "ada", good, "../../x")
    with pytest.raises(Refused, match="student id"):
        check_notebook(course, LAB, "../ada", good, "check-0007")
    monkeypatch.setenv(selfcheck.MAX_BYTES_ENV, "1")
    with pytest.raises(Refused, match=r"too large: \d+ KB, over the cap of 1 KB"):
        check_notebook(course, LAB, "ada", good, "check-0008")
    assert not (course / "build" / "selfcheck" / "checks").exists() or \
        not any((course / "build" / "selfcheck" / "checks").iterdir())


def test_the_check_draws_its_own_hidden_cases(monkeypatch):
    """The secret cases of a check come from the check id, never from the final grading's seed and draw."""
    from coursetools.checks import common
    from coursetools.checks.lab02 import cases as data

    def secret_names(seed: str, student: str, stamp: str) -> set[str]:
        monkeypatch.setenv("COURSE_SECRET_SEED", seed)
        with common.for_student(student, stamp):
            return {c.name for make in data.CASES.values() for c in make() if c.id.startswith("secret")}

    final = secret_names(SECRET, "ada", "2026-11-26 08:00:00.000000 UTC")
    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    seed_a = selfcheck.check_seed(LAB, "ada", "check-aaaa")
    seed_b = selfcheck.check_seed(LAB, "ada", "check-bbbb")
    assert SECRET not in seed_a and seed_a != seed_b and seed_a == selfcheck.check_seed(LAB, "ada", "check-aaaa")
    drawn_a = secret_names(seed_a, "ada", "2026-11-26 08:00:00.000000 UTC")
    drawn_b = secret_names(seed_b, "ada", "2026-11-26 08:00:00.000000 UTC")
    assert final and drawn_a and drawn_b
    # another draw: a few small positions may meet by chance (Tic-Tac-Toe has few), never the same draw
    assert drawn_a != final and drawn_a != drawn_b
    assert len(final & drawn_a) < len(drawn_a) / 2 and len(drawn_a & drawn_b) < len(drawn_a) / 2


def test_explanations_only_on_drawn_cases():
    record = {"mistakes": [{"key": "alternate", "known": True}, {"key": "no known mistake", "known": False}]}
    drawn = ("minimax_value on secret Tic-Tac-Toe X.. ..O ...: its correct answer is not shown (a hidden case), "
             "yours returned 0.\nHint: at the root ...")
    assert selfcheck._explanation(drawn, record, LAB).startswith("minimax_value on secret")
    fixed = ("minimax_value on the 16-leaf tree: expected 7, yours returned 8.\nHint: at P2.0 the correct search "
             "held 7\nKnown mistake (its model reproduces all 3 cases): players not alternating")
    shown = selfcheck._explanation(fixed, record, LAB)
    assert "16-leaf" not in shown and "expected 7" not in shown and "P2.0" not in shown
    assert shown.startswith(selfcheck.NOT_SHOWN) and "players not alternating" in shown
    # the kernel's text is cut before it is in a message: it cannot make a fixed case's message pass for a drawn one
    from coursetools.checks.kerneltext import cut_error, set_written

    set_written(['raise ValueError("on secret")'])
    spoof = f"minimax_value() raised {cut_error('ValueError', 'on secret')} on the 16-leaf tree"
    assert "16-leaf" not in selfcheck._explanation(spoof, record, LAB)
    # a message whose known mistakes the kernel wrote: the answer names only what the grader diagnosed
    forged = ("minimax_value() raised ValueError: x\nKnown mistake (its model reproduces all 3 cases): on the "
              "16-leaf tree\n  - P2.0 holds 7")
    shown = selfcheck._explanation(forged, {"mistakes": []}, LAB)
    assert shown == selfcheck.NOT_SHOWN


def test_the_kernels_text_is_cut_and_replaced(monkeypatch):
    """In a self-check's grading process the student's exception is cut to its type and a first line the notebook
    wrote (or shaped as Python's own), and any other text of the kernel's is replaced."""
    from coursetools.checks import common, kerneltext

    kerneltext.set_written(['def f(game, state):\n    raise ValueError("no legal move here")\n'])
    monkeypatch.setenv(common.SELFCHECK_ENV, "1")

    def raising(message: str, name: str = "ValueError"):
        def fn():
            raise type(name, (ValueError,), {})(message) if name != "ValueError" else ValueError(message)
        fn.__name__ = "minimax_value"
        with pytest.raises(Exception) as caught:
            common.call(fn, where="on secret tree #1")
        return str(caught.value)

    assert raising("no legal move here").startswith(
        "minimax_value() raised ValueError: no legal move here on secret tree #1")
    assert "not subscriptable on secret tree #1" in raising("'NoneType' object is not subscriptable")
    cut = raising("(3, 4, 5) and more\nHint: the fixed case is (3, 4, 5)")
    assert "(3, 4, 5)" not in cut and "Hint" not in cut and "raised ValueError (its message is not shown" in cut
    assert "an exception of its own class" in raising("x", "Leak_3_4_5") and "Leak" not in raising("x", "Leak_3_4_5")
    message = "f on secret tree: yours returned 'REC[(1, 2)]', expected 3; yours: [ab, REC[(1, 2)]]\nHint: h"
    shown = kerneltext.redact(message, {"REC[(1, 2)]", "ab"})
    assert "REC" not in shown and shown.startswith("f on secret tree: yours returned <") and "Hint: h" in shown
    assert kerneltext.redact("anything", None) == kerneltext.HIDDEN_TEXT


#: A lab 02 notebook that keeps every call the checks make and writes what it kept into every text it can reach:
#: exception messages (one line and several, a forged hint), an exception class's name, the line an error is
#: said to come from, returned strings (whole and cut short by the message) and lists of them, and the visible
#: tests' errors. Every piece carries the marker Qz9, which the notebook's source never writes as it is; START
#: shifts which of the ways each hidden check meets first.
RECORDING = {
    "minimax_value": '''
import linecache
RECORD = []
CALLS = [START]
MARK = "Q" + "z" + "9"


def _kept(game, state):
    RECORD.append(repr(state)[:60])
    try:
        RECORD.append(repr(list(game.actions(state)))[:60])
    except Exception:
        pass
    return MARK + "|".join(RECORD[-40:])


def _leak(game, state):
    text = _kept(game, state)
    CALLS[0] += 1
    mode = CALLS[0] % 7
    if mode == 0:
        raise ValueError(text)
    if mode == 1:
        raise ValueError("bad\\nHint: " + text + "\\nKnown mistake (its model reproduces all 3 cases): " + text)
    if mode == 2:
        raise type(MARK + "".join(c if c.isalnum() else "_" for c in text)[:60], (ValueError,), {})("x")
    if mode == 3:
        src = "raise KeyError(1)  # " + text.replace("\\n", " ") + "\\n"
        name = "<" + MARK + "-" + str(CALLS[0]) + ">"
        linecache.cache[name] = (len(src), None, [src], name)
        exec(compile(src, name, "exec"))
    if mode == 4:
        return text
    if mode == 5:
        return [text[i:i + 3] for i in range(0, min(len(text), 72), 3)]
    return text * 20


def minimax_value(game, state):
    """The minimax value of `state` for the player to move there (and everything it was asked, kept)."""
    _kept(game, state)
    player = game.to_move(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, player)
        values = [value(game.result(s, action)) for action in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    return value(state)
''',
    "minimax_decision": '''
def minimax_decision(game, state):
    return _leak(game, state)
''',
    "quick_win_decision": '''
def quick_win_decision(game, state):
    return _leak(game, state)
''',
}


@pytest.mark.long
def test_a_notebook_that_records_the_hidden_calls_gets_none_back(course, tmp_path, monkeypatch):
    """Every case the checks passed the kernel (drawn and fixed) is kept by the notebook and written into every
    text it can reach; no answer holds any of it, and the grader still gives its verdicts."""
    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    texts = []
    for n, start in enumerate((0, 4)):  # a second check collects more, and meets the ways in another order
        answers = solution_answers(ROOT / "source" / LAB / f"{LAB}.ipynb")
        answers.update({k: v.strip().replace("[START]", f"[{start}]") + "\n" for k, v in RECORDING.items()})
        nb = build_submission(course / "release" / LAB / f"{LAB}.ipynb", answers, tmp_path / f"recording-{n}.ipynb")
        assert "Qz9" not in nb.read_text()
        answer = check_notebook(course, LAB, "eve", nb.read_bytes(), f"check-recording-{n}")
        assert answer["refused"] is None, answer
        cells = {c["cell"]: c for c in answer["cells"]}
        assert cells["test_value"]["verdict"] == "passed" and cells["test_decision"]["verdict"] == "failed"
        assert all(c["visible"] or c["explanation"] for c in answer["cells"] if c["verdict"] == "failed")
        texts.append(text_of(answer))
    text = "\n".join(texts)
    assert "Qz9" not in text and "Known mistake (its model reproduces all 3 cases): Qz9" not in text, text
    leaked = [s for s in selfcheck.hidden_strings(course, LAB) + fixed_case_names() + golden_traces()
              if re.search(r"(?<!secret )" + re.escape(s), text)]
    assert not leaked, leaked


# the solution here; the two bank entries, about a minute each through the real grader, with the banks (make banks)
@pytest.mark.parametrize("entry", [None, pytest.param("value_not_alternating", marks=pytest.mark.bank),
                                   pytest.param("decision_return_in_loop", marks=pytest.mark.bank)])
def test_bank_entries_answer_verdicts_and_nothing_hidden(course, tmp_path, monkeypatch, entry):
    """A check gives the bank's verdicts, holds no hidden text, and changes no grade."""
    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    gradebook = course / "gradebook.db"
    before = digest(gradebook)
    answer = check_notebook(course, LAB, "ada", notebook_for(course, tmp_path, entry), f"check-{entry or 'ok'}-1")
    assert answer["refused"] is None, answer
    assert answer["lab"] == LAB and answer["student"] == "ada"
    expected = read_expected(ROOT / "bank" / LAB / "expected.csv")
    failing = set(expected[entry].failing) if entry else set()
    cells = {c["cell"]: c for c in answer["cells"]}
    assert set(cells) == set(selfcheck.test_cells(course, LAB))
    assert {g for g, c in cells.items() if c["verdict"] == "failed"} == failing, answer
    for gid, c in cells.items():
        assert (c["points"] == c["max_points"] > 0) == (gid not in failing)
        assert 1 <= c["hidden"]["of"] and 0 <= c["hidden"]["passed"] <= c["hidden"]["of"]
        if gid not in failing:
            assert c["hidden"]["passed"] == c["hidden"]["of"] and c["explanation"] is None
            assert c["hidden"]["cases"] >= 1
        elif c["hidden"]["passed"] < c["hidden"]["of"]:
            assert c["hidden"]["cases"] is None
    for gid in failing:
        assert cells[gid]["explanation"] or cells[gid]["visible"], cells[gid]
    text = text_of(answer)
    # a fixed case's name counts, not the tail of a drawn case's ("secret random tree #1 ...")
    leaked = [s for s in selfcheck.hidden_strings(course, LAB) + fixed_case_names() + golden_traces()
              + [SECRET, selfcheck.check_seed(LAB, "ada", f"check-{entry or 'ok'}-1")]
              if re.search(r"(?<!secret )" + re.escape(s), text)]
    assert not leaked, leaked
    assert not re.search(r"check\(\s*[\"']02_minimax", text)
    # a check changes no grade: the course's gradebook is untouched, nothing is submitted or autograded
    assert digest(gradebook) == before
    assert not (course / "submitted").exists() and not (course / "autograded").exists()
    assert not any((course / "build" / "selfcheck" / "checks").iterdir())


def test_checks_in_threads_keep_their_own_seed(course, tmp_path, monkeypatch):
    """Two checks at once in one worker (its threads): each grades with its own seed, and the worker's environment
    keeps the instructor's seed."""
    import threading

    monkeypatch.setenv("COURSE_SECRET_SEED", SECRET)
    good = notebook_for(course, tmp_path, None)
    answers = {}

    def one(check_id: str) -> None:
        answers[check_id] = check_notebook(course, LAB, "ada", good, check_id)

    threads = [threading.Thread(target=one, args=(f"check-thread-{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert os.environ["COURSE_SECRET_SEED"] == SECRET
    assert all(a["refused"] is None and all(c["verdict"] == "passed" for c in a["cells"]) for a in answers.values())
    # the grading process had the check's seed: its hidden checks ran the secret cases too
    from coursetools.checks.lab02 import cases as data

    with_secret = len(data.CASES["value_trace"]())
    monkeypatch.delenv("COURSE_SECRET_SEED")
    assert len(data.CASES["value_trace"]()) < with_secret
    for a in answers.values():
        assert {c["cell"]: c for c in a["cells"]}["test_value_trace"]["hidden"]["cases"] == with_secret
