"""The blind bank: mistakes written by people who never read the checks, and how each message was judged.

``bank/blind/<lab>/<entry>.py`` is an answers file like any bank entry, written from the student's
side only (its author read the release notebook, `course_lib` and the conventions, never
``checks/``, ``bank/`` or the mistake models); ``entries.csv`` holds the author's words for each
mistake and where they think it first goes wrong. Entries named ``ok_*`` are correct alternatives.

Grading an entry gives a *message*: the outputs of the test cells that lost points. Someone who has
not read the checks judges it against the author's words and stores the verdict beside the entry,
``<entry>.judged.txt``: a ``verdict:`` line, a ``note:`` line, a blank line, then the message as it
was judged (an entry whose message differs from run to run, because it draws from the ``random`` module,
has a ``stable: no`` line too: only its cells and scores are held). Verdicts:

- ``named``: the message names the mistake the entry makes;
- ``pinpointed``: it shows the first step where the search went wrong, with the numbers;
- ``vague``: it says something failed but not where or why;
- ``misleads``: it names a mistake the entry does not make, or points at a wrong step;
- ``missed``: the entry is wrong but lost no points;
- ``full``: a correct alternative with full marks (``ok_*`` only);
- ``correct``: an entry written as a mistake that a judge found correct under the lab's stated rules, by running
  it against their own search (the note says how): its full marks are right, and it no longer counts as a mistake.

`check_blind` grades a lab's blind bank and compares every message with the judged one: a message
that changed must be judged again (``python -m coursetools blind LAB --write`` stores the new
messages with the verdict ``unjudged``), so no change to the checks moves a judged message silently.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from pathlib import Path

from coursetools.course.labfiles import solution_answers
from coursetools.quality.bank import Outcome, parse_entry, grade_entries

VERDICTS = ("named", "pinpointed", "vague", "misleads", "missed", "full", "correct", "unjudged")
GOOD = ("named", "pinpointed")


@dataclass
class Judged:
    verdict: str
    note: str
    message: str
    stable: bool = True

    def holds(self, text: str) -> bool:
        """Whether `text` is the message that was judged, blank lines and object addresses aside (for an unstable
        one: the same cells and scores). Whether a blank line parts a cell's visible output from its hidden check's
        depends on how the kernel's stream messages happened to be cut, so the same grading gives one or none from
        run to run; an object's repr (``<generator object Nim.actions at 0x7f4d...>``) has a new address each run."""
        if self.stable:
            return _written(self.message) == _written(text)
        return _headings(self.message) == _headings(text)


def _written(text: str) -> list[str]:
    return [_ADDRESS.sub(" at 0x...", line) for line in text.splitlines() if line.strip()]


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("== ")]


def message(outcome: Outcome) -> str:
    """What the student reads: each test cell that lost points, with its score and its output."""
    parts = []
    for gid, (score, maximum) in outcome.scores.items():
        if score < maximum:
            parts.append(f"== {gid} ({score:g}/{maximum:g}) ==\n{outcome.outputs.get(gid, '').strip()}")
    return "\n\n".join(parts) + ("\n" if parts else "")


def judged_path(folder: Path, entry: str) -> Path:
    return folder / f"{entry}.judged.txt"


def read_judged(path: Path) -> Judged | None:
    """The stored verdict of one entry, or None when it was never judged."""
    if not path.is_file():
        return None
    head, _, body = path.read_text().partition("\n\n")
    fields = dict(line.split(":", 1) for line in head.splitlines() if ":" in line)
    verdict = fields.get("verdict", "").strip()
    if verdict not in VERDICTS:
        raise ValueError(f"{path}: verdict must be one of {', '.join(VERDICTS)}, not {verdict!r}")
    stable = not fields.get("stable", "yes").strip().startswith("no")
    return Judged(verdict, fields.get("note", "").strip(), body, stable)


def write_judged(path: Path, judged: Judged) -> None:
    stable = "" if judged.stable else "stable: no (its message differs from run to run; only cells and scores are held)\n"
    path.write_text(f"verdict: {judged.verdict}\nnote: {judged.note}\n{stable}\n{judged.message}")


BATCHES = ("blind", "blind2", "blind3")
"""The batches, each written by a different author: ``bank/<batch>/<lab>/``. The first was measured and the checks
fixed where its messages fell short; a later batch is graded and reported as it comes, to measure without fitting."""
MEASURING: tuple[str, ...] = ()  # blind3 met the target on 29 November 2026 and is held since
"""Batches graded and judged as they came whose messages do not meet the target yet (no misleading message, none
missed, nine in ten named or pinpointed): `make banks` holds the others, and takes one of these in once it does.
Their verdicts are kept as judged, the measure of the checks before any fix."""


