"""The self-check service's broker (Redis) and database (PostgreSQL) as local processes on Unix sockets.

``python -m coursetools services up|down|env`` (``make services-up``, ``make services-down``) starts and stops
them under ``build/services/`` (``COURSE_SERVICES_DIR``): Redis as the broker, PostgreSQL for the answers, the
check records and a gradebook. Neither listens on a network port. PostgreSQL refuses to run as root, so as root
(CI) it runs as its own user, ``postgres`` (``COURSE_PG_USER``), on a data folder that user owns; a folder that
user cannot reach (a clone under ``/root``) is replaced by a private one under ``/tmp`` whose name nobody can guess
(its name kept in ``build/services/pg-folder``).

`env` gives the URLs the workers, the HTTP service and the tests read: ``COURSE_BROKER_URL`` and
``COURSE_SERVICE_DB``. A production course points them at its own servers instead (docs/selfcheck.md).
"""

from __future__ import annotations

import argparse
import glob
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BROKER_ENV, DB_ENV, DIR_ENV, PG_USER_ENV = "COURSE_BROKER_URL", "COURSE_SERVICE_DB", "COURSE_SERVICES_DIR", "COURSE_PG_USER"
DATABASE, TEST_DATABASE = "course", "course_tests"
TEST_REDIS_DB = 1  # the tests' own Redis database and PostgreSQL database, emptied when a test session starts
SOCKET_PATH_MAX = 100  # a Unix socket's path must fit in 108 bytes, PostgreSQL's ".s.PGSQL.5432" included


class ServiceError(RuntimeError):
    """A service could not be installed, started or reached; the message says what to do."""


def services_dir(root: Path) -> Path:
    """Where the services keep their data, sockets and logs."""
    return Path(os.environ.get(DIR_ENV) or Path(root) / "build" / "services").resolve()


def pg_user() -> str | None:
    """The user PostgreSQL runs as: None (this user) unless this is root."""
    if os.geteuid() != 0:
        return None
    return os.environ.get(PG_USER_ENV, "postgres")


def _reachable_by(user: str | None, folder: Path) -> bool:
    """True when `user` can enter every folder down to `folder` (PostgreSQL changes into its data folder)."""
    if user is None:
        return True
    probe = folder
    while not probe.exists():
        probe = probe.parent
    return subprocess.run(["runuser", "-u", user, "--", "test", "-x", str(probe)], capture_output=True).returncode == 0


def pg_dir(root: Path) -> Path:
    """PostgreSQL's folder (its data and its socket): under `services_dir`, or, where its user cannot reach that (or
    its socket's path would be too long), a private folder under /tmp (`private_pg_dir`)."""
    here = services_dir(root) / "pg"
    if _reachable_by(pg_user(), here.parent) and len(str(here)) < SOCKET_PATH_MAX - 20:
        return here
    return private_pg_dir(services_dir(root) / "pg-folder", pg_user())


def private_pg_dir(record: Path, user: str | None) -> Path:
    """The folder named in the file `record`, or a new one made under the temporary folder with a name nobody can
    guess (``mkdtemp``: mode 0700, then given to `user`) and written into `record`. A folder named there that is
    not a plain folder of `user` (this user when None) closed to everyone else is refused (`ServiceError`): in a
    shared temporary folder, anyone may have made it first."""
    uid = pwd.getpwnam(user).pw_uid if user else os.geteuid()
    try:
        folder = Path(record.read_text().strip())
    except OSError:
        folder = None
    if folder is not None and os.path.lexists(folder):
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or st.st_mode & 0o077:
            raise ServiceError(f"{folder} (PostgreSQL's folder, named in {record}) is not a private folder of "
                               f"{user or 'this user'}: someone else may have made it; remove both to start afresh")
        return folder
    folder = Path(tempfile.mkdtemp(prefix="coursetools-pg-"))
    if user:
        shutil.chown(folder, user, user)
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(f"{folder}\n")
    return folder


def broker_url(root: Path, db: int = 0) -> str:
    """The Redis URL of the local broker (a Unix socket)."""
    return f"unix://{services_dir(root) / 'redis' / 'redis.sock'}?db={db}"


def database_url(root: Path, database: str = DATABASE) -> str:
    """The libpq URL of the local PostgreSQL database (a Unix socket; psycopg takes it as it is)."""
    user = pg_user() or pwd.getpwuid(os.geteuid()).pw_name
    return f"postgresql:///{database}?host={pg_dir(root)}&user={user}"


def env(root: Path) -> dict[str, str]:
    """The environment variables that point the workers, the service and the tests at the local services."""
    return {BROKER_ENV: broker_url(root), DB_ENV: database_url(root)}


