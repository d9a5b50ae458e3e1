"""The self-check service's broker (Redis) and database (PostgreSQL) as local processes on Unix sockets.

``python -m coursetools services up|down|env`` (``make services-up``, ``make services-down``) starts and stops
them under ``build/services/`` (``COURSE_SERVICES_DIR``): Redis as the broker, PostgreSQL for the answers, the
check records and a gradebook. Neither listens on a network port. PostgreSQL refuses to run as root, so as root
(CI) it runs as its own user, ``postgres`` (``COURSE_PG_USER``), on a data folder that user owns; a folder that
user cannot reach (a clone under ``/root``) is replaced by a private one under ``/tmp`` whose name nobody can guess
(its name kept in ``build/services/pg-folder``).

`env` gives the URLs the workers, the HTTP service and the tests read: ``COURSE_BROKER_URL`` and
``COURSE_SERVICE_DB``. A production course points them at its own servers instead (docs/selfcheck.md).

``up --tcp ADDRESS`` (`Tcp`) also opens both to workers on other machines: Redis on ``--redis-port`` with TLS only
and an ACL user ``course`` (the default user off), PostgreSQL on ``--pg-port`` with TLS only (``hostssl``) and a
role ``course`` checked by SCRAM-SHA-256, from the clients in ``--allow`` only. The passwords come from the same
settings the clients read (`connections.password`); only their hashes reach the servers' files. The settings are
kept in ``tcp.json`` for ``env`` and ``down``.
"""

from __future__ import annotations

import argparse
import base64
import glob
import hashlib
import hmac
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from coursetools import write_private
from coursetools.service.connections import (BROKER_PASSWORD_ENV, BROKER_USER, DB_PASSWORD_ENV, SettingError,
                                             password)

BROKER_ENV, DB_ENV, DIR_ENV, PG_USER_ENV = "COURSE_BROKER_URL", "COURSE_SERVICE_DB", "COURSE_SERVICES_DIR", "COURSE_PG_USER"
DATABASE, TEST_DATABASE = "course", "course_tests"
TEST_REDIS_DB = 1  # the tests' own Redis database and PostgreSQL database, emptied when a test session starts
SOCKET_PATH_MAX = 100  # a Unix socket's path must fit in 108 bytes, PostgreSQL's ".s.PGSQL.5432" included


#: The PostgreSQL role the TCP mode makes for the workers and the service (it owns the course's database).
DB_ROLE = "course"
PG_PORT = 5432


class ServiceError(RuntimeError):
    """A service could not be installed, started or reached; the message says what to do."""


@dataclass(frozen=True)
class Tcp:
    """The services' TCP mode: where they listen, who may connect, and the TLS files (PEM)."""
    address: str  # the one address both listen on (a private network's, never 0.0.0.0 by accident)
    redis_port: int
    pg_port: int
    cert: str  # the servers' certificate; its names must include `address`
    key: str
    ca: str  # the CA that signed it, handed to every client
    allow: str = "samenet"  # who PostgreSQL lets in (pg_hba.conf: an address/bits or samenet)


def _tcp_file(root: Path) -> Path:
    return services_dir(root) / "tcp.json"


def tcp_settings(root: Path) -> Tcp | None:
    """The TCP settings the services were started with, or None (Unix sockets only)."""
    try:
        return Tcp(**json.loads(_tcp_file(root).read_text()))
    except FileNotFoundError:
        return None


def _pg_port(root: Path) -> int:
    tcp = tcp_settings(root)
    return tcp.pg_port if tcp else PG_PORT


def _secrets() -> tuple[str, str]:
    """Both passwords of the TCP mode, from the clients' own settings; a clear error when one is missing."""
    try:
        broker, db = password(BROKER_PASSWORD_ENV), password(DB_PASSWORD_ENV)
    except SettingError as exc:
        raise ServiceError(str(exc)) from None
    missing = [env for env, value in ((BROKER_PASSWORD_ENV, broker), (DB_PASSWORD_ENV, db)) if not value]
    if missing:
        raise ServiceError("the TCP mode needs a password for each service: set " + " and ".join(
            f"{env}_FILE (a file only you can read) or {env}" for env in missing))
    return broker, db


