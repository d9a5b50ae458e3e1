"""The instructor pipeline's commands (grade, demo, student-edition, ...), plugged into ``coursetools.cli``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from coursetools import course_root


FORMGRADER = ("`make lab` (or `jupyter lab` in the course folder), then the Nbgrader menu > Formgrader, "
              "or http://localhost:8888/formgrader")


def formgrader_hint() -> str:
    """How to open formgrader from here: on a JupyterHub (a terminal of the teacher's server, which has the server's
    ``JUPYTERHUB_SERVICE_PREFIX``) its address, in a tab of its own; elsewhere `FORMGRADER`."""
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX")
    if prefix:
        return (f"the address {prefix.rstrip('/')}/formgrader on this Hub, in a tab of its own (the Nbgrader menu's "
                "Formgrader stays blank on a Hub)")
    return FORMGRADER


def next_steps(root: Path, lab: str) -> str:
    """What to do after grading `lab`, with the number of written answers still to grade by hand."""
    from coursetools.grading.gradebook import course_id, db_url
    from coursetools.grading.pending import pending_answers

    pending = pending_answers(db_url(root), course_id(root), lab)
    total = sum(pending.values())
    first = (f"{total} written answer{'s' if total != 1 else ''} of {len(pending)} student"
             f"{'s' if len(pending) != 1 else ''} to grade in formgrader (open it with {formgrader_hint()}), then "
             if total else "no written answer left to grade by hand; ")
    return f"next: {first}`coursetools feedback {lab}`, then `coursetools export {lab}`"


def check_frozen_checks(root: Path, lab: str, regrade: bool) -> int:
    """0 when `lab`'s checks are those handed out (or a regrade with new ones is asked for and logged), else 2."""
    from coursetools.course.term import FROZEN, accept_new_checks, changed_checks

    changed = changed_checks(root, lab)
    if not changed:
        return 0
    shown = ", ".join(changed[:8]) + (f" and {len(changed) - 8} more" if len(changed) > 8 else "")
    if not regrade:
        print(f"coursetools grade {lab} refused: the lab's checks changed since it was handed out ({shown}), so "
              f"grades could move. Restore them, or grade with --regrade-with-new-checks to regrade with the new "
              f"checks (logged; {FROZEN} then records them).", file=sys.stderr)
        return 2
    log = accept_new_checks(root, lab, changed, "coursetools grade --regrade-with-new-checks")
    print(f"regrading {lab} with new checks ({shown}): logged in {log}; add --force to regrade every submission")
    return 0


def cmd_grade(args: argparse.Namespace) -> int:
    """Autograde a lab for the whole class in parallel shards; exit 1 if a submission was not graded."""
    from coursetools.grading.autograde import grade
    from coursetools.sandbox.launcher import SandboxUnavailable

    if check_frozen_checks(course_root(), args.lab, args.regrade_with_new_checks):
        return 2
    if args.no_sandbox:
        print("WARNING: grading WITHOUT a sandbox (--no-sandbox): each submission's code runs with your rights "
              "and can read the hidden checks and change other students' grades.", file=sys.stderr)
    try:
        if args.queue:  # on the self-check service's workers; this process alone writes the gradebook
            from coursetools.service.classgrade import grade_on_queue

            report = grade_on_queue(course_root(), args.lab, args.queue, students=args.students or None,
                                    force=args.force, submission_timeout=args.submission_timeout,
                                    sandbox=False if args.no_sandbox else args.sandbox)
        else:
            report = grade(course_root(), args.lab, jobs=args.jobs, force=args.force, students=args.students or None,
                           submission_timeout=args.submission_timeout, shard_timeout=args.shard_timeout,
                           sandbox=False if args.no_sandbox else args.sandbox)
    except SandboxUnavailable as exc:
        print(f"coursetools grade: {exc}", file=sys.stderr)
        return 2
    print(report.summary())
    print(next_steps(course_root(), args.lab))
    return 1 if report.not_graded() else 0


