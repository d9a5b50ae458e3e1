"""``make loadtest``: a burst of self-checks through the HTTP service and two workers, against ``grade --jobs 2``.

In a course of its own (``build/loadtest/course``, one lab), 50 students send 100 distinct notebooks, all students
at once and each student's own one after another, since the service takes one check at a time per student
(``LOADTEST_STUDENTS``, ``LOADTEST_NOTEBOOKS``): the lab's solution and its bug bank's entries, each notebook made
distinct by a comment of its own, so nothing could be answered from a cache (and the service keeps none). Each
request goes through ``coursetools serve`` with the student's token, as ``check_online`` sends it; two workers
(``coursetools worker``, the production broker settings) grade them. When a fifth of the checks are answered, one
worker is SIGKILLed and a new one started in its place, as a machine restarting its worker would. Then the same
notebooks are graded as a class with ``coursetools grade --jobs 2``.

It prints p50 and p95 time to answer, the burst's throughput against ``grade --jobs 2``'s, and fails unless every
check was answered, exactly once, with none lost. The figures go to ``build/loadtest/report.json``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coursetools import tool_env
from coursetools.course.labfiles import solution_answers
from coursetools.quality.processes import answering, environ_set, free_port, start, stop, wait_until
from coursetools.quality.submission import build_submission, parse_answers
from coursetools.quality.selfcheck_demo import DEMO_SEED
from coursetools.quality.toycourse import make_lab_course

LOADTEST_REDIS_DB, LOADTEST_DATABASE = 2, "course_loadtest"


def _variants(root: Path, lab: str) -> list[tuple[str, dict[str, str]]]:
    """The lab's solution, then each bug bank entry in place of the solutions it replaces."""
    source = root / "source" / lab / f"{lab}.ipynb"
    out = [("solution", solution_answers(source))]
    for entry in sorted((root / "bank" / lab).glob("*.py")):
        answers = solution_answers(source)
        answers.update(parse_answers(entry.read_text()))
        out.append((entry.stem, answers))
    return out


def make_notebooks(root: Path, course: Path, lab: str, count: int, folder: Path) -> list[tuple[str, Path]]:
    """`count` distinct notebooks of `lab` ((variant, path) each), the variants in turn."""
    variants = _variants(root, lab)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(count):
        name, answers = variants[i % len(variants)]
        first = next(iter(answers))
        distinct = {**answers, first: f"# load-test notebook {i}\n" + answers[first]}
        path = folder / f"{i:03d}.ipynb"
        build_submission(course / "release" / lab / f"{lab}.ipynb", distinct, path)
        out.append((name, path))
    return out


