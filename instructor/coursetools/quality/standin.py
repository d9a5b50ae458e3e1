"""Hints a student can act on: a stand-in student fixes a blind entry from the grader's message alone.

Judging a message says whether it is true; this measures whether it is enough. For each buggy entry of a blind
batch whose message was judged, `prepare` writes what a student would have: the entry's code with every comment
taken out (its header says what the mistake is) and the messages the grader printed. A stand-in student who has
never read the checks, the bank or the entries' headers reads the two (and the release notebook, `course_lib`
and the notes, as a student may) and makes one fix, written as the entry is, in sections ``# %% <grade_id>``.
`store` keeps, beside the verdicts, the sections the fix changed (``bank/<batch>/<lab>/fixes/<entry>.py``, with the
stand-in's own first lines) and the messages it read (``<entry>.read.txt``: a message regraded later may differ).

`check_fixes` grades every stored fix through nbgrader, as the entry itself was graded, and stores what came of it
in ``fixes/<entry>.txt``: ``fixed`` (full marks at the first try), ``partly`` (more points than the entry had, not
all) or ``not``, the points before and after, and the message after the fix, so the figure can be reproduced
(``python -m coursetools standin --grade``). Target: at least 85 % fixed at the first try in each batch.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from coursetools.quality.bank import grade_entries, parse_entry
from coursetools.course.labfiles import solution_answers
from coursetools.quality.blind import batch_folder, judged_path, message, read_judged
from coursetools.quality.submission import parse_answers

RESULTS = ("fixed", "partly", "not")
TARGET = 0.85

_HEADING = re.compile(r"^== \S+ \(([0-9.]+)/([0-9.]+)\) ==$", re.M)


def fixes_folder(root: Path, lab: str, batch: str) -> Path:
    return batch_folder(root, lab, batch) / "fixes"


def measured_entries(root: Path, lab: str, batch: str) -> list[str]:
    """The entries a stand-in student fixes: every buggy one that lost points (not the correct alternatives, not
    those the grader missed), whatever its message's verdict."""
    folder = batch_folder(root, lab, batch)
    out = []
    for path in sorted(folder.glob("*.py")):
        judged = read_judged(judged_path(folder, path.stem))
        if path.stem.startswith("ok_") or judged is None or judged.verdict in ("correct", "full", "missed"):
            continue
        out.append(path.stem)
    return out


def without_comments(source: str) -> str:
    """`source` with every comment taken out but the sections' ``# %% <grade_id>`` lines (docstrings kept)."""
    tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
              if t.type != tokenize.COMMENT or t.string.startswith("# %% ")]
    lines = [line.rstrip() for line in tokenize.untokenize(tokens).splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines).strip("\n")) + "\n"


def student_view(root: Path, lab: str, batch: str, entry: str) -> tuple[str, str]:
    """(the entry's code as its student wrote it, the messages the grader printed) for one entry."""
    folder = batch_folder(root, lab, batch)
    code = without_comments((folder / f"{entry}.py").read_text())
    judged = read_judged(judged_path(folder, entry))
    return code, judged.message if judged else ""


def prepare(root: Path, out: Path, labs: list[str], batch: str) -> int:
    """Write ``out/<lab>/<entry>.py`` and ``<entry>.message.txt`` for every measured entry; the count written."""
    n = 0
    for lab in labs:
        folder = out / lab
        folder.mkdir(parents=True, exist_ok=True)
        for entry in measured_entries(root, lab, batch):
            code, text = student_view(root, lab, batch, entry)
            (folder / f"{entry}.py").write_text(code)
            (folder / f"{entry}.message.txt").write_text(text.strip() + "\n")
            n += 1
    return n


def changed_sections(view: str, fix: str) -> str:
    """The fix as stored: its lines before the first section (the stand-in's ``# fix:`` and ``# clear:``), then only
    the sections ``# %% <grade_id>`` whose code differs from what the stand-in was given (`view`); grading takes
    every other cell from the entry itself."""
    given = parse_answers(view)
    head = fix.split("# %% ", 1)[0] if "# %% " in fix else fix
    kept = [f"# %% {gid}\n{code}" for gid, code in parse_answers(fix).items()
            if code.strip() != given.get(gid, "").strip()]
    return head.rstrip("\n") + "\n\n" + "\n".join(kept) if kept else head