def cmd_due_date(args: argparse.Namespace) -> int:
    """Set a lab's due date (an instant: a date, a time and its zone), or show it; exit 2 on a date it cannot read."""
    from coursetools.course.dates import DateError, shown
    from coursetools.grading.gradebook import due_date, set_due_date
    from coursetools.labs import labs_in

    root = course_root()
    if args.lab not in labs_in(root):
        print(f"coursetools due-date: there is no lab {args.lab!r} in {root / 'source'}", file=sys.stderr)
        return 2
    if args.when is None:
        due = due_date(root, args.lab)
        print(f"{args.lab} is due {shown(due)}" if due else f"{args.lab} has no due date")
        return 0
    try:
        due = set_due_date(root, args.lab, args.when)
    except DateError as exc:
        print(f"coursetools due-date: {exc}; nothing was stored", file=sys.stderr)
        return 2
    print(f"{args.lab} is due {shown(due)} ({args.when.strip()}); late penalties and the self-check service's "
          "deadline read this instant")
    return 0


def _nbgrader(root: Path, *argv: str) -> int:
    """Run an nbgrader command in the course folder; its own output is shown."""
    import subprocess

    from coursetools import tool_env

    return subprocess.run([sys.executable, "-m", "nbgrader", *argv], cwd=root, env=tool_env()).returncode


