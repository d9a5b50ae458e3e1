"""``python -m coursetools COMMAND``: the instructor's commands."""

from __future__ import annotations

import argparse
import os
import sys

from coursetools import course_root
from coursetools.course.notebooks import dirty_cells, notebooks_under
from .pipeline_cli import PIPELINE_COMMANDS, add_pipeline_arguments
from coursetools.course.stamp import cmd_stamp
from coursetools.service.commands import SERVE_COMMANDS, add_serve_arguments


def cmd_check_notebooks_clean(args: argparse.Namespace) -> int:
    """Fail when a committed source or companion notebook carries outputs."""
    root = course_root()
    problems = [p for nb in notebooks_under(root / "source", root / "notebooks") for p in dirty_cells(nb)]
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print("clear the outputs before committing (Edit > Clear Outputs of All Cells)", file=sys.stderr)
        return 1
    print(f"notebooks clean: {len(notebooks_under(root / 'source', root / 'notebooks'))} checked")
    return 0


def cmd_release(args: argparse.Namespace) -> int:
    """Generate every lab's student version into release/."""
    from coursetools.course.release import release_all
    from coursetools.course.stamp import ConfigError

    try:
        return release_all(course_root())
    except ConfigError as exc:
        print(f"coursetools release refused: {exc}", file=sys.stderr)
        return 2


def cmd_bank(args: argparse.Namespace) -> int:
    """Grade a lab's bug bank through nbgrader and compare with its expected table."""
    from coursetools.labs import LABS
    from coursetools.quality.bank import check_bank, table

    root = course_root()
    bad = 0
    for lab in args.labs or [lab for lab in LABS if (root / "bank" / lab).is_dir()]:
        outcomes = check_bank(root, lab)
        print(table(lab, outcomes), flush=True)
        bad += sum(bool(o.problems) for o in outcomes.values())
    return 1 if bad else 0


def cmd_blind(args: argparse.Namespace) -> int:
    """Grade the blind bank (mistakes written without reading the checks) and compare with the judged messages."""
    from coursetools.labs import LABS
    from coursetools.quality.blind import batch_folder, blind_table, check_blind

    root = course_root()
    bad = 0
    try:
        batch_folder(root, LABS[0], args.batch)
    except ValueError as problem:
        print(f"coursetools blind: {problem}", file=sys.stderr)
        return 2
    for lab in args.labs or [lab for lab in LABS if batch_folder(root, lab, args.batch).is_dir()]:
        results = check_blind(root, lab, write=args.write, batch=args.batch)
        print(blind_table(lab, results), flush=True)
        bad += sum(r.problem is not None for r in results)
    return 1 if bad else 0


def cmd_standin(args: argparse.Namespace) -> int:
    """Stand-in students: prepare what they read, grade their fixes, or report the first-try fix rate."""
    from pathlib import Path

    from coursetools.labs import LABS
    from coursetools.quality.blind import batch_folder
    from coursetools.quality.standin import check_fixes, prepare, rates, rates_table, store

    root = course_root()
    try:
        labs = args.labs or [lab for lab in LABS if batch_folder(root, lab, args.batch).is_dir()]
    except ValueError as problem:
        print(f"coursetools standin: {problem}", file=sys.stderr)
        return 2
    if args.prepare:
        n = prepare(root, Path(args.prepare), labs, args.batch)
        print(f"wrote {n} entries' code and messages under {args.prepare}")
        return 0
    if args.store:
        n = store(root, Path(args.store), labs, args.batch)
        print(f"stored {n} fixes (their changed sections) and the messages they read from {args.store}")
    if args.grade:
        for lab in labs:
            for r in check_fixes(root, lab, args.batch, write=args.write):
                print(f"  {lab} {r.entry:40s} {r.result:7s} {r.before:g} -> {r.after:g} of {r.maximum:g}", flush=True)
    print(rates_table(args.batch, rates(root, args.batch, labs)))
    return 0


def cmd_build_submission(args: argparse.Namespace) -> int:
    """Build a submission notebook from a release notebook and an answers file."""
    from pathlib import Path

    from coursetools.quality.submission import build_submission

    out = build_submission(Path(args.release_notebook), Path(args.answers), Path(args.out))
    print(f"wrote {out}")
    return 0


