"""The hidden checks' time limit counts processor time (here and in the kernel), with a wall-clock backstop."""

import subprocess
import sys
import time

import pytest

from coursetools.hidden import CheckTimeout, cpu_seconds, time_limit


def _stopped_after(body, **limit) -> float:
    """Seconds until `body`, run under `time_limit(**limit)`, is interrupted."""
    t0 = time.monotonic()
    with pytest.raises(CheckTimeout):
        with time_limit(**limit):
            body()
    return time.monotonic() - t0


def busy() -> None:
    while True:
        pass


def asleep() -> None:
    while True:
        time.sleep(0.05)


def test_a_busy_loop_stops_after_its_processor_seconds():
    before = cpu_seconds()
    took = _stopped_after(busy, seconds=0.5, wall=30)
    used = cpu_seconds() - before
    assert 0.5 <= used < 1.0 and took < 30  # stopped by the processor budget, long before the backstop


def test_a_sleeping_loop_uses_no_processor_time_and_stops_at_the_wall_clock_backstop():
    took = _stopped_after(asleep, seconds=0.5, wall=1.5)
    assert 1.4 < took < 3.0  # not at 0.5 s: sleeping used no processor time


def test_the_processor_time_of_the_served_process_counts():
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.2)
        took = _stopped_after(asleep, seconds=0.5, others=[child.pid], wall=20)
        assert took < 10, "the child's busy loop must use up the budget long before the 20 s backstop"
        assert cpu_seconds(child.pid) >= 0.5
    finally:
        child.kill()
        child.wait()
    assert cpu_seconds(child.pid) is None  # reaped: nothing left to read


def test_a_group_that_finishes_in_time_is_not_interrupted():
    with time_limit(seconds=5):
        total = sum(range(200_000))
    assert total == 199_999 * 200_000 // 2