def fresh_env(root: Path, redis_db: int, database: str) -> dict[str, str]:
    """Like `env`, on Redis database `redis_db` and PostgreSQL database `database`, both emptied first."""
    import redis

    redis.Redis.from_url(broker_url(root, redis_db)).flushdb()
    folder, user = pg_dir(root), pg_user() or pwd.getpwuid(os.geteuid()).pw_name
    psql = [_pg_bin("psql"), "-h", str(folder), "-U", user, "-d", DATABASE, "-q", "-c"]
    for statement in (f"DROP DATABASE IF EXISTS {database} WITH (FORCE)", f"CREATE DATABASE {database}"):
        proc = subprocess.run(psql + [statement], capture_output=True, text=True)
        if proc.returncode:
            raise ServiceError(f"could not make the database {database}: {proc.stderr.strip()}")
    return {BROKER_ENV: broker_url(root, redis_db), DB_ENV: database_url(root, database)}


def test_env(root: Path) -> dict[str, str]:
    """Like `env`, for the tests: a Redis database and a PostgreSQL database of their own, emptied first."""
    return fresh_env(root, TEST_REDIS_DB, TEST_DATABASE)


# --- finding the programs -----------------------------------------------------------------------------------

def _redis_server() -> str:
    path = shutil.which("redis-server")
    if not path:
        raise ServiceError("redis-server is missing: run `make services-deps` (as root it installs Debian's "
                           "redis-server; otherwise `sudo apt-get install -y redis-server`)")
    return path


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(Path(p).parts[4]))
    path = found[-1] if found else shutil.which(name)
    if not path:
        raise ServiceError(f"PostgreSQL's {name} is missing: run `make services-deps` (as root it installs Debian's "
                           "postgresql; otherwise `sudo apt-get install -y postgresql`)")
    return path


def _as_pg(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    user = pg_user()
    return subprocess.run((["runuser", "-u", user, "--"] if user else []) + cmd, capture_output=True, text=True, **kw)


# --- Redis --------------------------------------------------------------------------------------------------

def _redis_up(root: Path) -> None:
    folder = services_dir(root) / "redis"
    sock = folder / "redis.sock"
    if len(str(sock)) > SOCKET_PATH_MAX:
        raise ServiceError(f"the broker's socket path {sock} is too long for a Unix socket: set {DIR_ENV} to a "
                           "shorter folder")
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    if _redis_ping(sock):
        _private(folder)
        return
    conf = folder / "redis.conf"
    # No TCP port, the socket for this user only; the append-only file keeps queued checks across a restart, as
    # commands (no binary preamble), so what it holds can be read and checked (tests/service/test_queue.py).
    conf.write_text("\n".join([
        "port 0", f"unixsocket {sock}", "unixsocketperm 700", "daemonize yes", f"pidfile {folder / 'redis.pid'}",
        f"dir {folder}", f"logfile {folder / 'redis.log'}", 'save ""', "appendonly yes", "appendfsync everysec",
        "aof-use-rdb-preamble no",
        "protected-mode yes", ""]))
    _private(folder)  # what an older start left open (appendonlydir/ was made 0755 before Redis ran with umask 077)
    # umask 077: its append-only file (appendonlydir/, which holds the notebooks of queued checks) is its owner's only
    proc = subprocess.run([_redis_server(), str(conf)], capture_output=True, text=True, umask=0o077)
    if proc.returncode:
        raise ServiceError(f"redis-server did not start: {proc.stderr or proc.stdout}".strip())
    _wait(lambda: _redis_ping(sock), 20, f"redis-server did not answer on {sock} (log: {folder / 'redis.log'})")


def _private(folder: Path) -> None:
    """Close everything under `folder` to all but its owner (folders 0700, files 0600), links and sockets left be."""
    for path in folder.rglob("*"):
        if path.is_symlink() or not (path.is_dir() or path.is_file()):
            continue
        path.chmod(0o700 if path.is_dir() else 0o600)


def _redis_ping(sock: Path) -> bool:
    import socket

    if not sock.exists():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(2)
            s.connect(str(sock))
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _redis_down(root: Path) -> None:
    folder = services_dir(root) / "redis"
    _stop_pidfile(folder / "redis.pid")


# --- PostgreSQL ---------------------------------------------------------------------------------------------

def _pg_up(root: Path) -> None:
    folder, user = pg_dir(root), pg_user()
    data = folder / "data"
    if len(str(folder / ".s.PGSQL.5432")) > SOCKET_PATH_MAX:
        raise ServiceError(f"PostgreSQL's socket path under {folder} is too long for a Unix socket: set {DIR_ENV} "
                           "to a shorter folder")
    if user:
        try:
            pwd.getpwnam(user)
        except KeyError:
            raise ServiceError(f"there is no user {user!r} to run PostgreSQL as (it refuses to run as root): install "
                               f"Debian's postgresql (`make services-deps`), which adds it, or set {PG_USER_ENV}") from None
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    if user:
        shutil.chown(folder, user, user)
    if not (data / "PG_VERSION").is_file():
        proc = _as_pg([_pg_bin("initdb"), "-D", str(data), "--auth=trust", "--encoding=UTF8", "--no-instructions",
                       f"--username={user or pwd.getpwuid(os.geteuid()).pw_name}"])
        if proc.returncode:
            raise ServiceError(f"initdb failed in {data}:\n{proc.stdout}{proc.stderr}")
    if _pg_ready(folder):
        _create_database(folder)
        return
    # Only the Unix socket in its own 0700 folder (no TCP): trust there is as narrow as peer authentication.
    # Each check waiting for its answer holds a connection (LISTEN): room for a burst of a few hundred.
    options = f"-c listen_addresses='' -c unix_socket_directories='{folder}' -c fsync=on -c max_connections=400"
    proc = _as_pg([_pg_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "postgres.log"), "-o", options, "-w",
                   "-t", "60", "start"])
    if proc.returncode:
        log = folder / "postgres.log"
        tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
        raise ServiceError(f"PostgreSQL did not start:\n{proc.stdout}{proc.stderr}{tail}")
    _wait(lambda: _pg_ready(folder), 30, f"PostgreSQL did not answer on {folder}")
    _create_database(folder)


