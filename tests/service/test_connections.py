"""The settings that reach the broker and the database: passwords from the environment or a private file (never a
command line), URLs shown without them, and the services' TCP mode refusing to start without TLS."""

from __future__ import annotations

import os

import pytest

from coursetools.quality.processes import environ_set
from coursetools.service import services as svc
from coursetools.service.connections import DB_PASSWORD_ENV, SettingError, password, redacted


def _file(path, text: str, mode: int):
    path.write_text(text)
    path.chmod(mode)
    return path


def test_a_password_comes_from_the_environment_or_the_first_line_of_a_private_file(tmp_path):
    secret = _file(tmp_path / "db.pw", "s3cret pass\nignored\n", 0o600)
    with environ_set({DB_PASSWORD_ENV: "", f"{DB_PASSWORD_ENV}_FILE": str(secret)}):
        assert password(DB_PASSWORD_ENV) == "s3cret pass"
    with environ_set({DB_PASSWORD_ENV: "from-env", f"{DB_PASSWORD_ENV}_FILE": str(secret)}):
        assert password(DB_PASSWORD_ENV) == "from-env"
    with environ_set({DB_PASSWORD_ENV: "", f"{DB_PASSWORD_ENV}_FILE": ""}):
        assert password(DB_PASSWORD_ENV) is None


@pytest.mark.parametrize("case", ["readable by others", "a link", "missing", "empty"])
def test_a_password_file_others_can_read_or_that_is_a_link_is_refused_with_the_fix(tmp_path, case):
    target = _file(tmp_path / "db.pw", "" if case == "empty" else "pw\n", 0o644 if case == "readable by others" else 0o600)
    name = tmp_path / "link" if case == "a link" else target
    if case == "a link":
        os.symlink(target, name)
    if case == "missing":
        target.unlink()
    with environ_set({DB_PASSWORD_ENV: "", f"{DB_PASSWORD_ENV}_FILE": str(name)}):
        with pytest.raises(SettingError) as err:
            password(DB_PASSWORD_ENV)
    assert f"{DB_PASSWORD_ENV}_FILE names {name}" in str(err.value)
    if case == "readable by others":
        assert f"chmod 600 {name}" in str(err.value)


def test_urls_are_shown_without_their_passwords():
    assert redacted("rediss://course:hunter2@10.0.0.5:6379/0?ssl_ca_certs=/ca.pem") == \
        "rediss://course:***@10.0.0.5:6379/0?ssl_ca_certs=/ca.pem"
    assert redacted("redis://:hunter2@db/0") == "redis://:***@db/0"
    assert redacted("postgresql://course@db/course?sslmode=verify-full&password=hunter2") == \
        "postgresql://course@db/course?sslmode=verify-full&password=***"
    plain = "unix:///srv/course/redis.sock?db=0"
    assert redacted(plain) == plain


def test_the_tcp_mode_needs_tls_files_and_both_passwords(tmp_path, capsys):
    with pytest.raises(SystemExit):
        svc.main(["up", "--tcp", "169.254.77.1", "--tls-cert", "c.pem"])
    assert "--tcp needs --tls-key, --tls-ca" in capsys.readouterr().err
    pem = [str(_file(tmp_path / f"{n}.pem", "x", 0o600)) for n in ("cert", "key", "ca")]
    with environ_set({svc.DIR_ENV: str(tmp_path / "services"), "COURSE_BROKER_PASSWORD": "",
                      "COURSE_BROKER_PASSWORD_FILE": "", DB_PASSWORD_ENV: "x", f"{DB_PASSWORD_ENV}_FILE": ""}):
        with pytest.raises(svc.ServiceError, match="COURSE_BROKER_PASSWORD_FILE"):
            svc.up(tmp_path, svc.Tcp("169.254.77.1", 1, 2, *pem))
    assert not (tmp_path / "services" / "tcp.json").exists()
