"""How one mistake costs points once in lab 02: the submission's profile, found only after a difference.

A submission's *profile* is the combination of classic mistakes (`reference.Flags`) whose model
gives its answers by the same walk on a few probes (`cases.probes`); failing that, by a walk that
does at least the model's work (in another order or twice: graded by the trace groups alone), where a
model that searches children right to left must also start where the student's walk starts (a decision
that keeps its last move is not a search from the right). A
group expects the profile with its own mistakes put right; an unknown behaviour leaves the
profile unknown, and the group compares with the correct model itself.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from .. import common, kit
from . import cases as data
from . import reference as ref
from .reference import CORRECT, Flags


def _covers(seen: list, wanted: list) -> bool:
    """`seen` holds every call of `wanted` (at least as often): the student did the model's work."""
    return not (Counter(map(repr, wanted)) - Counter(map(repr, seen)))


def profile(student: Callable[..., Any], kind: str, evidence: list | None = None) -> Flags | None:
    """The mistakes that reproduce what the student's function does on the probes, or None (the runs on the
    probes are added to `evidence`)."""
    probes = data.probes(kind)
    observed = kit.observe(student, probes)
    if evidence is not None:
        evidence += observed
    if len(observed) < len(probes):
        return None
    model = ref.model_value if kind == "value" else ref.model_decision
    cache: dict = {}

    def model_run(case: kit.Case, f: Flags) -> kit.Run | None:
        if (case.id, f) not in cache:
            cache[case.id, f] = kit.run_model(lambda g, s: model(g, s, f), case)
        return cache[case.id, f]

    for exact in (True, False):
        for f in ref.VALUE_FLAGS if kind == "value" else ref.DECISION_FLAGS:
            ok = True
            for case, seen in observed:
                m = model_run(case, f)
                if m is None or not common.same(seen.result, m.result):
                    ok = False
                elif exact:
                    ok = seen.trace.leaves() == m.trace.leaves() and seen.trace.generated() == m.trace.generated()
                else:  # the model's work in another order; children right to left only if the student's go so
                    ok = (_covers(seen.trace.leaves(), m.trace.leaves())
                          and _covers(seen.trace.generated(), m.trace.generated())
                          and (f.order == "actions" or seen.trace.generated()[:1] == m.trace.generated()[:1]))
                if not ok:
                    break
            if ok:
                return f
    return None


def expected_for(group: str, student: Callable[..., Any], evidence: list) -> Flags:
    """What `group` expects of this submission: its profile with the group's own mistakes put right."""
    found = profile(student, "value" if group.startswith("value") else "decision", evidence)
    return CORRECT if found is None else ref.put_right(group, found)