def _post(url: str, lab: str, token: str, body: bytes, timeout: float) -> tuple[int, dict]:
    request = urllib.request.Request(f"{url}/check/{lab}", data=body, method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        try:
            return exc.code, json.loads(exc.read())
        except ValueError:
            return exc.code, {"error": str(exc)}
    except OSError as exc:
        return 0, {"error": f"{type(exc).__name__}: {exc}"}


def percentile(values: list[float], p: float) -> float:
    """The `p`-th percentile (0-100) of `values`, by linear interpolation.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 50)
    2.5
    """
    s = sorted(values)
    k = (len(s) - 1) * p / 100
    lo = int(k)
    return s[lo] + (s[min(lo + 1, len(s) - 1)] - s[lo]) * (k - lo)


def run_loadtest(root: Path, lab: str = "02_minimax", students: int = 50, notebooks: int = 100, workers: int = 2,
                 kill: bool = True) -> int:
    """Run the load test (see the module); 0 when every check was answered exactly once."""
    from coursetools.grading.autograde import grade
    from coursetools.grading.scratch import template_gradebook
    from coursetools.service import answers, services, tokens

    work = root / "build" / "loadtest"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    os.environ["PATH"] = tool_env()["PATH"]  # nbgrader runs alembic and kernels by name
    course = make_lab_course(work / "course", lab, root=root)
    made = make_notebooks(root, course, lab, notebooks, work / "notebooks")
    names = [f"s{i:03d}" for i in range(students)]
    owner = {i: names[i % students] for i in range(notebooks)}
    started_services = not services.running(root)
    services.up(root)
    env_values = services.fresh_env(root, LOADTEST_REDIS_DB, LOADTEST_DATABASE)
    env = {k: v for k, v in os.environ.items() if k != "COURSE_DB_URL"}
    env.setdefault("COURSE_SECRET_SEED", DEMO_SEED)  # its course is a scratch one, as the demo's
    env.update(env_values)
    env["COURSE_SELFCHECK_LIMIT"] = str(notebooks)  # the burst itself must not hit the rate limit
    procs: list[subprocess.Popen] = []
    server = None
    report: dict = {"lab": lab, "students": students, "notebooks": notebooks, "workers": workers}
    problems: list[str] = []
    with environ_set(env_values):  # this process reads the services from its environment too
        try:
            template_gradebook(course, lab)  # built once, as a worker machine keeps it
            for k in range(workers):
                log = work / f"worker-{k}.log"
                procs.append(start(["worker", "--threads", "1"], course, env, log))
                wait_until(lambda log=log: " ready: " in log.read_text(errors="replace"), procs[-1], log, "worker")
            port = free_port()
            url = f"http://127.0.0.1:{port}"
            server = start(["serve", "--port", str(port), "--timeout", "3600"], course, env, work / "serve.log")
            wait_until(lambda: answering(url), server, work / "serve.log", "service")
            issued = tokens.issue(lab, names)
            bodies = {i: path.read_bytes() for i, (_, path) in enumerate(made)}
            results: dict[int, tuple[int, dict, float]] = {}
            done = threading.Event()
            lock = threading.Lock()

            def one(i: int) -> None:
                status, body = _post(url, lab, issued[owner[i]], bodies[i], timeout=3600)
                with lock:
                    results[i] = (status, body, time.monotonic() - t0)

            def student(name: str) -> None:  # one check in flight per student, as the service allows
                for i in range(notebooks):
                    if owner[i] == name:
                        one(i)

            def killer() -> None:
                while not done.is_set():
                    with lock:
                        answered = sum(1 for status, _, _ in results.values() if status == 200)
                    if answered >= notebooks // 5:
                        victim = procs[0]
                        victim.send_signal(signal.SIGKILL)
                        victim.wait()
                        report["killed_at_s"] = round(time.monotonic() - t0, 1)
                        log = work / f"worker-{len(procs)}.log"
                        procs.append(start(["worker", "--threads", "1"], course, env, log))
                        print(f"  SIGKILLed a worker after {answered} answers ({report['killed_at_s']} s); a new one "
                              "takes its place", flush=True)
                        return
                    time.sleep(0.2)

            print(f"load test: {notebooks} notebooks of {lab} from {students} students at once (each student's in "
                  f"turn), {workers} workers, "
                  f"service {url}", flush=True)
            t0 = time.monotonic()
            watcher = threading.Thread(target=killer, daemon=True) if kill else None
            if watcher:
                watcher.start()
            with ThreadPoolExecutor(max_workers=students) as pool:
                list(pool.map(student, names))
            burst = time.monotonic() - t0
            done.set()
            times = [t for status, _, t in results.values() if status == 200]
            ids = [body.get("check_id") for status, body, _ in results.values() if status == 200]
            refused = {i: (status, body) for i, (status, body, _) in results.items() if status != 200}
            for i, (status, body) in sorted(refused.items()):
                problems.append(f"notebook {i}: HTTP {status} {body.get('error', body)}")
            if len(set(ids)) != len(ids):
                problems.append("two requests got the same check id")
            counts = {cid: answers.answer_count(cid) for cid in ids}
            twice = [cid for cid, n in counts.items() if n != 1]
            if twice:
                problems.append(f"{len(twice)} checks stored {sorted(set(counts.values()))} answers, not one")
            not_graded = [i for i, (s, b, _) in results.items() if s == 200 and b.get("refused")]
            wrong = [i for i, (s, b, _) in results.items() if s == 200 and made[i][0] == "solution"
                     and any(c["verdict"] != "passed" for c in b.get("cells", []))]
            problems += [f"notebook {i}: not graded ({results[i][1]['refused']})" for i in not_graded]
            problems += [f"notebook {i}: the solution failed a cell" for i in wrong]
            report.update({
                "answered": len(times), "lost": notebooks - len(times), "answered_twice": len(twice),
                "burst_s": round(burst, 1), "p50_s": round(percentile(times, 50), 1) if times else None,
                "p95_s": round(percentile(times, 95), 1) if times else None,
                "max_s": round(max(times), 1) if times else None,
                "service_per_min": round(len(times) / burst * 60, 1)})
            print(f"  answered {len(times)}/{notebooks} in {burst:.0f} s: p50 {report['p50_s']} s, p95 {report['p95_s']} s, "
                  f"max {report['max_s']} s; {report['service_per_min']} checks a minute; "
                  f"{len(twice)} answered twice, {report['lost']} lost", flush=True)
        finally:
            stop(server)
            for p in procs:
                stop(p)
            if started_services:
                services.down(root)
    # The same notebooks graded as a class, with the final grading's coordinator and two shards.
    for i, (_, path) in enumerate(made):
        dest = course / "submitted" / f"n{i:03d}" / lab
        dest.mkdir(parents=True)
        shutil.copy(path, dest / f"{lab}.ipynb")
    t1 = time.monotonic()
    graded = grade(course, lab, jobs=2, progress=None)
    seconds = time.monotonic() - t1
    count = sum(r.status == "graded" for r in graded.results.values())
    report.update({"grade_jobs2_s": round(seconds, 1), "grade_jobs2_graded": count,
                   "grade_jobs2_per_min": round(count / seconds * 60, 1)})
    print(f"  coursetools grade --jobs 2 on the same {notebooks} notebooks: {count} graded in {seconds:.0f} s, "
          f"{report['grade_jobs2_per_min']} a minute (the service: {report.get('service_per_min')} a minute)")
    (work / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    for line in problems:
        print(f"  WRONG: {line}")
    print(f"load test: {'every check answered exactly once' if not problems else f'{len(problems)} problems'}; "
          f"figures in {work / 'report.json'}")
    return 0 if not problems else 1


def main(argv: list[str] | None = None) -> int:
    """``python -m coursetools loadtest``, sized by ``LOADTEST_*`` variables."""
    from coursetools import course_root

    return run_loadtest(course_root(), lab=os.environ.get("LOADTEST_LAB", "02_minimax"),
                        students=int(os.environ.get("LOADTEST_STUDENTS", 50)),
                        notebooks=int(os.environ.get("LOADTEST_NOTEBOOKS", 100)),
                        workers=int(os.environ.get("LOADTEST_WORKERS", 2)),
                        kill=os.environ.get("LOADTEST_KILL", "1") != "0")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
