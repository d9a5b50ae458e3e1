"""``coursetools similarity LAB``: which students' solutions are alike, pair by pair (similarity, not proof).

What is compared is what each student wrote in the lab's solution code cells (nbgrader's ``solution`` cells of
``submitted/<student>/<lab>/``), read without following links. The released notebook is the starter code every
student got: its fingerprints are left out, and so is any fingerprint that a large part of the class shares
(short game-tree functions look alike by nature: `common_limit`). The fingerprints and their matches are
copydetect's (a winnowing detector run offline, https://github.com/blingenf/copydetect), with a window of one,
so every k-gram counts and nothing depends on Python's per-process string hashes: the same class gives the same
report on every run.

A pair's ``score`` is the mean of the two shares of each student's code (in tokens) that matches the other's.
Pairs are ranked by it; the labs graded so far (every other lab with submissions of both) add their own scores
as further evidence: the mean over every lab both handed in orders pairs whose scores tie, and the page ranks
the pairs by it in a table of its own. The report is
``exports/<lab>-similarity.csv`` (one row per pair, most similar first) and ``exports/<lab>-similarity.html``
(the closest pairs with their matching regions side by side, every student's text escaped), both readable by the
instructor only.
"""

from __future__ import annotations

import html
import io
import itertools
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from coursetools import write_private
from coursetools.grading.sanitize import PAGE_CSP
from coursetools.sandbox.safecopy import read_regular

K = 25  # characters of tokenised code per fingerprint (copydetect's default noise threshold)
MAX_NOTEBOOK_BYTES = 20 * 2**20
SHOWN_PAIRS = 20  # pairs shown side by side in the page (the CSV has every pair)


@dataclass
class Work:
    """One student's solution code for a lab: the text compared, and any problem reading it."""

    student: str
    code: str
    problems: list[str] = field(default_factory=list)


@dataclass
class Pair:
    """Two students' likeness in one lab, and in the other labs both handed in."""

    a: str
    b: str
    score: float
    share_a: float
    share_b: float
    tokens: int
    slices_a: list[tuple[int, int]]
    slices_b: list[tuple[int, int]]
    other_labs: dict[str, float] = field(default_factory=dict)

    @property
    def labs_mean(self) -> float:
        """The mean score over every lab both students handed in, this one included."""
        return (self.score + sum(self.other_labs.values())) / (1 + len(self.other_labs))


def solution_code(nb: nbformat.NotebookNode) -> str:
    """The code of a notebook's solution cells, in order, one blank line apart."""
    return "\n\n".join(c.source for c in nb.cells
                       if c.cell_type == "code" and c.get("metadata", {}).get("nbgrader", {}).get("solution"))


def _read_notebook(path: Path) -> nbformat.NotebookNode:
    return nbformat.reads(read_regular(path, MAX_NOTEBOOK_BYTES).decode("utf-8"), as_version=4)


def starter_code(root: Path, lab: str) -> str:
    """Every code cell of the lab's released notebooks: the code every student started from."""
    notebooks = sorted((root / "release" / lab).glob("*.ipynb"))
    if not notebooks:
        raise ValueError(f"no released notebook in {root / 'release' / lab}: run `coursetools release` first")
    return "\n\n".join(c.source for nb in map(_read_notebook, notebooks) for c in nb.cells if c.cell_type == "code")


def class_works(root: Path, lab: str) -> dict[str, Work]:
    """Each student's solution code for `lab` from ``submitted/``; a notebook that cannot be read is named."""
    works: dict[str, Work] = {}
    submitted = root / "submitted"
    for folder in sorted(submitted.glob(f"*/{lab}")) if submitted.is_dir() else []:
        student = folder.parent.name
        if folder.is_symlink() or folder.parent.is_symlink() or not folder.is_dir():
            continue
        work = Work(student, "")
        parts = []
        for path in sorted(folder.glob("*.ipynb")):
            try:
                parts.append(solution_code(_read_notebook(path)))
            except (OSError, ValueError, UnicodeDecodeError) as exc:  # a link, a FIFO, too big, not a notebook
                work.problems.append(f"{path.name}: {exc}")
        work.code = "\n\n".join(parts)
        works[student] = work
    return works