def store(root: Path, folder: Path, labs: list[str], batch: str) -> int:
    """Keep beside the verdicts each fix written under `folder` (``<lab>/<entry>.fix.py``, from `prepare`'s
    folder): its changed sections, and the messages its stand-in read; the count stored."""
    n = 0
    for lab in labs:
        for entry in measured_entries(root, lab, batch):
            fix = folder / lab / f"{entry}.fix.py"
            if not fix.is_file():
                continue
            out = fixes_folder(root, lab, batch)
            out.mkdir(exist_ok=True)
            view, read = student_view(root, lab, batch, entry)
            (out / f"{entry}.py").write_text(changed_sections(view, fix.read_text()))
            given = folder / lab / f"{entry}.message.txt"
            (out / f"{entry}.read.txt").write_text(given.read_text() if given.is_file() else read.strip() + "\n")
            n += 1
    return n


def points_lost(text: str) -> float:
    """The points a graded message says were lost (its cells' headings ``== test_x (score/max) ==``)."""
    return sum(float(m) - float(s) for s, m in _HEADING.findall(text))


@dataclass
class FixResult:
    entry: str
    result: str  # fixed, partly or not
    before: float
    after: float
    maximum: float
    message: str

    def text(self) -> str:
        return (f"result: {self.result}\npoints: {self.before:g} before the fix, {self.after:g} after, of "
                f"{self.maximum:g}\n\n{self.message}")


def read_result(path: Path) -> str | None:
    """The result a stored ``fixes/<entry>.txt`` records, or None."""
    if not path.is_file():
        return None
    first = path.read_text().split("\n", 1)[0]
    return first.removeprefix("result: ").strip() if first.startswith("result: ") else None


def check_fixes(root: Path, lab: str, batch: str, write: bool = False) -> list[FixResult]:
    """Grade every stored fix of `lab`'s entries in `batch` (over the lab's own solutions for the other cells)."""
    folder = batch_folder(root, lab, batch)
    fixes = fixes_folder(root, lab, batch)
    wanted = [e for e in measured_entries(root, lab, batch) if (fixes / f"{e}.py").is_file()]
    if not wanted:
        return []
    solution = solution_answers(root / "source" / lab / f"{lab}.ipynb")
    answers = {e: {**solution, **parse_entry(folder / f"{e}.py"), **parse_entry(fixes / f"{e}.py")} for e in wanted}
    outcomes = grade_entries(root, lab, answers)
    results = []
    for entry, outcome in outcomes.items():
        read = fixes / f"{entry}.read.txt"  # the messages the stand-in read (a regrade may have changed them since)
        judged = read_judged(judged_path(folder, entry))
        after, maximum = outcome.total
        before = maximum - points_lost(read.read_text() if read.is_file() else judged.message if judged else "")
        result = "fixed" if after >= maximum else "partly" if after > before else "not"
        r = FixResult(entry, result, before, after, maximum, message(outcome))
        if write:
            (fixes / f"{entry}.txt").write_text(r.text())
        results.append(r)
    return results


def rates(root: Path, batch: str, labs: list[str]) -> dict[str, dict[str, int]]:
    """lab -> result -> entries, from the stored results (no grading); 'waiting' counts entries with no result."""
    out = {}
    for lab in labs:
        counts = {r: 0 for r in RESULTS} | {"waiting": 0}
        for entry in measured_entries(root, lab, batch):
            result = read_result(fixes_folder(root, lab, batch) / f"{entry}.txt")
            counts[result if result in RESULTS else "waiting"] += 1
        out[lab] = counts
    return out


def rates_table(batch: str, counts: dict[str, dict[str, int]]) -> str:
    lines = [f"stand-in students on {batch}: fixed at the first try / measured entries (partly, not, no fix yet)"]
    total = {r: 0 for r in RESULTS} | {"waiting": 0}
    for lab, c in counts.items():
        n = sum(c.values())
        for k in total:
            total[k] += c[k]
        share = f"{100 * c['fixed'] / n:.0f} %" if n else "-"
        lines.append(f"  {lab:24s} {c['fixed']:3d} / {n:<3d} {share:>6s}  ({c['partly']}, {c['not']}, {c['waiting']})")
    n = sum(total.values())
    share = f"{100 * total['fixed'] / n:.0f} %" if n else "-"
    lines.append(f"  {'all labs':24s} {total['fixed']:3d} / {n:<3d} {share:>6s}  ({total['partly']}, {total['not']}, "
                 f"{total['waiting']}); target {TARGET:.0%}")
    return "\n".join(lines)