def scram_verifier(secret: str, salt: bytes | None = None, iterations: int = 4096) -> str:
    """PostgreSQL's SCRAM-SHA-256 verifier of `secret` (RFC 5802/7677), so the password itself never reaches it."""
    salt = salt or os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, iterations)
    stored = hashlib.sha256(hmac.new(salted, b"Client Key", "sha256").digest()).digest()
    server = hmac.new(salted, b"Server Key", "sha256").digest()
    b64 = lambda b: base64.b64encode(b).decode()  # noqa: E731
    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored)}:{b64(server)}"


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
    """The Redis URL of the local broker: its Unix socket, or in the TCP mode its TLS port (no password in it)."""
    tcp = tcp_settings(root)
    if tcp:
        return f"rediss://{BROKER_USER}@{tcp.address}:{tcp.redis_port}/{db}?ssl_ca_certs={tcp.ca}"
    return f"unix://{services_dir(root) / 'redis' / 'redis.sock'}?db={db}"


def database_url(root: Path, database: str = DATABASE) -> str:
    """The libpq URL of the local PostgreSQL database: its Unix socket, or in the TCP mode its address with TLS
    checked against the CA (``verify-full``; no password in it)."""
    tcp = tcp_settings(root)
    if tcp:
        return (f"postgresql://{DB_ROLE}@{tcp.address}:{tcp.pg_port}/{database}?sslmode=verify-full"
                f"&sslrootcert={tcp.ca}")
    user = pg_user() or pwd.getpwuid(os.geteuid()).pw_name
    return f"postgresql:///{database}?host={pg_dir(root)}&user={user}"


def env(root: Path) -> dict[str, str]:
    """The environment variables that point the workers, the service and the tests at the local services."""
    return {BROKER_ENV: broker_url(root), DB_ENV: database_url(root)}


def fresh_env(root: Path, redis_db: int, database: str) -> dict[str, str]:
    """Like `env`, on Redis database `redis_db` and PostgreSQL database `database`, both emptied first."""
    from coursetools.service.connections import redis_client

    redis_client(broker_url(root, redis_db)).flushdb()
    folder, user = pg_dir(root), pg_user() or pwd.getpwuid(os.geteuid()).pw_name
    psql = [_pg_bin("psql"), "-h", str(folder), "-p", str(_pg_port(root)), "-U", user, "-d", DATABASE, "-q", "-c"]
    owner = f" OWNER {DB_ROLE}" if tcp_settings(root) else ""
    for statement in (f"DROP DATABASE IF EXISTS {database} WITH (FORCE)", f"CREATE DATABASE {database}{owner}"):
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

def _redis_up(root: Path, tcp: Tcp | None) -> None:
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
    # No plain TCP port, the socket for this user only; the append-only file keeps queued checks across a restart, as
    # commands (no binary preamble), so what it holds can be read and checked (tests/service/test_queue.py).
    lines = ["port 0", f"unixsocket {sock}", "unixsocketperm 700", "daemonize yes", f"pidfile {folder / 'redis.pid'}",
             f"dir {folder}", f"logfile {folder / 'redis.log'}", 'save ""', "appendonly yes", "appendfsync everysec",
             "aof-use-rdb-preamble no", "protected-mode yes"]
    if tcp:  # TLS only, one ACL user known by its password's SHA-256, the password-less default user off
        digest = hashlib.sha256(_secrets()[0].encode()).hexdigest()
        lines += [f"bind {tcp.address}", f"tls-port {tcp.redis_port}", f"tls-cert-file {tcp.cert}",
                  f"tls-key-file {tcp.key}", f"tls-ca-cert-file {tcp.ca}", "tls-auth-clients no",
                  "user default off", f"user {BROKER_USER} on #{digest} ~* &* +@all"]
    write_private(conf, "\n".join(lines) + "\n")
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
            return s.recv(16).startswith((b"+PONG", b"-NOAUTH"))  # a Redis answers (the TCP mode wants a login)
    except OSError:
        return False


