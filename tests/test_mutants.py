"""The mutation pass (`make mutants`): its operators, and lab 06 run through it in-process (about 15 s)."""

from __future__ import annotations

import io

from coursetools.mutants import differs, load_lab, mutations, run_lab

SOURCE = "def f(a, b):\n    if a < b and b > 0:\n        return max(a, b) + 1\n    return -a\n"


def test_mutations_cover_the_operators_and_stay_in_the_solution_lines():
    found = {m.what for m in mutations(SOURCE, "f", {2, 3, 4})}
    assert {"Lt -> LtE", "Gt -> GtE", "and <-> or", "max <-> min", "Add -> Sub", "1 + 1", "0 - 1",
            "swap arguments", "drop USub", "drop return", "negate if"} <= found
    assert {m.what for m in mutations(SOURCE, "f", {4})} == {"drop USub", "drop return"}
    for m in mutations(SOURCE, "f", {2, 3, 4}):
        compile(m.source, "mutant", "exec")
        assert m.diff.startswith("--- reference")


def test_lab06_mutants_are_killed_or_equivalent(root):
    out = io.StringIO()
    counts = run_lab(root / "source" / "06_beyond_two_players" / "06_beyond_two_players.ipynb", out=out)
    assert counts["made"] >= 40, counts
    assert counts["killed"] + counts["equivalent"] + counts["survivors"] == counts["made"]
    assert counts["survivors"] == 0, out.getvalue()


def test_equivalence_sampling_sees_a_changed_tie_rule(root):
    """A maxn that keeps the last best child differs on random trees with ties; the reference never differs."""
    lab = load_lab(root / "source" / "06_beyond_two_players" / "06_beyond_two_players.ipynb")
    assert differs(lab, lab.namespace, dict(lab.namespace), "maxn_value") is None
    index = [g for g, _, _ in lab.solutions].index("maxn_value")
    changed = [m for m in mutations(lab.solutions[index][1], "maxn_value", lab.solutions[index][2])
               if m.what in ("Gt -> GtE", "GtE -> Gt")]
    assert changed, "the reference compares with > or >="
    from coursetools.mutants import define

    assert differs(lab, lab.namespace, define(lab, index, changed[0].source), "maxn_value") is not None
