"""The instructor pipeline's commands (grade, demo, student-edition, ...), plugged into ``coursetools.cli``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from coursetools import course_root


def cmd_grade(args: argparse.Namespace) -> int:
    """Autograde a lab for the whole class in parallel shards; exit 1 if a submission was not graded."""
    from coursetools.grading.autograde import grade
    from coursetools.sandbox.launcher import SandboxUnavailable

    if args.no_sandbox:
        print("WARNING: grading WITHOUT a sandbox (--no-sandbox): each submission's code runs with your rights "
              "and can read the hidden checks and change other students' grades.", file=sys.stderr)
    try:
        report = grade(course_root(), args.lab, jobs=args.jobs, force=args.force, students=args.students or None,
                       submission_timeout=args.submission_timeout, shard_timeout=args.shard_timeout,
                       sandbox=False if args.no_sandbox else args.sandbox)
    except SandboxUnavailable as exc:
        print(f"coursetools grade: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    return 1 if report.not_graded() else 0


def cmd_rebuild_gradebook(args: argparse.Namespace) -> int:
    """Rebuild the gradebook from source/ and submitted/ (the old sqlite file is kept as a backup)."""
    from coursetools.grading.autograde import db_url, grade
    from coursetools.labs import labs_in

    root = course_root()
    url = db_url(root)
    if url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///"):])
        if path.exists():
            backup = path.with_name(path.name + ".bak")
            path.replace(backup)
            print(f"old gradebook kept as {backup}")
    bad = 0
    for lab in labs_in(root):
        if any((p / lab).is_dir() for p in (root / "submitted").glob("*")):
            report = grade(root, lab, jobs=args.jobs, force=True)
            print(report.summary())
            bad += len(report.not_graded())
    return 1 if bad else 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Release every lab, grade the demo class, return feedback, export grades, compare with demo/expected.csv."""
    from coursetools.quality.demo import run_demo

    return run_demo(course_root(), jobs=args.jobs, update_expected=args.update_expected)


def cmd_report(args: argparse.Namespace) -> int:
    """Write the class misconception map of a graded lab (CSV, PNG, HTML) into exports/."""
    from coursetools.grading.report import write_report

    root = course_root()
    for lab in args.labs:
        try:
            paths = write_report(root, lab)
        except Exception as exc:  # noqa: BLE001 - nbgrader's MissingEntry and friends: say which lab
            print(f"coursetools report {lab}: {type(exc).__name__}: {exc} (is the lab graded?)", file=sys.stderr)
            return 1
        print(f"class report of {lab}: {paths['html']} (figure {paths['png'].name}, table {paths['csv'].name})")
    return 0


def cmd_student_edition(args: argparse.Namespace) -> int:
    """Build the folder students may see, ready to push: release/, notebooks/, course_lib, licence, README."""
    from coursetools.course.edition import build_student_edition
    from coursetools.course.stamp import checked_config

    try:
        out = build_student_edition(course_root(), Path(args.out) if args.out else None)
    except (ValueError, RuntimeError) as exc:  # ConfigError is a ValueError
        print(f"coursetools student-edition refused: {exc}", file=sys.stderr)
        return 2
    cfg = checked_config(course_root())
    print(f"student edition in {out}\nto publish it (README: Publishing), in a clone of {cfg.repository}:\n"
          f"  git add --all && git commit -m 'Release {cfg.ref}' && git tag {cfg.ref} && git push origin HEAD {cfg.ref}")
    return 0


def cmd_zip_collect(args: argparse.Namespace) -> int:
    """Put an LMS zip of .ipynb files into submitted/ (see README for the file-name pattern)."""
    from coursetools.grading.exchange import collect_zip

    result = collect_zip(course_root(), args.lab, Path(args.zip), force=args.force)
    print(result.summary())
    return 1 if result.problems else 0


PIPELINE_COMMANDS = {
    "demo": cmd_demo,
    "grade": cmd_grade,
    "rebuild-gradebook": cmd_rebuild_gradebook,
    "report": cmd_report,
    "student-edition": cmd_student_edition,
    "zip-collect": cmd_zip_collect,
}


def add_pipeline_arguments(parsers: dict[str, argparse.ArgumentParser]) -> None:
    """Arguments of the pipeline's commands."""
    jobs = os.cpu_count() or 1
    p = parsers["grade"]
    p.add_argument("lab")
    p.add_argument("--jobs", "-j", type=int, default=jobs, help=f"parallel nbgrader processes (default {jobs})")
    p.add_argument("--force", action="store_true", help="regrade submissions already graded")
    p.add_argument("--students", nargs="*", help="only these students")
    p.add_argument("--submission-timeout", type=float, default=600, help="wall-clock cap per submission, s")
    p.add_argument("--shard-timeout", type=float, default=None,
                   help="wall-clock cap per shard, s (default: every submission at its full cap)")
    p.add_argument("--sandbox", choices=("bwrap", "podman", "docker"), default="bwrap",
                   help="what isolates each submission's kernel: bubblewrap (the default), or a podman or docker "
                        "container (an empty image with the same read-only mounts; nothing is pulled)")
    p.add_argument("--no-sandbox", action="store_true",
                   help="UNSAFE: run submissions without a sandbox (their code can then read the "
                        "hidden checks and change other students' grades); only where no sandbox can run")
    parsers["rebuild-gradebook"].add_argument("--jobs", "-j", type=int, default=jobs)
    parsers["demo"].add_argument("--jobs", "-j", type=int, default=jobs)
    parsers["demo"].add_argument("--update-expected", action="store_true", help="rewrite demo/expected.csv")
    parsers["report"].add_argument("labs", nargs="+", metavar="LAB", help="graded labs")
    parsers["student-edition"].add_argument("--out", help="folder to write (default build/student-edition)")
    p = parsers["zip-collect"]
    p.add_argument("lab")
    p.add_argument("zip")
    p.add_argument("--force", action="store_true", help="replace submissions already in submitted/")


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: python -m coursetools COMMAND")
