"""The instructor's commands of the self-check service: ``serve`` (the HTTP service) and ``tokens``."""

from __future__ import annotations

import argparse


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the self-check service (HTTP): students post a lab notebook with their token, get its checks' answer."""
    from coursetools.service.app import main

    return main(args)


def cmd_tokens(args: argparse.Namespace) -> int:
    """Issue one self-check token per student of a lab (stored hashed; written to a file only you can read)."""
    from coursetools.service.tokens import issue_to_file

    return issue_to_file(args.lab, args.students, args.out, args.days)


SERVE_COMMANDS = {"serve": cmd_serve, "tokens": cmd_tokens}


def add_serve_arguments(parsers: dict[str, argparse.ArgumentParser]) -> None:
    """The arguments of `SERVE_COMMANDS`."""
    from pathlib import Path

    p = parsers["tokens"]
    p.add_argument("lab")
    p.add_argument("--students", required=True, type=Path, help="student ids, one a line (or a CSV, first column)")
    p.add_argument("--out", type=Path, help="where the tokens go (default exports/tokens-LAB.csv, yours only)")
    p.add_argument("--days", type=float, help="days until the tokens expire (default: never)")
    p = parsers["serve"]
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; put a TLS reverse "
                                                        "proxy in front for students: docs/selfcheck.md)")
    p.add_argument("--port", type=int, default=8025)
    p.add_argument("--after-deadline", choices=("closed", "practice"), default="closed",
                   help="what happens after a lab's due date: no checks, or checks marked practice (default closed)")
    p.add_argument("--practice", nargs="*", default=[], metavar="LAB", help="labs open for practice after their due date")
    p.add_argument("--closed", nargs="*", default=[], metavar="LAB", help="labs closed after their due date")
    p.add_argument("--timeout", type=float, default=240.0, help="seconds a request waits for its answer (default 240)")
