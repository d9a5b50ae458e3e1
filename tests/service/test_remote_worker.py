"""Workers on a second machine: the broker and the database over TCP with TLS and passwords, a worker in a network
namespace with a course folder of its own, taking self-checks and class grading, and the first host's worker taking
over the check of a remote worker SIGKILLed in the middle of it (answered once).

The second host is a network namespace the test makes, joined to this one by a veth pair on link-local addresses
(169.254.77.1/30 here, .2/30 there); nothing else is routed. The services run in a folder of their own
(``services up --tcp``), not the shared ones of ``make services-up``.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import psycopg
import pytest
import redis

from coursetools.quality.processes import environ_set, free_port
from coursetools.quality.toycourse import LAB, PERFECT, make_toy_course, remove_course, toy_submission
from coursetools.service import answers, queue
from coursetools.service import services as svc
from coursetools.service.connections import BROKER_PASSWORD_ENV, DB_PASSWORD_ENV

ROOT = Path(__file__).resolve().parents[2]
HOST_IP, PEER_IP = "169.254.77.1", "169.254.77.2"
HEARTBEAT_MS = "5000"  # a dead worker's messages come back after 5 s without a heartbeat (production: 15 s)
NAPPING = PERFECT.replace("    return a * b\n", "    import time\n    time.sleep(8)\n    return a * b\n")
HALF = PERFECT.replace("    return a * b\n", "    return a + b\n")


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


@pytest.fixture
def second_host():
    """A network namespace joined to this host by a veth pair (169.254.77.1/30 here, .2/30 there); removed after."""
    if os.geteuid() != 0 or not shutil.which("ip"):
        pytest.skip("making a network namespace needs root and iproute2")
    tag = f"rmt{os.getpid() % 100000}"
    ns, here, there = tag, f"{tag}h", f"{tag}p"
    try:
        _ip("netns", "add", ns)
        _ip("link", "add", here, "type", "veth", "peer", "name", there)
        _ip("link", "set", there, "netns", ns)
        _ip("addr", "add", f"{HOST_IP}/30", "dev", here)
        _ip("link", "set", here, "up")
        _ip("-n", ns, "addr", "add", f"{PEER_IP}/30", "dev", there)
        _ip("-n", ns, "link", "set", there, "up")
        _ip("-n", ns, "link", "set", "lo", "up")  # the kernels' own ports on the second host
        yield ns
    finally:
        _ip("link", "del", here, check=False)
        _ip("netns", "del", ns, check=False)


def _tls_files(folder: Path) -> dict[str, Path]:
    """A CA and a certificate for HOST_IP signed by it (openssl), as a department's CA would issue."""
    folder.mkdir(parents=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run = lambda *a: subprocess.run(["openssl", *a], cwd=folder, capture_output=True, check=True)  # noqa: E731
    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=course test CA")
    run("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", f"/CN={HOST_IP}")
    (folder / "san.ext").write_text(f"subjectAltName=IP:{HOST_IP}\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.crt", "-days", "2", "-extfile", "san.ext")
    return {"cert": folder / "server.crt", "key": folder / "server.key", "ca": folder / "ca.pem"}


def _secret_file(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text + "\n")
    return path


@pytest.fixture
def tcp_services(tmp_path, second_host):
    """Redis and PostgreSQL of their own on HOST_IP with TLS and passwords; the URLs and password files for the
    first host (set in this process's environment) and for the second host (its own copies)."""
    import secrets

    tls = _tls_files(tmp_path / "tls")
    words = {"broker": secrets.token_urlsafe(24), "db": secrets.token_urlsafe(24)}
    folder = Path(tempfile.mkdtemp(prefix="rmt-", dir="/tmp"))  # short: Unix socket paths must fit
    host = {f"{BROKER_PASSWORD_ENV}_FILE": str(_secret_file(tmp_path / "host" / "broker.pw", words["broker"])),
            f"{DB_PASSWORD_ENV}_FILE": str(_secret_file(tmp_path / "host" / "db.pw", words["db"])),
            svc.DIR_ENV: str(folder), "COURSE_WORKER_HEARTBEAT_MS": HEARTBEAT_MS}
    tcp = svc.Tcp(HOST_IP, free_port(), free_port(), str(tls["cert"]), str(tls["key"]), str(tls["ca"]))
    with environ_set(host):
        try:
            host.update(svc.up(ROOT, tcp))
            remote_ca = tmp_path / "remote" / "etc" / "ca.pem"
            remote_ca.parent.mkdir(parents=True)
            shutil.copy(tls["ca"], remote_ca)
            remote = {
                f"{BROKER_PASSWORD_ENV}_FILE": str(_secret_file(tmp_path / "remote" / "etc" / "broker.pw", words["broker"])),
                f"{DB_PASSWORD_ENV}_FILE": str(_secret_file(tmp_path / "remote" / "etc" / "db.pw", words["db"])),
                svc.BROKER_ENV: host[svc.BROKER_ENV].replace(str(tls["ca"]), str(remote_ca)),
                svc.DB_ENV: host[svc.DB_ENV].replace(str(tls["ca"]), str(remote_ca)),
                "COURSE_WORKER_HEARTBEAT_MS": HEARTBEAT_MS}
            with environ_set(host):
                queue.app.cache_clear()
                yield {"host": host, "remote": remote, "tcp": tcp, "words": words, "folder": folder, "ns": second_host}
        finally:
            queue.app.cache_clear()
            svc.down(ROOT)
            shutil.rmtree(svc.pg_dir(ROOT), ignore_errors=True)
            shutil.rmtree(folder, ignore_errors=True)


def _refused(connect) -> str:
    try:
        connect()
    except (redis.RedisError, psycopg.Error) as exc:
        return str(exc)
    raise AssertionError("a connection that should be refused was let in")


def _check_the_doors(s: dict) -> None:
    """Only TLS with the right password gets in; nothing listens elsewhere; no password in a command line or file."""
    tcp, ca = s["tcp"], s["tcp"].ca
    redis_at, pg_at = f"{HOST_IP}:{tcp.redis_port}", f"host={HOST_IP} port={tcp.pg_port} dbname=course user=course"
    assert "authenticated" in _refused(lambda: redis.Redis.from_url(f"rediss://{redis_at}/0?ssl_ca_certs={ca}").ping())
    assert "invalid username-password" in _refused(lambda: redis.Redis.from_url(f"rediss://course:nope@{redis_at}/0?ssl_ca_certs={ca}",
                                                               ).ping())
    _refused(lambda: redis.Redis.from_url(f"redis://course@{redis_at}/0", password=s["words"]["broker"],
                                          socket_timeout=5).ping())  # plain TCP: no answer
    assert "certificate verify failed" in _refused(  # a server the clients' CA did not sign is not trusted
        lambda: redis.Redis.from_url(f"rediss://course@{redis_at}/0", password=s["words"]["broker"]).ping())
    assert "no pg_hba.conf entry" in _refused(lambda: psycopg.connect(f"{pg_at} sslmode=disable",
                                                                      password=s["words"]["db"], connect_timeout=10))
    assert "password authentication failed" in _refused(lambda: psycopg.connect(
        f"{pg_at} sslmode=verify-full sslrootcert={ca}", password="nope", connect_timeout=10))
    redis_pid = int((s["folder"] / "redis" / "redis.pid").read_text())
    pg_pid = int((svc.pg_dir(ROOT) / "data" / "postmaster.pid").read_text().split()[0])
    for pid, port in ((redis_pid, tcp.redis_port), (pg_pid, tcp.pg_port)):
        listening = {(c.laddr.ip, c.laddr.port) for c in psutil.Process(pid).net_connections(kind="inet")
                     if c.status == psutil.CONN_LISTEN}
        assert listening == {(HOST_IP, port)}, listening
    words = tuple(s["words"].values())
    for proc in psutil.process_iter(["cmdline"]):
        assert not any(w in " ".join(proc.info["cmdline"] or ()) for w in words), proc
    pg = svc.pg_dir(ROOT)
    for path in (*s["folder"].rglob("*"), *pg.glob("*"), *(pg / "data").glob("*.conf"), *(pg / "data").glob("log/*")):
        if path.is_file():
            assert not any(w.encode() in path.read_bytes() for w in words), f"a password in {path}"
    assert not stat.S_IMODE((s["folder"] / "redis" / "redis.conf").stat().st_mode) & 0o077


def _nbgrader_running(pid: int) -> bool:
    for p in psutil.Process(pid).children(recursive=True):
        try:
            if "autograde" in " ".join(p.cmdline()):
                return True
        except psutil.Error:
            pass
    return False


@pytest.mark.long
@pytest.mark.slow
def test_a_worker_on_a_second_host_checks_and_grades_and_its_check_is_taken_over_when_it_dies(tmp_path, tcp_services,
                                                                                               spawn_worker):
    s = tcp_services
    _check_the_doors(s)
    host_course = make_toy_course(tmp_path / "host" / "course")
    from coursetools import tool_env
    from coursetools.grading.scratch import template_gradebook

    with environ_set({"PATH": tool_env()["PATH"]}):
        template_gradebook(host_course, LAB)
        notebook = toy_submission(host_course, "nap", NAPPING).read_bytes()
    shutil.rmtree(host_course / "submitted")
    remote_course = tmp_path / "remote" / "course"  # the second host's own copy: nothing shared with the first
    shutil.copytree(host_course, remote_course, symlinks=True)
    for student, answers_text in (("ada", PERFECT), ("ben", HALF)):
        toy_submission(host_course, student, answers_text, timestamp="2026-03-02 12:00:00.000000 UTC")
    netns = ("ip", "netns", "exec", s["ns"])
    try:
        remote = spawn_worker(remote_course, "--threads", "1", env=s["remote"], prefix=netns)
        assert f"rediss://course@{HOST_IP}:{s['tcp'].redis_port}/0" in remote.log()
        # a self-check from the first host, taken by the second; killed in the middle of nbgrader
        check_id = f"remote-{time.time_ns()}"
        queue.submit_check(check_id, LAB, "nap", notebook)
        assert remote.wait_for(f"check {check_id} started", 120), remote.log()
        deadline = time.monotonic() + 120
        while not _nbgrader_running(remote.proc.pid):
            assert time.monotonic() < deadline, f"the remote worker never started nbgrader:\n{remote.log()}"
            time.sleep(0.2)
        time.sleep(2)
        remote.proc.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        remote.proc.wait()
        assert answers.get_answer(check_id) is None
        local = spawn_worker(host_course, "--threads", "1", env=s["host"])
        assert local.wait_for(f"check {check_id} started", 90), f"the first host never took the check:\n{local.log()}"
        taken = time.monotonic() - killed
        answer = answers.wait_answer(check_id, 240)
        assert answer is not None, local.log()
        assert answer["refused"] is None and all(c["points"] == c["max_points"] for c in answer["cells"]), answer
        with psycopg.connect(s["host"][svc.DB_ENV], password=s["words"]["db"]) as conn:
            rows = conn.execute("SELECT count(*) FROM selfcheck_answers WHERE check_id = %s", (check_id,)).fetchone()
        assert rows == (1,)
        assert local.wait_for(f"check {check_id} answered", 30)  # logged just after the answer is stored
        assert local.log().count(f"check {check_id} answered") == 1
        assert f"check {check_id} answered" not in remote.log()
        local.stop()

        # class grading of the first host's class, on the second host's worker alone
        remote = spawn_worker(remote_course, "--threads", "1", env=s["remote"], prefix=netns)
        proc = subprocess.run([sys.executable, "-m", "coursetools", "grade", LAB, "--queue", s["host"][svc.BROKER_ENV]],
                              cwd=host_course, capture_output=True, text=True, timeout=900,
                              env=tool_env(**s["host"]))
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert f"{LAB}: 2 graded, 0 already up to date, 0 not graded" in proc.stdout, proc.stdout
        assert "ada: 5/5" in proc.stdout and "ben: 3/5" in proc.stdout, proc.stdout
        for student in ("ada", "ben"):
            assert f"grading {LAB}/{student} started" in remote.log()
            assert (host_course / "autograded" / student / LAB / f"{LAB}.ipynb").is_file()
        assert not (remote_course / "submitted").exists() and not (remote_course / "autograded").exists()
        for log in tmp_path.glob("worker-*.log"):
            assert not any(w in log.read_text() for w in s["words"].values()), f"a password in {log.name}"
        print(f"the first host took the killed remote worker's check {taken:.1f} s after the SIGKILL")
    finally:
        remove_course(host_course)
        remove_course(remote_course)
