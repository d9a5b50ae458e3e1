"""``python -m coursetools worker``: a worker of the self-check service, on any machine with the course and bubblewrap.

It takes checks (queue ``checks``) and class-grading submissions (queue ``grading``) from the broker at
``COURSE_BROKER_URL`` (or ``--queue URL``) with ``--threads`` worker threads; each machine started adds its
threads to the service. Every check and submission runs in the sandbox, never in this process. SIGTERM or
Ctrl-C stops it after the tasks under way; a worker killed outright has its tasks run again by another worker
(`coursetools.service.queue`).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading

from coursetools.service.connections import redacted

#: The longest a worker's consumer sleeps between polls of a queue it found empty (Dramatiq's default: 1,000 ms). Its
#: sleep grows while the worker is busy (it polls without fetching), so after each check a worker could stay idle up
#: to this long with checks waiting: a tenth of a lab 02 check's time at the default.
POLL_MS = 200


def warm_start_middleware() -> type:
    """Dramatiq middleware that starts each worker thread's warm nbgrader server (`grading.warm`) as the thread
    boots, so that no student's check waits for its imports."""
    import dramatiq

    from coursetools import tool_env
    from coursetools.grading import warm

    class WarmStart(dramatiq.Middleware):
        def after_worker_thread_boot(self, broker: object, thread: object) -> None:
            try:
                warm.starter().prepare(tool_env())
            except OSError as exc:  # the first check starts it again, and says why if it cannot
                logging.getLogger("coursetools.worker").warning("warm nbgrader server not started: %s", exc)

    return WarmStart


def run(url: str | None, threads: int, queues: list[str]) -> int:
    """Run a worker until SIGTERM or SIGINT; 2 when the secret seed, the broker or the sandbox is missing."""
    import dramatiq
    import redis

    from coursetools import tool_env
    from coursetools.sandbox.launcher import SandboxUnavailable, probe, warm_caches
    from coursetools.service import queue
    from coursetools.service.selfcheck import MissingSeed, secret_seed

    try:
        secret_seed()
    except MissingSeed as exc:
        print(f"coursetools worker: {exc}", file=sys.stderr)
        return 2
    os.environ["PATH"] = tool_env()["PATH"]  # nbgrader runs alembic and kernels by name
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app = queue.app(url)
    try:
        app.broker.client.ping()
    except redis.RedisError as exc:
        print(f"coursetools worker: the broker at {redacted(app.url)} does not answer ({exc}); start it "
              f"(`make services-up`) or set {queue.BROKER_ENV}", file=sys.stderr)
        return 2
    try:
        probe("bwrap")
    except SandboxUnavailable as exc:
        print(f"coursetools worker: {exc}", file=sys.stderr)
        return 2
    warm_caches()
    # What Dramatiq's own CLI sends each worker process as it boots: the TimeLimit middleware starts its watchdog
    # on it, without which no task's time limit is kept.
    app.broker.emit_after("process_boot")
    app.broker.add_middleware(warm_start_middleware()())
    worker = dramatiq.Worker(app.broker, queues=set(queues), worker_threads=threads, worker_timeout=POLL_MS)
    # One message per thread: a check never waits behind another on a busy worker while another worker is idle.
    worker.queue_prefetch = threads
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    worker.start()
    print(f"worker {app.broker.broker_id} (pid {os.getpid()}) ready: {threads} thread(s) on "
          f"{redacted(app.url)}, queues {', '.join(sorted(queues))}", file=sys.stderr, flush=True)
    stop.wait()
    print("worker stopping: finishing the tasks under way", file=sys.stderr, flush=True)
    worker.stop()
    return 0


def main(args: argparse.Namespace) -> int:
    from coursetools.service import queue

    return run(args.queue, max(1, args.threads), args.queues or [queue.CHECKS, queue.GRADING])


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--queue", help="the broker's URL (default: COURSE_BROKER_URL, else the local one of "
                                   "`make services-up`)")
    p.add_argument("--threads", type=int, default=1,
                   help="checks run at once by this worker (default 1; about one per two cores)")
    p.add_argument("--queues", nargs="*", choices=("checks", "grading"), help="only these queues (default: both)")