def cmd_figures(args: argparse.Namespace) -> int:
    """Write example figures drawn from real search traces into a folder (default docs/figures)."""
    from coursetools.quality.figures import cmd_figures as write

    return write(args)


def cmd_golden(args: argparse.Namespace) -> int:
    """Write each public case's expected result and trace to tests/golden/<lab>/ (--check: only compare)."""
    from coursetools.quality.golden import cmd_golden as golden

    return golden(args)


def cmd_mutants(args: argparse.Namespace) -> int:
    """Mutate each lab's reference solution, run the mutants through the hidden checks, print the survivors."""
    from coursetools.quality.mutants import cmd_mutants as mutate

    return mutate(args)


def cmd_dist(args: argparse.Namespace) -> int:
    """Build the package students install (sdist and wheel) into dist/ and check them with twine."""
    from coursetools.course.publish import cmd_dist as build

    return build(args)


def cmd_tournament(args: argparse.Namespace) -> int:
    """Play a class tournament of a graded lab's agents in the sandbox; write its page into exports/."""
    from coursetools.sandbox.launcher import SandboxUnavailable
    from coursetools.tournament.runner import run_tournament

    try:
        t, paths = run_tournament(course_root(), args.lab, args.replay or [], event=args.event, seed=args.seed,
                                  students=args.students or None, anonymous=args.pseudonyms, budget=args.budget,
                                  openings=args.openings, sandbox=not args.no_sandbox)
    except (ValueError, SandboxUnavailable) as exc:
        print(f"coursetools tournament: {exc}", file=sys.stderr)
        return 2
    print(f"tournament of {args.lab}: {len(t.games)} games in {t.seconds:.1f} s; page {paths['html']}")
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    """Run a worker of the self-check service: it takes checks and class grading from the broker."""
    from coursetools.service.worker import main as worker

    return worker(args)


def cmd_loadtest(args: argparse.Namespace) -> int:
    """Load test of the self-check service: a burst of checks through the HTTP service and two workers (make loadtest)."""
    from coursetools.quality.loadtest import main as loadtest

    return loadtest()


def cmd_services(args: argparse.Namespace) -> int:
    """Start or stop the local broker (Redis) and database (PostgreSQL) on Unix sockets under build/services/."""
    from coursetools.service.services import main as services

    return services(args.argv)


def cmd_server(args: argparse.Namespace) -> int:
    """A course server: JupyterHub on 127.0.0.1 with a teacher's and students' real accounts (docs/server.md)."""
    from coursetools.hub.server import main as server

    return server(args)


COMMANDS = {
    "bank": cmd_bank,
    "blind": cmd_blind,
    "build-submission": cmd_build_submission,
    "standin": cmd_standin,
    "check-notebooks-clean": cmd_check_notebooks_clean,
    "dist": cmd_dist,
    **SERVE_COMMANDS,  # serve, tokens (coursetools/service/commands.py)
    "figures": cmd_figures,
    "golden": cmd_golden,
    "mutants": cmd_mutants,
    "release": cmd_release,
    "stamp": cmd_stamp,
    "tournament": cmd_tournament,
    "worker": cmd_worker,
    "loadtest": cmd_loadtest,
    "services": cmd_services,
    "server": cmd_server,
    **PIPELINE_COMMANDS,  # grade, demo, student-edition, ... (coursetools/pipeline_cli.py)
}


