"""The mutation pass (`make mutants`): its operators, and lab 06 run through it in-process (about 15 s)."""

from __future__ import annotations

import io

from coursetools.quality.mutants import differs, load_lab, mutations, run_lab

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
    from coursetools.quality.mutants import define

    assert differs(lab, lab.namespace, define(lab, index, changed[0].source), "maxn_value") is not None


def test_lab05_exactly_specified_functions_leave_no_behavioural_survivor(root):
    """Every mutant of lab 05's exactly specified functions fails its own hidden groups, or is equivalent.

    (The open evaluations, isolation_improved and food_grid_evaluate, are left out: a change of their
    weights is another valid evaluation, which their properties, ranking and tournament accept.)
    """
    from coursetools.hidden import load_group
    from coursetools.quality.mutants import define

    lab = load_lab(root / "source" / "05_heuristics" / "05_heuristics.ipynb")
    ids = [g for g, _, _ in lab.solutions]
    survivors = []
    for function in ("isolation_mobility", "connect_four_windows", "chess_material", "quiescence_value"):
        index = ids.index(function)
        groups = [(g, names) for g, names in lab.groups if function in names.values()]
        assert groups, function
        made = mutations(lab.solutions[index][1], function, lab.solutions[index][2])
        assert len(made) >= 5, function
        for m in made:
            ns = define(lab, index, m.source)
            killed = False
            for group, names in groups:
                try:
                    load_group(lab.name, group)(**{p: ns[n] for p, n in names.items()})
                except Exception:  # noqa: BLE001 - a CheckFailed, or the check stumbling on a broken mutant
                    killed = True
                    break
            if not killed and differs(lab, lab.namespace, ns, function) is not None:
                survivors.append(f"{function} line {m.line}: {m.what}\n{m.diff}")
    assert not survivors, "\n".join(survivors)
