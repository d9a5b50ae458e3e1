"""The course server the tests of this folder share: `coursetools server` (what `make server` runs) on a free port of
127.0.0.1 with real accounts (hubteach, hubann, hubbob; removed after), started once a session."""

from __future__ import annotations

import csv
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import pytest
from hubtools import ANN, BOB, ROOT, TEACHER, Hub

from coursetools.hub.server import remove_accounts


@pytest.fixture(scope="session")
def hub():
    folder = ROOT / "build" / f"hub-test-{os.getpid()}"
    remove_accounts([TEACHER, ANN, BOB])  # left by a killed run
    log = ROOT / "build" / f"hub-test-{os.getpid()}.log"
    proc = subprocess.Popen([sys.executable, "-m", "coursetools", "server", "--dir", str(folder), "--teacher", TEACHER,
                             "--students", ANN, BOB], cwd=ROOT, stdout=open(log, "w"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 1200  # a fresh clone builds both environments first (a few minutes)
        while "course server ready" not in log.read_text() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(1)
        text = log.read_text()
        assert "course server ready" in text, text[-3000:]
        url = re.search(r"course server ready: (http://127\.0\.0\.1:\d+)/", text).group(1)
        with open(folder / "hub" / "accounts.csv") as f:
            passwords = {row["account"]: row["password"] for row in csv.DictReader(f)}
        yield Hub(folder, url, passwords)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(120)
        remove_accounts([TEACHER, ANN, BOB])
        shutil.rmtree(folder, ignore_errors=True)
        log.unlink(missing_ok=True)
