"""How the workers, the HTTP service and the tools reach the broker (Redis) and the database (PostgreSQL).

The addresses are URLs (``COURSE_BROKER_URL``, ``COURSE_SERVICE_DB``); TLS is part of them:
``rediss://course@HOST:PORT/0?ssl_ca_certs=/path/ca.pem`` (redis-py checks the certificate and the host name)
and ``postgresql://course@HOST:PORT/course?sslmode=verify-full&sslrootcert=/path/ca.pem``. A password is never
part of a command line: it comes from ``COURSE_BROKER_PASSWORD`` / ``COURSE_DB_PASSWORD`` in the environment, or
from the file named by ``COURSE_BROKER_PASSWORD_FILE`` / ``COURSE_DB_PASSWORD_FILE`` (its first line; the file
must belong to this user and be readable by nobody else). A URL written with its password still works, and every
URL a log or a message shows goes through `redacted`.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from urllib.parse import urlsplit

BROKER_PASSWORD_ENV, DB_PASSWORD_ENV = "COURSE_BROKER_PASSWORD", "COURSE_DB_PASSWORD"
#: The Redis user the services' TCP mode makes (an ACL user; the default user is switched off there).
BROKER_USER = "course"


class SettingError(RuntimeError):
    """A connection setting cannot be used; the message names the setting and the fix."""


def password(env: str) -> str | None:
    """The password the variable `env` gives, else the first line of the file `env`_FILE names, else None."""
    value = os.environ.get(env)
    if value:
        return value
    name = os.environ.get(f"{env}_FILE")
    if not name:
        return None
    path = Path(name)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise SettingError(f"{env}_FILE names {path}, which cannot be read ({exc.strerror})") from None
    with os.fdopen(fd) as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise SettingError(f"{env}_FILE names {path}, which is not a plain file")
        if info.st_uid != os.geteuid() or info.st_mode & 0o077:
            raise SettingError(f"{env}_FILE names {path}, which others can read or which is not yours: make it "
                               f"yours and `chmod 600 {path}`")
        first = f.readline().rstrip("\r\n")
    if not first:
        raise SettingError(f"{env}_FILE names {path}, whose first line is empty")
    return first


def redis_client(url: str, **kw):
    """A redis-py client for `url`, with the broker's password (`password`) unless the URL has one."""
    import redis

    secret = password(BROKER_PASSWORD_ENV)
    if secret and not urlsplit(url).password:
        kw.setdefault("password", secret)
    return redis.Redis.from_url(url, **kw)


def pg_connect(url: str, **kw):
    """A psycopg connection to `url`, with the database's password (`password`) unless one is given."""
    import psycopg

    secret = password(DB_PASSWORD_ENV)
    if secret:
        kw.setdefault("password", secret)
    return psycopg.connect(url, **kw)


def redacted(url: str) -> str:
    """`url` with any password (in its user part or as a ``password=`` parameter) replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password:
        userinfo = parts.netloc.rsplit("@", 1)[0]
        url = url.replace(f"{userinfo}@", f"{userinfo.split(':', 1)[0]}:***@", 1)
    return re.sub(r"(?i)([?&]password=)[^&]*", r"\1***", url)
