"""Golden traces: what grading expects, written down so that a reviewer sees every change as a diff.

``python -m coursetools golden LAB`` runs the correct model of each test group of LAB on every
public case and writes, per group, ``tests/golden/<lab>/<group>.txt``: each case's id and name,
the expected result and the trace of what the correct search does (children generated, leaves
and cut-offs valued, in order). `tests/quality/test_golden.py` fails when the files and the checks drift
apart. A lab takes part once its room (``checks/labNN/``) lists ``GOLDEN``: for each group, its
public cases and its correct model.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

from coursetools import course_root
from coursetools.hidden import load_checks
from coursetools.labs import labs_in


def golden_labs(root: Path | None = None) -> list[str]:
    """The labs whose checks list golden cases."""
    root = root or course_root()
    return [lab for lab in labs_in(root) if hasattr(load_checks(lab), "GOLDEN")]


def golden_texts(lab: str) -> dict[str, str]:
    """File name -> text, one file per test group of `lab`."""
    from coursetools.checks import kit

    out = {}
    for group, (public, model) in load_checks(lab).GOLDEN.items():
        lines = [f"# {lab}, test group '{group}': each public case's expected result and trace.",
                 f"# Written by `python -m coursetools golden {lab}`; do not edit by hand.", ""]
        for case in public():
            run = kit.run_model(model, case)
            if run is None:
                raise RuntimeError(f"the correct model of '{group}' fails on case {case.id}")
            lines.append(f"case {case.id}: {case.name}")
            if case.args:
                lines.append(f"  arguments: {', '.join(_arg_text(a) for a in case.args)}")
            lines += [f"  result: {run.result!r}", *_trace_lines(case, run), ""]
        out[f"{group}.txt"] = "\n".join(lines)
    return out


def _arg_text(arg: Any) -> str:
    """An argument as written in a golden file: a function by its name (its address changes from run to run)."""
    if callable(arg) and hasattr(arg, "__name__") and not isinstance(arg, type):
        return f"<function {arg.__name__}>"
    return repr(arg)


#: Traces longer than this are written as their counts, their first steps and a digest of all of them.
SHOWN_STEPS = 120


def _trace_lines(case: Any, run: Any) -> list[str]:
    from coursetools.checks import kit

    name = kit.namer(case, run)
    steps = [f"{kind} {name(node)}" for kind, node in run.steps()]
    head = ", ".join(steps[:SHOWN_STEPS]) or "(nothing)"
    lines = textwrap.wrap(f"trace: {head}", 110, initial_indent="  ", subsequent_indent="    ",
                          break_on_hyphens=False)
    if len(steps) > SHOWN_STEPS:
        counts = ", ".join(f"{kind} {n}" for kind, n in sorted(Counter(k for k, _ in run.steps()).items()))
        digest = hashlib.sha256("\n".join(steps).encode()).hexdigest()[:16]
        lines += [f"    ... {len(steps) - SHOWN_STEPS} more steps; in all {counts}; sha256 of all steps {digest}"]
    return lines


def golden_folder(lab: str, root: Path | None = None) -> Path:
    return (root or course_root()) / "tests" / "golden" / lab


def drift(lab: str, root: Path | None = None) -> list[str]:
    """The golden files of `lab` that differ from what the checks expect now (missing or extra ones too)."""
    folder = golden_folder(lab, root)
    texts = golden_texts(lab)
    problems = [f"{folder / n}: differs" for n, t in texts.items() if not (folder / n).is_file()
                or (folder / n).read_text() != t]
    problems += [f"{p}: no such test group" for p in sorted(folder.glob("*.txt")) if p.name not in texts]
    return problems


def cmd_golden(args: argparse.Namespace) -> int:
    """Write each public case's expected result and trace to tests/golden/<lab>/ (or --check them)."""
    labs = args.labs or golden_labs()
    bad = 0
    for lab in labs:
        if not hasattr(load_checks(lab), "GOLDEN"):
            print(f"{lab}: its checks list no golden cases yet", file=sys.stderr)
            bad += 1
            continue
        if args.check:
            problems = drift(lab)
            for p in problems:
                print(p, file=sys.stderr)
            bad += bool(problems)
            continue
        folder = golden_folder(lab)
        folder.mkdir(parents=True, exist_ok=True)
        texts = golden_texts(lab)
        for stale in folder.glob("*.txt"):
            if stale.name not in texts:
                stale.unlink()
        for name, text in texts.items():
            (folder / name).write_text(text)
        print(f"{lab}: wrote {len(texts)} files into {folder}")
    return 1 if bad else 0
