"""No student can hold the workers, and waiting costs nothing: over real HTTP, a real worker, broker and database.

Students whose notebooks stall (a function that sleeps for ten minutes) each hold one worker thread, for the
self-check's budget at most, and get a plain 429 for a second check while the first is in flight; an honest
student's check meanwhile is answered in about the time it takes on an idle service. The stallers' requests give
up (504) while their checks go on; the answers come later, are read with the same token and recorded as answered.
While requests wait, the service holds one database connection for all of them.
"""

from __future__ import annotations

import json
import threading
import time

import psycopg
import pytest

from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission
from coursetools.service import records, tokens

from test_app import Server, post

STALL = PERFECT.replace("    return a + b\n", "    import time\n    time.sleep(600)\n    return a + b\n")


def backends(url: str) -> int:
    """Connections to the service's database other than this one."""
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                            "AND pid <> pg_backend_pid()").fetchone()[0]


def answered(server: Server, check_id: str, token: str, wait: float = 180) -> dict:
    """The answer of a check whose request gave up, read with its token (GET /check/ID) once it is there."""
    deadline = time.monotonic() + wait
    while (reply := post(f"{server.url}/check/{check_id}", None, token, "GET"))[0] == 202:
        assert time.monotonic() < deadline, f"check {check_id} was never answered"
        time.sleep(2)
    assert reply[0] == 200, reply
    return reply[1]


@pytest.mark.long
def test_stalling_students_hold_one_thread_each_and_an_honest_check_is_not_kept_waiting(services, start_worker,
                                                                                        tmp_path):
    from coursetools.service.services import DB_ENV

    course = make_toy_course(tmp_path / "course")
    try:
        perfect = toy_submission(course, "honest", PERFECT).read_bytes()
        stall = toy_submission(course, "staller", STALL).read_bytes()
        # a stalled cell is stopped at 3/4 of the budget less 5 s (40 s here), well after the request's 30 s
        start_worker(course, "--threads", "3",
                     env={"COURSE_SELFCHECK_BUDGET_S": "60", "COURSE_SELFCHECK_CELL_TIMEOUT": "60"})
        server = Server(course, {**services, records.LIMIT_ENV: "20"}, tmp_path / "serve.log", "--timeout", "30")
        run = time.time_ns()
        honest, stallers = f"honest-{run}", [f"stall{i}-{run}" for i in range(2)]
        issued = tokens.issue(LAB, [honest, *stallers])
        url = f"{server.url}/check/{LAB}"
        try:
            # the worker's first check of the lab builds its template gradebook: not what an idle check costs
            status, body, _ = post(url, perfect, issued[honest])
            if status == 504:
                answered(server, body["check_id"], issued[honest])
            t0 = time.monotonic()
            status, body, _ = post(url, perfect, issued[honest])
            idle = time.monotonic() - t0
            assert status == 200 and all(c["verdict"] == "passed" for c in body["cells"]), body

            replies: dict[str, tuple] = {}
            senders = [threading.Thread(target=lambda s=s: replies.__setitem__(s, post(url, stall, issued[s])))
                       for s in stallers]
            for t in senders:
                t.start()
            time.sleep(4)
            for s in stallers:  # a second check while the first is in flight: a plain 429
                status, body, _ = post(url, stall, issued[s])
                assert status == 429 and "still running" in body["error"] and body["check_id"], body
            # two requests wait: the service holds one connection (its listener) for both
            assert min(backends(services[DB_ENV]) for _ in range(4) if time.sleep(0.5) is None) <= 2
            t0 = time.monotonic()
            status, body, _ = post(url, perfect, issued[honest])
            busy = time.monotonic() - t0
            assert status == 200 and all(c["verdict"] == "passed" for c in body["cells"]), body
            assert busy < 2 * idle + 10, f"the honest check took {busy:.1f} s beside the stallers, {idle:.1f} s alone"
            for t in senders:
                t.join()
            for s in stallers:
                status, body, _ = replies[s]
                assert status == 504 and "its answer is kept" in body["error"], body
                check_id = body["check_id"]
                answer = answered(server, check_id, issued[s])
                assert answer["student"] == s and (answer["refused"] and "time" in answer["refused"] or all(
                    c["verdict"] == "failed" for c in answer["cells"])), answer  # stopped within its budget
                assert records.record_of(check_id, s)["answered_at"] is not None
            print(json.dumps({"honest_idle_s": round(idle, 1), "honest_beside_stallers_s": round(busy, 1)}))
        finally:
            server.stop()
    finally:
        remove_course(course)