def common_limit(students: int) -> int:
    """A fingerprint held by more students than this is the lab's common code, not evidence of copying."""
    return max(3, students // 4)


def _fingerprint(code: str, left_out: frozenset[int] = frozenset()):
    """copydetect's fingerprint of `code` (every k-gram), without the fingerprints in `left_out`.

    copydetect's own boilerplate filter misses a repeated k-gram (it intersects assuming unique hashes), so the
    fingerprints are left out here, and the share of tokens they cover counted again."""
    from copydetect import CodeFingerprint
    from copydetect.utils import get_token_coverage

    fp = CodeFingerprint("solution.py", K, 1, language="python", fp=io.StringIO(code))
    fp.hash_idx = {h: i for h, i in fp.hash_idx.items() if int(h) not in left_out}
    fp.hashes = set(fp.hash_idx)
    fp.token_coverage = get_token_coverage(fp.hash_idx, K, len(fp.filtered_code))
    return fp


def compare_class(works: dict[str, Work], starter: str) -> list[Pair]:
    """Every pair of students, most similar first (ties: by name)."""
    from copydetect import compare_files

    starter_hashes = {int(h) for h in _fingerprint(starter).hashes}
    held: dict[int, int] = {}
    for w in works.values():
        for h in {int(h) for h in _fingerprint(w.code).hashes}:
            held[h] = held.get(h, 0) + 1
    limit = common_limit(len(works))
    left_out = frozenset(starter_hashes | {h for h, n in held.items() if n > limit})
    prints = {s: _fingerprint(w.code, left_out) for s, w in works.items()}
    pairs = []
    for a, b in itertools.combinations(sorted(prints), 2):
        tokens, (share_a, share_b), (slices_a, slices_b) = compare_files(prints[a], prints[b])
        pairs.append(Pair(a, b, (float(share_a) + float(share_b)) / 2, float(share_a), float(share_b), int(tokens),
                          _spans(slices_a), _spans(slices_b)))
    return rank(pairs)


def _spans(slices) -> list[tuple[int, int]]:
    if len(slices) == 0 or len(slices[0]) == 0:
        return []
    return sorted((int(s), int(e)) for s, e in zip(slices[0], slices[1]))


def rank(pairs: list[Pair]) -> list[Pair]:
    """Most similar first: this lab's score (to 3 decimals), then the mean over the labs both handed in, then names."""
    return sorted(pairs, key=lambda p: (-round(p.score, 3), -round(p.labs_mean, 3), p.a, p.b))


def graded_labs(root: Path) -> list[str]:
    """The labs with submissions in ``submitted/`` (the labs graded so far), in the course's order."""
    from coursetools.labs import labs_in

    return [lab for lab in labs_in(root) if any((root / "submitted").glob(f"*/{lab}/*.ipynb"))]


def class_similarity(root: Path, lab: str) -> tuple[list[Pair], dict[str, Work]]:
    """`lab`'s ranked pairs, each with its scores in the other labs both students handed in."""
    works = class_works(root, lab)
    if len(works) < 2:
        raise ValueError(f"{len(works)} submission(s) of {lab} in {root / 'submitted'}: nothing to compare")
    pairs = compare_class(works, starter_code(root, lab))
    for other in graded_labs(root):
        if other == lab:
            continue
        scores = {(p.a, p.b): p.score for p in compare_class(class_works(root, other), starter_code(root, other))}
        for p in pairs:
            if (p.a, p.b) in scores:
                p.other_labs[other] = scores[(p.a, p.b)]
    return rank(pairs), works


CSV_HEADER = ["student_a", "student_b", "score", "share_a", "share_b", "matched_tokens", "other_labs", "labs_mean"]


def csv_text(pairs: list[Pair]) -> str:
    import csv

    buffer = io.StringIO()
    w = csv.writer(buffer, lineterminator="\n")
    w.writerow(CSV_HEADER)
    for p in pairs:
        w.writerow([p.a, p.b, f"{p.score:.3f}", f"{p.share_a:.3f}", f"{p.share_b:.3f}", p.tokens,
                    ";".join(f"{lab}={s:.3f}" for lab, s in sorted(p.other_labs.items())), f"{p.labs_mean:.3f}"])
    return buffer.getvalue()


def marked(code: str, spans: list[tuple[int, int]]) -> str:
    """`code` escaped for a <pre>, its matching spans in <mark>: nothing a student wrote can act."""
    out, at = [], 0
    for start, end in spans:
        start, end = max(start, at), min(end, len(code))
        if start >= end:
            continue
        out += [html.escape(code[at:start]), "<mark>", html.escape(code[start:end]), "</mark>"]
        at = end
    out.append(html.escape(code[at:]))
    return "".join(out)


def page(lab: str, pairs: list[Pair], works: dict[str, Work]) -> str:
    """The instructor's page: the ranking, then the closest pairs side by side."""
    e = html.escape
    rows = "".join(
        f"<tr><td>{i}</td><td>{e(p.a)}</td><td>{e(p.b)}</td><td>{p.score:.2f}</td><td>{p.share_a:.2f} / "
        f"{p.share_b:.2f}</td><td>{e(', '.join(f'{k} {v:.2f}' for k, v in sorted(p.other_labs.items())) or '-')}"
        "</td></tr>" for i, p in enumerate(pairs, 1))
    shown = "".join(
        f"<div class=\"pair\"><h3>{i}. {e(p.a)} and {e(p.b)}: {p.score:.2f}</h3><div class=\"side\">"
        f"<div><h4>{e(p.a)} ({p.share_a:.0%} matches)</h4><pre>{marked(works[p.a].code, p.slices_a)}</pre></div>"
        f"<div><h4>{e(p.b)} ({p.share_b:.0%} matches)</h4><pre>{marked(works[p.b].code, p.slices_b)}</pre></div>"
        "</div></div>" for i, p in enumerate(pairs[:SHOWN_PAIRS], 1) if p.score > 0)
    across = sorted((p for p in pairs if p.other_labs), key=lambda p: (-round(p.labs_mean, 3), p.a, p.b))
    across_rows = "".join(
        f"<tr><td>{e(p.a)}</td><td>{e(p.b)}</td><td>{p.labs_mean:.2f}</td><td>{1 + len(p.other_labs)}</td>"
        f"<td>{p.score:.2f}</td></tr>" for p in across[:SHOWN_PAIRS])
    problems = "".join(f"<li>{e(w.student)}: {e(x)}</li>" for w in works.values() for x in w.problems)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{PAGE_CSP}">
<title>{e(lab)}: similarity report (instructor only)</title>
<style>body{{font-family:sans-serif;max-width:90em;margin:2em auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.3em .5em;text-align:left}}.side{{display:flex;gap:1em}}
.side>div{{flex:1;min-width:0}}pre{{white-space:pre-wrap;background:#f6f6f6;padding:.5em}}
mark{{background:#ffe08a}}</style></head><body>
<h1>{e(lab)}: similarity report</h1>
<p><strong>Similarity, not proof.</strong> A high score says that two students' solution code shares long
stretches of the same token sequence (names, comments and layout aside) that the starter code and most of the
class do not share. Short functions of one algorithm look alike by nature, and students may work together
where the course allows it: read the code side by side and talk with the students before deciding anything.
This page is for the instructor only; do not publish it.</p>
<p>Compared: the solution cells of {len(works)} students' submissions, with copydetect (k = {K}, every k-gram);
left out: the released notebook's code and every fingerprint held by more than
{common_limit(len(works))} students. Other labs: the same score in each other lab both students handed in.</p>
{f"<p>Not read:</p><ul>{problems}</ul>" if problems else ""}
<h2>Pairs, most similar first</h2>
<table><tr><th>rank</th><th>student</th><th>student</th><th>score</th><th>share of each</th><th>other labs</th>
</tr>{rows}</table>
<h2>Across the labs graded so far</h2>
{f'<table><tr><th>student</th><th>student</th><th>mean score</th><th>labs</th><th>this lab</th></tr>{across_rows}</table>'
 if across_rows else "<p>No other lab handed in by both students of a pair.</p>"}
<h2>The closest pairs, matching regions marked</h2>{shown or "<p>No pair shares any code.</p>"}
</body></html>
"""


def write_similarity(root: Path, lab: str) -> tuple[dict[str, Path], list[Pair]]:
    """Write ``exports/<lab>-similarity.csv`` and ``.html`` (mode 0600); returns their paths and the pairs."""
    pairs, works = class_similarity(root, lab)
    out = root / "exports"
    paths = {"csv": write_private(out / f"{lab}-similarity.csv", csv_text(pairs)),
             "html": write_private(out / f"{lab}-similarity.html", page(lab, pairs, works))}
    return paths, pairs
