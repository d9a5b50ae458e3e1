"""Note 09 (TD learning) teaches lab 08 without handing out its graded answers: every function the note defines,
adapted to each graded function of lab 08 by signature (as `test_notes_give_no_answers` adapts notes to the other
labs), fails that function's hidden groups, the lab's own solutions standing in for the other functions a group
takes; the solutions alone pass (else the test could not fail)."""

from __future__ import annotations

import inspect
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from test_notes_give_no_answers import _executed, _passes, adapt, note_namespace

ROOT = Path(__file__).resolve().parents[2]
LAB = "08_learning"
SOURCE = ROOT / "source" / LAB / f"{LAB}.ipynb"
NOTE = "09_td_learning"
NOTE_FUNCTIONS = ["walk", "estimates_by_monte_carlo", "estimates_by_bootstrapping", "rms_error"]
#: Each hidden group of lab 08 and the functions its check(...) line passes.
GROUPS = {
    "td_update": ["td_update"],
    "move_values": ["move_values"],
    "self_play": ["self_play_episode", "move_values", "td_update"],
    "traces": ["self_play_episode"],
    "td_leaf": ["td_leaf_update", "td_update"],
}
GRADED = {"td_update": "td_update", "move_values": "move_values", "self_play": "self_play_episode",
          "traces": "self_play_episode", "td_leaf": "td_leaf_update"}


@lru_cache(maxsize=None)
def solutions() -> dict[str, Any]:
    return _executed(SOURCE, "lab08_source")


def test_note09_lists_its_functions_and_lab08_solutions_pass():
    missing = [n for n in NOTE_FUNCTIONS if not callable(note_namespace(NOTE).get(n))]
    assert not missing, missing
    sol = solutions()
    failed = [g for g, names in GROUPS.items() if not _passes(LAB, g, {n: sol[n] for n in names})]
    assert not failed, failed


@pytest.mark.parametrize("group", sorted(GROUPS))
@pytest.mark.parametrize("fn", NOTE_FUNCTIONS)
def test_no_note09_function_passes_a_lab08_group(group, fn):
    sol = solutions()
    name = GRADED[group]
    sig = inspect.signature(sol[name])
    params = list(sig.parameters)
    defaults = {p.name: p.default for p in sig.parameters.values() if p.default is not p.empty}
    others = {n: sol[n] for n in GROUPS[group] if n != name}
    for pick in (None, 0, 1):
        graded = {**others, name: adapt(note_namespace(NOTE)[fn], params, pick, defaults)}
        assert not _passes(LAB, group, graded), f"note {NOTE}'s {fn}, adapted to {name}, passes {LAB}/{group}"