def batch_folder(root: Path, lab: str, batch: str = "blind") -> Path:
    if batch not in BATCHES:
        raise ValueError(f"unknown blind batch {batch!r}: the batches are {', '.join(BATCHES)}")
    return root / "bank" / batch / lab


def blind_answers(root: Path, lab: str, batch: str = "blind") -> dict[str, dict[str, str]]:
    """Each blind entry's answers, over the source's solutions for the cells it leaves out."""
    solution = solution_answers(root / "source" / lab / f"{lab}.ipynb")
    return {p.stem: {**solution, **parse_entry(p)} for p in sorted(batch_folder(root, lab, batch).glob("*.py"))}


def judgment_problem(judged: Judged | None, text: str) -> str | None:
    """What keeps a graded message from standing as judged (never judged, changed, waiting, misleading), or None."""
    if judged is None:
        return "never judged"
    if not judged.holds(text):
        return "its message changed since it was judged: judge it again"
    if judged.verdict == "unjudged":
        return "its message waits for a verdict"
    if judged.verdict == "misleads":
        return f"its message misleads ({judged.note})"
    return None


@dataclass
class BlindResult:
    entry: str
    total: tuple[float, float]
    message: str
    judged: Judged | None

    @property
    def problem(self) -> str | None:
        """Why this entry fails `make banks`, or None."""
        unsettled = judgment_problem(self.judged, self.message)
        if unsettled:
            return unsettled
        # An ok_ entry is its author's claim of a correct alternative; a judge who ran it and found a mistake in it
        # (named, pinpointed or vague: the judge's note says how) makes it a mistake like the others.
        if self.entry.startswith("ok_") and self.judged.verdict not in ("full", "named", "pinpointed", "vague"):
            return f"a correct alternative lost points ({self.total[0]:g}/{self.total[1]:g})"
        if self.judged.verdict == "correct" and self.total[0] < self.total[1]:
            return f"judged correct, yet it lost points ({self.total[0]:g}/{self.total[1]:g})"
        return None


def check_blind(root: Path, lab: str, write: bool = False, batch: str = "blind") -> list[BlindResult]:
    """Grade one batch of the blind bank of `lab` through nbgrader; with `write`, store every changed message as
    unjudged."""
    folder = batch_folder(root, lab, batch)
    outcomes = grade_entries(root, lab, blind_answers(root, lab, batch))
    results = []
    for entry, outcome in outcomes.items():
        text = message(outcome)
        judged = read_judged(judged_path(folder, entry))
        if write and (judged is None or not judged.holds(text)):
            got, maximum = outcome.total
            verdict = ("full" if entry.startswith("ok_") else "missed") if got >= maximum else "unjudged"
            judged = Judged(verdict, "" if verdict == "unjudged" else "set by the tool from the score", text,
                            judged.stable if judged is not None else True)  # an unstable entry stays unstable
            write_judged(judged_path(folder, entry), judged)
        results.append(BlindResult(entry, outcome.total, text, judged))
    return results


def share_good(results: list[BlindResult]) -> tuple[int, int]:
    """(entries whose message names or pinpoints the mistake, buggy entries)."""
    buggy = [r for r in results if not r.entry.startswith("ok_") and not (r.judged and r.judged.verdict == "correct")]
    return sum(1 for r in buggy if r.judged and r.judged.verdict in GOOD), len(buggy)


def blind_table(lab: str, results: list[BlindResult]) -> str:
    """One line per entry: its score, its verdict, and what is wrong with it for `make banks`."""
    good, buggy = share_good(results)
    lines = [f"blind bank of {lab}: {good} of {buggy} buggy entries named or pinpointed"]
    for r in results:
        verdict = r.judged.verdict if r.judged else "-"
        lines.append(f"  {'OK ' if r.problem is None else 'BAD'} {r.entry:40s} {r.total[0]:5g}/{r.total[1]:<5g} {verdict}")
        if r.problem:
            lines.append(f"        ! {r.problem}")
    return "\n".join(lines)


def verdict_counts(root: Path, batch: str = "blind") -> dict[str, dict[str, int]]:
    """lab -> verdict -> entries of one batch, from the stored judgments (no grading)."""
    out: dict[str, dict[str, int]] = {}
    base = root / "bank" / batch
    for folder in sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []:
        counts = {v: 0 for v in VERDICTS}
        for path in sorted(folder.glob("*.judged.txt")):
            judged = read_judged(path)
            if judged:
                counts[judged.verdict] += 1
        out[folder.name] = counts
    return out

