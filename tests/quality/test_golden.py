"""Golden traces: each public case's expected result and trace, as written in tests/golden/<lab>/.

A change to what grading expects (a case, a correct model, the trace of a game) shows up here as a
failure and, once `python -m coursetools golden LAB` rewrites the files, as a diff a reviewer reads.
"""

from __future__ import annotations

import pytest

from coursetools.quality.golden import drift, golden_labs, golden_texts


@pytest.mark.parametrize("lab", golden_labs())
def test_golden_traces_match_the_checks(lab):
    problems = drift(lab)
    assert not problems, ("what grading expects changed; check the change and run "
                          f"`python -m coursetools golden {lab}`:\n" + "\n".join(problems))


def test_golden_traces_name_every_public_case_once():
    for lab in golden_labs():
        for name, text in golden_texts(lab).items():
            ids = [line.split(":")[0] for line in text.splitlines() if line.startswith("case ")]
            assert ids and len(ids) == len(set(ids)), f"{lab}/{name}: case ids must be unique"