def cmd_feedback(args: argparse.Namespace) -> int:
    """Write each graded student's feedback page for a lab into feedback/ (nbgrader generate_feedback)."""
    from coursetools.grading.gradebook import course_id, db_url
    from coursetools.grading.pending import pending_answers

    root = course_root()
    argv = ["generate_feedback", args.lab, "--force", "--log-level=WARN"]
    argv += [f"--student={s}" for s in args.students or []]
    if _nbgrader(root, *argv):
        print(f"coursetools feedback {args.lab}: nbgrader generate_feedback failed (above)", file=sys.stderr)
        return 1
    pages = sorted((root / "feedback").glob(f"*/{args.lab}/*.html"))
    print(f"feedback of {args.lab}: {len(pages)} page(s) in {root / 'feedback'}/<student>/{args.lab}/")
    pending = pending_answers(db_url(root), course_id(root), args.lab)
    if pending:
        print(f"  {sum(pending.values())} written answer(s) of {len(pending)} student(s) are not graded yet: their "
              f"pages say \"waiting for your teacher's grade\"; grade them in formgrader and run this again")
    print(f"to hand it back: `nbgrader release_feedback {args.lab}` (exchange) or upload each page to the LMS")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Export a lab's grades: exports/<lab>-grades.csv and <lab>-cells.csv, or with --to an LMS's import file."""
    from coursetools.grading.gradebook import course_id, db_url
    from coursetools.grading.lmsexport import write_cells_csv

    root = course_root()
    if args.to:
        return _export_lms(root, args)
    if args.roster:
        print("coursetools export: --roster goes with --to canvas or --to moodle", file=sys.stderr)
        return 2
    (root / "exports").mkdir(exist_ok=True)
    grades = root / "exports" / f"{args.lab}-grades.csv"
    if _nbgrader(root, "export", f"--to={grades}", f"--assignment={args.lab}", "--log-level=WARN"):
        print(f"coursetools export {args.lab}: nbgrader export failed (above)", file=sys.stderr)
        return 1
    grades.chmod(0o600)
    try:
        cells, pending = write_cells_csv(db_url(root), course_id(root), args.lab, root / "exports" / f"{args.lab}-cells.csv")
    except ValueError as exc:
        print(f"coursetools export {args.lab}: {exc}", file=sys.stderr)
        return 1
    print(f"grades of {args.lab}: {grades}\nper test cell (for an LMS gradebook): {cells}")
    if pending:
        print(f"  {pending} written answer(s) are not graded yet: they are empty in {cells.name} and count 0 in "
              f"{grades.name}")
    return 0


def _export_lms(root: Path, args: argparse.Namespace) -> int:
    """``coursetools export LAB --to canvas|moodle --roster FILE``: the LMS's own import file in exports/."""
    from coursetools.grading.gradebook import course_id, db_url
    from coursetools.grading.lmsexport import describe, write_lms_csv
    from coursetools.sandbox.safecopy import printable

    if not args.roster:
        print(f"coursetools export: --to {args.to} needs --roster FILE, the student list {args.to.title()} exports "
              "(docs/instructor-guide.md, section 7)", file=sys.stderr)
        return 2
    out = root / "exports" / f"{args.lab}-{args.to}.csv"
    try:
        made, roster = write_lms_csv(db_url(root), course_id(root), args.lab, args.to, Path(args.roster), out,
                                     id_column=args.id_column, pending=args.pending,
                                     hand_graded=not args.autograded_only, assignment_id=args.assignment_id,
                                     feedback=args.feedback)
    except ValueError as exc:
        print(f"coursetools export {args.lab}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(printable(line) for line in describe(made, roster, out, args.pending)))
    return 0


def _layout(root: Path, exchange: str | None = None, instructor: str | None = None):
    """The course's exchange layout: Exchange.root (or `exchange`), its course id, the instructor's account."""
    import getpass

    from coursetools.course.exchange_layout import Layout
    from coursetools.course.term import exchange_root
    from coursetools.grading.gradebook import course_id

    return Layout(Path(exchange or exchange_root(root)), course_id(root), instructor or getpass.getuser())


def _server_refused(command: str, problems: list[str]) -> int:
    for problem in problems:
        print(f"  UNSAFE {problem}", file=sys.stderr)
    print(f"coursetools {command} refused: {len(problems)} problem(s) above, each with its fix (docs/server.md)",
          file=sys.stderr)
    return 2


def cmd_check_server(args: argparse.Namespace) -> int:
    """Refuse a shared server where a student could reach what is not theirs (exchange, course folder, checks)."""
    from coursetools.course.server_check import check_server

    root = course_root()
    layout = _layout(root, args.exchange, args.instructor)
    problems = check_server(root, layout, args.student, args.student_python)
    if problems:
        return _server_refused("check-server", problems)
    print(f"server safe for {layout.course_id}: exchange {layout.root}, course folder {root} private, hidden checks "
          f"not importable by {args.student or 'other accounts'}")
    return 0


def cmd_setup_exchange(args: argparse.Namespace) -> int:
    """As root: make the exchange's layout for this course and the students' nbgrader configuration."""
    from coursetools.course.exchange_layout import exchange_problems, make_exchange, students_config

    root = course_root()
    layout = _layout(root, args.exchange, args.instructor)
    for line in make_exchange(layout):
        print(line)
    if args.students_config != "-":
        config = Path(args.students_config)
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(students_config(layout))
        config.chmod(0o644)
        print(f"students' nbgrader configuration: {config}")
    problems = exchange_problems(layout)
    return _server_refused("setup-exchange", problems) if problems else 0


def cmd_hand_out(args: argparse.Namespace) -> int:
    """Hand a lab out: check the server, freeze its checks, release it to the exchange (or name the file for an LMS)."""
    from coursetools.course.exchange_layout import make_exchange
    from coursetools.course.server_check import check_server, make_private
    from coursetools.course.term import FROZEN, NBGRADER_DEFAULT_EXCHANGE, exchange_root, freeze

    root = course_root()
    released = root / "release" / args.lab
    if not released.is_dir():
        print(f"coursetools hand-out: no {released}: run `coursetools release` first", file=sys.stderr)
        return 2
    if not args.lms:
        exchange = exchange_root(root)
        if exchange == NBGRADER_DEFAULT_EXCHANGE or not os.access(exchange, os.W_OK | os.X_OK):
            why = "nbgrader's default" if exchange == NBGRADER_DEFAULT_EXCHANGE else "missing or not writable"
            print(f"coursetools hand-out: the exchange {exchange} is {why}: set c.Exchange.root to a folder every "
                  "student's nbgrader also reads (docs/server.md), or hand out through an LMS "
                  "with --lms", file=sys.stderr)
            return 2
        layout = _layout(root)
        make_exchange(layout)
        if make_private(root):
            print(f"made gradebook, source/, submitted/, autograded/, feedback/, exports/ of {root} yours alone")
        problems = check_server(root, layout, args.student, args.student_python)
        if problems:
            return _server_refused(f"hand-out {args.lab}", problems)
    if freeze(root, args.lab):
        print(f"checks of {args.lab} frozen in {root / FROZEN}")
    if args.lms:
        print(f"upload {sorted(released.glob('*.ipynb'))[0]} to the LMS (collect with `coursetools zip-collect "
              f"{args.lab} ZIP`)")
        return 0
    if _nbgrader(root, "release_assignment", args.lab, "--force", "--log-level=WARN"):
        print(f"coursetools hand-out {args.lab}: nbgrader release_assignment failed (above)", file=sys.stderr)
        return 1
    print(f"{args.lab} released to the exchange {exchange_root(root)}; collect with `nbgrader collect {args.lab}`")
    return 0


def cmd_archive_term(args: argparse.Namespace) -> int:
    """Move this term's gradebook, submissions, grades and feedback into archive/NAME/ and start clean."""
    from coursetools.course.term import archive_term

    try:
        archive, moved = archive_term(course_root(), args.name)
    except ValueError as exc:
        print(f"coursetools archive-term refused: {exc}", file=sys.stderr)
        return 2
    print(f"archived {', '.join(moved) or 'nothing (no term files here)'} into {archive}; the course starts clean")
    return 0


def cmd_rebuild_gradebook(args: argparse.Namespace) -> int:
    """Rebuild the gradebook from source/ and submitted/ (the old sqlite file is kept as a backup)."""
    from coursetools.grading.autograde import grade
    from coursetools.grading.gradebook import db_url
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

    return run_demo(course_root(), jobs=args.jobs, update_expected=args.update_expected, only=args.labs or None,
                    out=Path(args.out) if args.out else None)


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
        checks = _checks_report(root, lab)
        if checks:
            print(f"{checks[1]}; table {checks[0].name}")
    return 0


def _checks_report(root: Path, lab: str) -> tuple[Path, str] | None:
    """How many self-checks students needed before they passed (when the self-check service's database is set)."""
    if not os.environ.get("COURSE_SERVICE_DB"):
        return None
    from coursetools.service.records import write_checks_report

    return write_checks_report(root, lab)


def cmd_selfcheck_demo(args: argparse.Namespace) -> int:
    """The demo class checks its notebooks through the self-check service (broker, a worker, HTTP) as students do."""
    from coursetools.quality.selfcheck_demo import run_selfcheck_demo

    return run_selfcheck_demo(course_root(), args.labs or None)


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
    print(f"student edition in {out}\nto publish it (docs/publishing.md), in a clone of {cfg.repository}:\n"
          f"  git add --all && git commit -m 'Release {cfg.ref}' && git tag {cfg.ref} && git push origin HEAD {cfg.ref}")
    return 0


def cmd_push_grades(args: argparse.Namespace) -> int:
    """Send a lab's scores to the LMS by LTI 1.3 (Assignment and Grade Services), settings in lti.ini."""
    import datetime

    from coursetools import write_private
    from coursetools.grading.lti import LtiError, push_grades, read_settings
    from coursetools.sandbox.safecopy import printable

    root = course_root()
    lines: list[str] = []
    log_file = root / "exports" / f"{args.lab}-push-grades.log"
    previous = log_file.read_text() if log_file.is_file() and not log_file.is_symlink() else ""

    def log(line: str) -> None:
        stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        lines.append(f"{stamp} {printable(line)}")

    try:
        settings = read_settings(root, Path(args.settings) if args.settings else None)
        outcome = push_grades(root, args.lab, settings, log)
    except LtiError as exc:
        log(f"stopped: {exc}")
        print(f"coursetools push-grades {args.lab}: {printable(exc)}", file=sys.stderr)
        return 2
    finally:
        write_private(log_file, previous + "".join(f"{line}\n" for line in lines))
    print(printable(outcome.summary(args.lab)))
    print(f"every attempt is in {log_file}")
    return 1 if outcome.failed else 0


def cmd_lti_key(args: argparse.Namespace) -> int:
    """Make the course's LTI 1.3 key (a private PEM file, mode 0600) and print the public JWK to register in the LMS."""
    import json

    from coursetools.grading.lti import LtiError, new_key, read_private_key, public_jwk

    path = Path(args.file)
    existed = path.exists()
    try:
        jwk = public_jwk(read_private_key(path)) if existed else new_key(path)
    except (LtiError, OSError) as exc:
        print(f"coursetools lti-key: {exc}", file=sys.stderr)
        return 2
    print(f"{'kept' if existed else 'wrote'} the private key {path} (readable by you only; never share it). "
          "The public key to paste into the LMS's LTI 1.3 developer key / tool registration:")
    print(json.dumps(jwk, indent=2))
    return 0


def cmd_similarity(args: argparse.Namespace) -> int:
    """Rank pairs of students by how alike their solution code is (similarity, not proof); instructor-only report."""
    from coursetools.grading.similarity import write_similarity
    from coursetools.sandbox.safecopy import printable

    try:
        paths, pairs = write_similarity(course_root(), args.lab)
    except ValueError as exc:
        print(f"coursetools similarity {args.lab}: {exc}", file=sys.stderr)
        return 2
    print(f"similarity of {args.lab} (similarity, not proof: read the code before deciding anything): "
          f"{paths['html']} and {paths['csv'].name}, readable by you only")
    for p in pairs[:args.top]:
        others = f"; {1 + len(p.other_labs)} labs, mean {p.labs_mean:.2f}" if p.other_labs else ""
        print(f"  {p.score:.2f}  {printable(p.a)}  {printable(p.b)}{others}")
    return 0


def cmd_zip_collect(args: argparse.Namespace) -> int:
    """Put the notebooks of nbgrader's, Canvas's or Moodle's zip into submitted/ (docs/grading.md)."""
    import zipfile

    from coursetools.grading.exchange import collect_zip
    from coursetools.sandbox.safecopy import printable

    try:
        result = collect_zip(course_root(), args.lab, Path(args.zip), force=args.force,
                             roster=Path(args.roster) if args.roster else None, id_column=args.id_column)
    except (ValueError, OSError, zipfile.BadZipFile) as exc:
        print(f"coursetools zip-collect {args.lab}: {printable(exc)}", file=sys.stderr)
        return 2
    print(result.summary())
    return 1 if result.problems else 0


PIPELINE_COMMANDS = {
    "archive-term": cmd_archive_term,
    "check-server": cmd_check_server,
    "setup-exchange": cmd_setup_exchange,
    "demo": cmd_demo,
    "due-date": cmd_due_date,
    "export": cmd_export,
    "feedback": cmd_feedback,
    "grade": cmd_grade,
    "hand-out": cmd_hand_out,
    "rebuild-gradebook": cmd_rebuild_gradebook,
    "report": cmd_report,
    "selfcheck-demo": cmd_selfcheck_demo,
    "similarity": cmd_similarity,
    "push-grades": cmd_push_grades,
    "lti-key": cmd_lti_key,
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
    p.add_argument("--queue", metavar="URL",
                   help="grade on the self-check service's workers (`python -m coursetools worker`) through the broker "
                        "at URL, e.g. redis://host:6379/0, instead of local shards; this process alone writes the "
                        "gradebook (docs/selfcheck.md)")
    p.add_argument("--regrade-with-new-checks", action="store_true",
                   help="grade although the lab's checks changed since it was handed out (logged in frozen-checks.log)")
    parsers["feedback"].add_argument("lab")
    parsers["feedback"].add_argument("--students", nargs="*", help="only these students")
    p = parsers["export"]
    p.add_argument("lab")
    p.add_argument("--to", choices=("canvas", "moodle"),
                   help="write the LMS's own grade import file, exports/LAB-canvas.csv or exports/LAB-moodle.csv")
    p.add_argument("--roster", help="the students as the LMS exports them: Canvas's gradebook CSV, Moodle's "
                                    "participants list or grade export")
    p.add_argument("--id-column", help="the roster column holding the course's student ids (default: Canvas's "
                                       "'SIS Login ID', Moodle's 'ID number')")
    p.add_argument("--pending", choices=("leave-out", "blank"), default="leave-out",
                   help="a student whose written answer is not graded yet: left out of the file (default) or left "
                        "blank; never 0")
    p.add_argument("--autograded-only", action="store_true",
                   help="totals of the autograded tests only, without the hand-graded answers")
    p.add_argument("--assignment-id", help="Canvas: the lab's assignment id (default: read from the roster's "
                                           "'LAB (id)' column)")
    p.add_argument("--feedback", action="store_true",
                   help="Moodle: a feedback column beside the grade (always together with it)")
    parsers["hand-out"].add_argument("lab")
    parsers["hand-out"].add_argument("--lms", action="store_true",
                                     help="hand out through an LMS (no exchange): freeze the checks, name the file")
    for name in ("hand-out", "check-server"):
        parsers[name].add_argument("--student", help="a student account to try importing the hidden checks as (as root)")
        parsers[name].add_argument("--student-python", default="python3",
                                   help="the Python students' kernels run (default: python3 on the system PATH)")
    for name in ("check-server", "setup-exchange"):
        parsers[name].add_argument("--exchange", help="the exchange's root (default: c.Exchange.root of the configuration)")
        parsers[name].add_argument("--instructor", help="the instructor's account (default: you)")
    parsers["setup-exchange"].add_argument(
        "--students-config", default="/etc/jupyter/nbgrader_config.py",
        help="where to write the nbgrader configuration every account reads ('-': do not write it)")
    parsers["archive-term"].add_argument("name", help="the term's name, e.g. 2026-autumn")
    parsers["due-date"].add_argument("lab")
    parsers["due-date"].add_argument("when", nargs="?", help='the due date with its zone: "2026-12-04 17:00 '
                                     'Europe/Paris", "2026-12-04 17:00 +01:00" or "2026-12-04 16:00 UTC" (none: '
                                     'show it)')
    parsers["rebuild-gradebook"].add_argument("--jobs", "-j", type=int, default=jobs)
    parsers["demo"].add_argument("--jobs", "-j", type=int, default=jobs)
    parsers["demo"].add_argument("--update-expected", action="store_true", help="rewrite demo/expected.csv")
    parsers["demo"].add_argument("--labs", nargs="*", metavar="LAB", help="only these labs (default: every lab)")
    parsers["demo"].add_argument("--out", help="the demo course's folder (default build/demo-course)")
    parsers["report"].add_argument("labs", nargs="+", metavar="LAB", help="graded labs")
    parsers["student-edition"].add_argument("--out", help="folder to write (default build/student-edition)")
    parsers["selfcheck-demo"].add_argument("labs", nargs="*", metavar="LAB", help="only these labs (default: every lab)")
    parsers["push-grades"].add_argument("lab")
    parsers["push-grades"].add_argument("--settings", help="the LTI settings file (default: lti.ini in the course)")
    parsers["lti-key"].add_argument("file", nargs="?", default="lti-key.pem",
                                    help="the private key file (default lti-key.pem; kept if it exists)")
    parsers["similarity"].add_argument("lab")
    parsers["similarity"].add_argument("--top", type=int, default=5, help="pairs to print (the files have every pair)")
    p = parsers["zip-collect"]
    p.add_argument("lab")
    p.add_argument("zip", metavar="ARCHIVE", help="nbgrader's, Canvas's or Moodle's zip of the lab's uploads")
    p.add_argument("--roster", help="the roster the LMS exports (Canvas's gradebook CSV, Moodle's participants list "
                   "or grading worksheet); needed for Canvas's and Moodle's downloads")
    p.add_argument("--id-column", help="the roster's column of the course's student ids (default: Canvas's "
                   "'SIS Login ID', Moodle's 'ID number')")
    p.add_argument("--force", action="store_true", help="replace submissions already in submitted/")


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: python -m coursetools COMMAND")
