"""The tournament takes a submission the way grading does: nothing in its folder is followed (real sandbox, real
kernels). A notebook that is a link to the lab's source (the instructor's solutions) cannot play, and says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from coursetools.tournament.runner import Tournament

from test_tournament import LAB, ROOT, make_class


@pytest.mark.skipif(not Path("/usr/bin/bwrap").exists(), reason="bubblewrap is not installed")
def test_tournament_intake_follows_no_link(tmp_path):
    make_class(tmp_path, ["honest"])
    folder = tmp_path / "submitted" / "linker\x1b[2J" / LAB
    folder.mkdir(parents=True)
    (folder / f"{LAB}.ipynb").symlink_to(ROOT / "source" / LAB / f"{LAB}.ipynb")
    lines: list[str] = []
    t = Tournament(tmp_path, LAB, event="isolation_search", seed="test", openings=1, progress=lines.append).run()
    linker = next(p for p in t.players if p.key == "linker\x1b[2J")
    assert linker.kernel is not None and not linker.kernel.alive and "could not be read" in linker.kernel.problem
    text = "\n".join(lines)
    assert f"FLAGGED linker\\x1b[2J: a symlink {LAB}.ipynb -> {ROOT / 'source' / LAB / f'{LAB}.ipynb'}" in text, text
    assert "\x1b" not in text, text
    assert next(p for p in t.players if p.key == "honest").faults == []
