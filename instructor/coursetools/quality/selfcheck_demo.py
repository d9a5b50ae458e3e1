"""``make selfcheck-demo``: the demo class checks its notebooks through the self-check service, as students do.

It starts the broker and the database (unless running), one worker and the HTTP service on 127.0.0.1 in a course
of its own (``build/selfcheck-demo/``: the labs' sources, its own gradebook), issues each demo student a token
per lab, and sends every notebook of ``demo/submissions/`` with the student's call, `course_lib.online`. One line
per submission: student, lab, cells passed, first failing cell (or why it was refused). Then it stops what it
started. It succeeds only when the perfect student passes every test cell of every lab and the typical-bug
student fails the right cells: it loses the points ``demo/expected.csv`` says the final grading takes.
"""

from __future__ import annotations

import contextlib
import csv
import os
import shutil
import time
from pathlib import Path

from coursetools.labs import labs_in
from coursetools.quality.demo import DEMO_CELL_TIMEOUT
from coursetools.quality.processes import answering, environ_set, free_port, start, stop, wait_until
from coursetools.quality.toycourse import write_course_config

#: The demo class's COURSE_SECRET_SEED unless one is set: public (the demo's course is no real class), and the key
#: checks drew from before a worker required a seed, so the demo's answers stay what they were.
DEMO_SEED = "no-secret-seed"


def expected_scores(root: Path) -> dict[tuple[str, str], float]:
    with open(root / "demo" / "expected.csv", newline="") as f:
        return {(r["student"], r["lab"]): float(r["score"]) for r in csv.DictReader(f)}


def run_selfcheck_demo(root: Path, labs: list[str] | None = None) -> int:
    """Run the demo (see the module); 0 when the perfect and typical-bug students got the expected answers."""
    from course_lib.online import CheckOnlineError, check_online
    from coursetools.service import services, tokens

    labs = labs or labs_in(root)
    work = root / "build" / "selfcheck-demo"
    shutil.rmtree(work, ignore_errors=True)
    course = work / "course"
    for lab in labs:
        shutil.copytree(root / "source" / lab, course / "source" / lab)
    write_course_config(course, root, "")
    started = not services.running(root)
    services.up(root)
    env = {k: v for k, v in os.environ.items() if k != "COURSE_DB_URL"}
    env.update(services.env(root))
    env.setdefault("COURSE_SELFCHECK_CELL_TIMEOUT", str(DEMO_CELL_TIMEOUT))  # as `make demo` grades the class
    env.setdefault("COURSE_SECRET_SEED", DEMO_SEED)
    failures: list[str] = []
    with environ_set(services.env(root)), contextlib.ExitStack() as cleanup:  # undone last-in first-out
        if started:
            cleanup.callback(services.down, root)
        worker_log, server_log = work / "worker.log", work / "serve.log"
        worker = start(["worker"], course, env, worker_log)
        cleanup.callback(stop, worker)
        wait_until(lambda: " ready: " in worker_log.read_text(errors="replace"), worker, worker_log, "worker")
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = start(["serve", "--port", str(port)], course, env, server_log)
        cleanup.callback(stop, server)
        wait_until(lambda: answering(url), server, server_log, "service")
        print(f"self-check demo: broker, database, one worker and the service on {url}")
        expected = expected_scores(root)
        folder = root / "demo" / "submissions"
        students = sorted(p.name for p in folder.iterdir() if p.is_dir())
        issued = {lab: tokens.issue(lab, students) for lab in labs}
        for student in students:
            for lab in labs:
                path = folder / student / lab / f"{lab}.ipynb"
                if not path.is_file():
                    continue
                t0 = time.monotonic()
                try:
                    answer = check_online(lab, path=path, url=url, token=issued[lab][student], timeout=900)
                except CheckOnlineError as exc:
                    print(f"  {student:18s} {lab:24s} refused: {exc}")
                    if student in ("perfect", "typical_bug"):
                        failures.append(f"{student} {lab}: refused ({exc})")
                    continue
                cells = answer.get("cells", [])
                failing = [c["cell"] for c in cells if c["verdict"] != "passed"]
                points = sum(c["points"] for c in cells)
                print(f"  {student:18s} {lab:24s} {len(cells) - len(failing)}/{len(cells)} cells passed, "
                      f"first failing: {failing[0] if failing else '-'} ({time.monotonic() - t0:.0f} s)"
                      + (f" [{answer['refused']}]" if answer.get("refused") else ""), flush=True)
                if student == "perfect" and (failing or not cells):
                    failures.append(f"perfect {lab}: failed {', '.join(failing) or 'to be graded'}")
                want = expected.get((student, lab))
                if student == "typical_bug" and (not failing or want is None or abs(points - want) > 1e-9):
                    failures.append(f"typical_bug {lab}: failed {failing or 'nothing'} for {points:g} points; the "
                                    f"final grading gives {want}")
    for line in failures:
        print(f"  WRONG: {line}")
    print("self-check demo: " + ("the perfect student passed everything and the typical-bug student failed the "
                                 "right cells" if not failures else f"{len(failures)} wrong answers"))
    return 0 if not failures else 1