def _pg_ready(folder: Path) -> bool:
    if not (folder / ".s.PGSQL.5432").exists():
        return False
    return subprocess.run([_pg_bin("pg_isready"), "-q", "-h", str(folder)], capture_output=True).returncode == 0


def _create_database(folder: Path) -> None:
    user = pg_user() or pwd.getpwuid(os.geteuid()).pw_name
    psql = [_pg_bin("psql"), "-h", str(folder), "-U", user, "-d", "postgres", "-tAc"]
    found = subprocess.run(psql + [f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"],
                           capture_output=True, text=True)
    if found.stdout.strip() != "1":
        made = subprocess.run(psql + [f"CREATE DATABASE {DATABASE}"], capture_output=True, text=True)
        if made.returncode and "already exists" not in made.stderr:
            raise ServiceError(f"could not create the database {DATABASE}: {made.stderr.strip()}")


def _pg_down(root: Path) -> None:
    folder = pg_dir(root)
    if (folder / "data" / "postmaster.pid").is_file():
        _as_pg([_pg_bin("pg_ctl"), "-D", str(folder / "data"), "-m", "fast", "-w", "-t", "60", "stop"])


# --- both ---------------------------------------------------------------------------------------------------

def _wait(ready, seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise ServiceError(message)
        time.sleep(0.1)


def _stop_pidfile(pidfile: Path) -> None:
    try:
        pid = int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return
    try:
        os.kill(pid, 15)
    except ProcessLookupError:
        pidfile.unlink(missing_ok=True)
        return
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, 9)


def running(root: Path) -> bool:
    """True when both services answer."""
    return _redis_ping(services_dir(root) / "redis" / "redis.sock") and _pg_ready(pg_dir(root))


def up(root: Path) -> dict[str, str]:
    """Start both services (nothing is done for one already running); returns `env`."""
    _redis_up(root)
    _pg_up(root)
    return env(root)


def down(root: Path) -> None:
    """Stop both services; their data stays (``make clean`` removes it)."""
    _redis_down(root)
    _pg_down(root)


def main(argv: list[str] | None = None) -> int:
    """``python -m coursetools services up|down|env``."""
    from coursetools import course_root

    p = argparse.ArgumentParser(prog="coursetools services", description=__doc__.split("\n\n")[0])
    p.add_argument("action", choices=("up", "down", "env"))
    args = p.parse_args(argv)
    root = course_root()
    try:
        if args.action == "up":
            values = up(root)
            print(f"broker and database up under {services_dir(root)}; to use them:")
        elif args.action == "down":
            down(root)
            print(f"broker and database stopped (their data stays in {services_dir(root)})")
            return 0
        else:
            values = env(root)
        for key, value in values.items():
            print(f"export {key}='{value}'")
    except ServiceError as exc:
        print(f"coursetools services {args.action}: {exc}", file=sys.stderr)
        return 2
    return 0
