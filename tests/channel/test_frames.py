"""A malformed frame from the kernel fails its check with a flag and never escapes the checker (a real second process
plays the kernel: it runs the hidden cell's code after a student's `add` that writes a bad frame on the channel)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from coursetools.channel import wire
from coursetools.grading import checker

STUDENT = """
import gc, os, sys
def add(a, b):
    if sys._getframe(1).f_code.co_filename == '<grader channel>':
        peer = next(o for o in gc.get_objects() if type(o).__name__ == 'KernelPeer')
        peer.sock.sendall({frame})
        {after}
    return a + b
"""
OUT_OF_ORDER = b'{"op":"ok","re":-7,"value":1}'
FRAMES = {  # kind: (the bytes the kernel writes (or their expression), what it does next, words of the flag)
    "too deep": ("(200000).to_bytes(4, 'big') + b'[' * 100000 + b']' * 100000", "", "nested too deeply"),
    "too big": ((wire.MAX_FRAME + 1).to_bytes(4, "big") + b"[" * 1000, "", "the limit is"),
    "not an object": ((5).to_bytes(4, "big") + b"[1,2]", "", "not an object"),
    "out of order": (len(OUT_OF_ORDER).to_bytes(4, "big") + OUT_OF_ORDER, "", "not asked"),
    "cut short": ((1000).to_bytes(4, "big") + b"[[[[", "os._exit(0)", "cut short"),
}


@pytest.mark.parametrize("kind", sorted(FRAMES))
def test_frames_a_malformed_frame_fails_the_check_with_a_flag(kind):
    frame, after, words = FRAMES[kind]
    run = checker.HiddenRun(checker.CheckCall("toy", "add", {"add": "add"}), "/tmp", time_limit=20)
    code = STUDENT.format(frame=frame if isinstance(frame, str) else repr(frame), after=after)
    proc = subprocess.Popen([sys.executable, "-c", code + "\n" + run.code()],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        verdict = run.run(kernel_alive=lambda: proc.poll() is None)
    finally:
        proc.kill()
        proc.wait()
    assert not verdict.passed, verdict.message
    assert "could not finish" in verdict.message, verdict.message
    assert any(words in e for e in verdict.events), verdict.events


def test_frames_the_cap_fits_what_checks_send():
    """Far below the 64 MiB it was: the largest frame of a check over the labs' solutions is 1.5 MB (lab 02)."""
    assert wire.MAX_FRAME <= 16 * 1024 * 1024