def _redis_down(root: Path) -> None:
    folder = services_dir(root) / "redis"
    _stop_pidfile(folder / "redis.pid")


# --- PostgreSQL ---------------------------------------------------------------------------------------------

def _pg_up(root: Path, tcp: Tcp | None) -> None:
    folder, user, port = pg_dir(root), pg_user(), _pg_port(root)
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
    if _pg_ready(folder, port):
        _create_database(folder, port, tcp)
        return
    # The Unix socket in its own 0700 folder: trust there is as narrow as peer authentication. In the TCP mode,
    # TLS only (hostssl) and SCRAM-SHA-256 for the clients in `allow`; no other line lets anyone in.
    hba = ["local all all trust"] + ([f"hostssl all all {tcp.allow} scram-sha-256"] if tcp else [])
    _write_as_pg(data / "pg_hba.conf", "\n".join(hba) + "\n", user)
    # Each check waiting for its answer holds a connection (LISTEN): room for a burst of a few hundred.
    options = (f"-c listen_addresses='{tcp.address if tcp else ''}' -c port={port} "
               f"-c unix_socket_directories='{folder}' -c fsync=on -c max_connections=400")
    if tcp:  # PostgreSQL wants its key owned by itself and private: copies in its own folder
        _write_as_pg(folder / "server.crt", Path(tcp.cert).read_text(), user)
        _write_as_pg(folder / "server.key", Path(tcp.key).read_text(), user)
        options += (f" -c ssl=on -c ssl_cert_file='{folder / 'server.crt'}' -c ssl_key_file='{folder / 'server.key'}'"
                    " -c password_encryption=scram-sha-256")
    proc = _as_pg([_pg_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "postgres.log"), "-o", options, "-w",
                   "-t", "60", "start"])
    if proc.returncode:
        log = folder / "postgres.log"
        tail = log.read_text(errors="replace")[-2000:] if log.is_file() else ""
        raise ServiceError(f"PostgreSQL did not start:\n{proc.stdout}{proc.stderr}{tail}")
    _wait(lambda: _pg_ready(folder, port), 30, f"PostgreSQL did not answer on {folder}")
    _create_database(folder, port, tcp)


def _write_as_pg(path: Path, text: str, user: str | None) -> None:
    """Write `path` readable by PostgreSQL's user only."""
    write_private(path, text)
    if user:
        shutil.chown(path, user, user)


def _pg_ready(folder: Path, port: int = PG_PORT) -> bool:
    if not (folder / f".s.PGSQL.{port}").exists():
        return False
    return subprocess.run([_pg_bin("pg_isready"), "-q", "-h", str(folder), "-p", str(port)],
                          capture_output=True).returncode == 0