# The commands that write the term's private files: the gradebook, submitted/, autograded/, feedback/, exports/, the
# tool's LTI key (due-date may be the first to open the gradebook, and so make it).
PRIVATE_WRITERS = ("archive-term", "due-date", "export", "feedback", "grade", "hand-out", "lti-key", "push-grades",
                   "rebuild-gradebook", "similarity", "zip-collect")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="coursetools", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    parsers = {name: sub.add_parser(name, help=fn.__doc__) for name, fn in COMMANDS.items()}
    add_serve_arguments(parsers)
    parsers["bank"].add_argument("labs", nargs="*", help="labs to grade (default: every lab in bank/)")
    parsers["blind"].add_argument("labs", nargs="*", help="labs to grade (default: every lab in bank/blind/)")
    parsers["blind"].add_argument("--batch", default="blind",
                                  help="which batch, each by a different author (default: the first, bank/blind/)")
    parsers["blind"].add_argument("--write", action="store_true",
                                  help="store each new or changed message beside its entry, to be judged")
    p = parsers["standin"]
    p.add_argument("labs", nargs="*", help="labs (default: every lab of the batch)")
    p.add_argument("--batch", default="blind", help="which blind batch (default: the first, bank/blind/)")
    p.add_argument("--prepare", metavar="FOLDER", help="write each entry's code (no comments) and messages there")
    p.add_argument("--store", metavar="FOLDER", help="keep the fixes written there (<lab>/<entry>.fix.py) beside the "
                   "verdicts: bank/<batch>/<lab>/fixes/")
    p.add_argument("--grade", action="store_true", help="grade the stored fixes (bank/<batch>/<lab>/fixes/)")
    p.add_argument("--write", action="store_true", help="with --grade: store each fix's result beside it")
    parsers["build-submission"].add_argument("release_notebook")
    parsers["build-submission"].add_argument("answers", help="answers file: sections '# %% <grade_id>'")
    parsers["build-submission"].add_argument("out", help="where to write the submission notebook")
    parsers["dist"].add_argument("--out", help="where to write the sdist and wheel (default: dist/)")
    parsers["figures"].add_argument("folder", nargs="?", default="docs/figures", help="where to write the figures")
    parsers["golden"].add_argument("labs", nargs="*", help="labs (default: every lab whose checks list golden cases)")
    parsers["golden"].add_argument("--check", action="store_true", help="only report files that differ")
    parsers["mutants"].add_argument("labs", nargs="*", help="labs, by name or number (default: every lab)")
    parsers["mutants"].add_argument("--rules-only", action="store_true",
                                    help="only the rule mutants of bank/rules/ (graded through nbgrader)")
    parsers["mutants"].add_argument("--write", action="store_true",
                                    help="store each new or changed rule mutant's message beside it, to be judged")
    parsers["stamp"].add_argument("--check", action="store_true",
                                  help="only report notebooks that differ from what the tool writes")
    parsers["stamp"].add_argument("folders", nargs="*",
                                  help="stamp only below these folders (default: source/ and notebooks/)")
    p = parsers["tournament"]
    p.add_argument("lab")
    p.add_argument("--event", help="which of the lab's tournaments (default: its first)")
    p.add_argument("--seed", help="the tournament's seed (default: COURSE_SECRET_SEED, else a fixed one)")
    p.add_argument("--students", nargs="*", help="only these students")
    p.add_argument("--pseudonyms", action="store_true", help="show neutral names instead of student ids")
    p.add_argument("--replay", action="append", metavar="GAME_ID", help="draw this game's boards (repeatable)")
    p.add_argument("--budget", type=int, help="nodes (or iterations) per move instead of the event's")
    p.add_argument("--openings", type=int, help="openings per pairing instead of the event's")
    p.add_argument("--no-sandbox", action="store_true", help="UNSAFE: run the agents without the sandbox")
    from coursetools.service.worker import add_arguments as worker_arguments
    worker_arguments(parsers["worker"])
    parsers["services"].add_argument("argv", nargs=argparse.REMAINDER, help="up|down|env [--tcp ADDRESS ...]")
    from coursetools.hub.server import add_arguments as server_arguments
    server_arguments(parsers["server"])
    add_pipeline_arguments(parsers)
    args = parser.parse_args(argv)
    if args.command in PRIVATE_WRITERS:
        os.umask(0o077)  # what they write (and the nbgrader they run) is the instructor's alone, whatever the host's umask
    from coursetools.grading.autograde import GradingStopped

    try:
        return COMMANDS[args.command](args)
    except (KeyboardInterrupt, GradingStopped) as stop:
        print(f"\n{args.command} {str(stop) or 'interrupted'}: every grade recorded so far is kept; "
              "run the same command again to finish the rest.", file=sys.stderr)
        return 130
