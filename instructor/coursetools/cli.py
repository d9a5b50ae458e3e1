"""``python -m coursetools COMMAND``: the instructor's commands."""

from __future__ import annotations

import argparse
import sys

from . import course_root
from .notebooks import dirty_cells, notebooks_under


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


def cmd_demo(args: argparse.Namespace) -> int:
    """The instructor's main job, as far as the course has got: build the student versions."""
    from .release import release_all

    return release_all(course_root())


def cmd_release(args: argparse.Namespace) -> int:
    """Generate every lab's student version into release/."""
    from .release import release_all

    return release_all(course_root())


COMMANDS = {
    "check-notebooks-clean": cmd_check_notebooks_clean,
    "demo": cmd_demo,
    "release": cmd_release,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="coursetools", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, fn in COMMANDS.items():
        sub.add_parser(name, help=fn.__doc__)
    args = parser.parse_args(argv)
    return COMMANDS[args.command](args)