def _create_database(folder: Path, port: int, tcp: Tcp | None) -> None:
    user = pg_user() or pwd.getpwuid(os.geteuid()).pw_name
    psql = [_pg_bin("psql"), "-h", str(folder), "-p", str(port), "-U", user, "-d", "postgres", "-tAc"]
    if tcp:  # the workers' role, known by its SCRAM verifier only (sent on psql's input, never its command line)
        verifier = scram_verifier(_secrets()[1])
        sql = (f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{DB_ROLE}') THEN "
               f"CREATE ROLE {DB_ROLE} LOGIN; END IF; END $$;\n"
               f"ALTER ROLE {DB_ROLE} PASSWORD '{verifier}';\n")
        made = subprocess.run(psql[:-1] + ["-q", "-v", "ON_ERROR_STOP=1"], input=sql, capture_output=True, text=True)
        if made.returncode:
            raise ServiceError(f"could not make the role {DB_ROLE}: {made.stderr.strip()}")
    found = subprocess.run(psql + [f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"],
                           capture_output=True, text=True)
    if found.stdout.strip() != "1":
        made = subprocess.run(psql + [f"CREATE DATABASE {DATABASE}"], capture_output=True, text=True)
        if made.returncode and "already exists" not in made.stderr:
            raise ServiceError(f"could not create the database {DATABASE}: {made.stderr.strip()}")
    if tcp:
        subprocess.run(psql + [f"ALTER DATABASE {DATABASE} OWNER TO {DB_ROLE}"], capture_output=True, text=True)


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
    return _redis_ping(services_dir(root) / "redis" / "redis.sock") and _pg_ready(pg_dir(root), _pg_port(root))


def up(root: Path, tcp: Tcp | None = None) -> dict[str, str]:
    """Start both services (nothing is done for one already running), on TCP too with `tcp`; returns `env`."""
    if tcp:
        for name in ("cert", "key", "ca"):
            if not Path(getattr(tcp, name)).is_file():
                raise ServiceError(f"the TLS {name} file {getattr(tcp, name)} is missing")
        _secrets()
        if running(root) and tcp_settings(root) != tcp:
            raise ServiceError("the services are running with other settings (`services env` shows them): stop them "
                               "first with `python -m coursetools services down`")
        services_dir(root).mkdir(parents=True, exist_ok=True)
        write_private(_tcp_file(root), json.dumps(asdict(tcp)))
    elif tcp_settings(root) and not running(root):
        _tcp_file(root).unlink()  # started on sockets only this time
    _redis_up(root, tcp)
    _pg_up(root, tcp)
    return env(root)


def down(root: Path) -> None:
    """Stop both services; their data stays (``make clean`` removes it)."""
    _redis_down(root)
    _pg_down(root)


def main(argv: list[str] | None = None) -> int:
    """``python -m coursetools services up|down|env``."""
    from coursetools import course_root

    p = argparse.ArgumentParser(prog="coursetools services", description=__doc__.split("\n\n")[0])
    add_arguments(p)
    args = p.parse_args(argv)
    root = course_root()
    try:
        if args.action == "up":
            values = up(root, _tcp_from(args, p))
            print(f"broker and database up under {services_dir(root)}; to use them:")
        elif args.action == "down":
            down(root)
            print(f"broker and database stopped (their data stays in {services_dir(root)})")
            return 0
        else:
            values = env(root)
        for key, value in values.items():
            print(f"export {key}='{value}'")
        if tcp_settings(root):
            print(f"# and the passwords: {BROKER_PASSWORD_ENV}_FILE and {DB_PASSWORD_ENV}_FILE (files only the "
                  "worker's user can read), as for `up`")
    except ServiceError as exc:
        print(f"coursetools services {args.action}: {exc}", file=sys.stderr)
        return 2
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("up", "down", "env"))
    g = p.add_argument_group("TCP mode (workers on other machines); passwords from COURSE_BROKER_PASSWORD_FILE and "
                             "COURSE_DB_PASSWORD_FILE (or COURSE_BROKER_PASSWORD, COURSE_DB_PASSWORD)")
    g.add_argument("--tcp", metavar="ADDRESS", help="also listen on this address, with TLS and passwords")
    g.add_argument("--redis-port", type=int, default=6379)
    g.add_argument("--pg-port", type=int, default=PG_PORT)
    g.add_argument("--tls-cert", help="the servers' certificate (PEM; its names include ADDRESS)")
    g.add_argument("--tls-key", help="its private key (PEM)")
    g.add_argument("--tls-ca", help="the CA certificate the clients check it with (PEM)")
    g.add_argument("--allow", default="samenet", help="the clients PostgreSQL lets in: ADDRESS/BITS (default: samenet)")


def _tcp_from(args: argparse.Namespace, p: argparse.ArgumentParser) -> Tcp | None:
    if not args.tcp:
        return None
    missing = [f"--tls-{n}" for n in ("cert", "key", "ca") if not getattr(args, f"tls_{n}")]
    if missing:
        p.error(f"--tcp needs {', '.join(missing)}: the services take no password over plain TCP")
    return Tcp(args.tcp, args.redis_port, args.pg_port, str(Path(args.tls_cert).resolve()),
               str(Path(args.tls_key).resolve()), str(Path(args.tls_ca).resolve()), args.allow)
