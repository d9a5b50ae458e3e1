"""`coursetools server` (what `make server` runs) for real: JupyterHub on a free port of 127.0.0.1, a teacher's and two
students' real Unix accounts (hubteach, hubann, hubbob; removed after), PAM logins, each server run as its user.

- nothing hidden is installed for students: a student account cannot import coursetools nor read the instructor's
  environment or course folder;
- self-checks on the Hub need no token: the server's own JUPYTERHUB_API_TOKEN (read from the running server's
  environment, as its kernels inherit it) checks as its user, and one student's token never checks as another
  nor reads the answer of another's check.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hubtools import ANN, BOB, CHP, LAB, ROOT, TEACHER, answer_of, check, records

from coursetools.course.labfiles import solution_answers
from coursetools.quality.submission import build_submission

pytestmark = [
    pytest.mark.long,
    pytest.mark.skipif(os.geteuid() != 0, reason="the Hub runs as root to start each user's server as that user"),
    pytest.mark.skipif(not CHP.exists(), reason="configurable-http-proxy is missing: make hub-deps"),
]


def test_the_accounts_are_real_and_private(hub):
    for user in (TEACHER, ANN, BOB):
        entry = pwd.getpwnam(user)
        assert os.stat(entry.pw_dir).st_mode & 0o777 == 0o700
        assert hub.passwords[user]
    assert os.stat(hub.folder / "hub" / "accounts.csv").st_mode & 0o777 == 0o600
    assert os.stat(hub.folder / "teacher").st_uid == pwd.getpwnam(TEACHER).pw_uid


def test_a_student_cannot_import_a_check_nor_read_the_instructors_files(hub):
    python = str(hub.student_env / "bin" / "python")
    site = next((hub.instructor_env / "lib").glob("python3*/site-packages"), None) if os.access(
        hub.instructor_env, os.R_OK) else None
    probe = ("import importlib.util, sys\n"
             "import course_lib, nbgrader\n"
             "print('course_lib', course_lib.__version__)\n"
             "print('coursetools', importlib.util.find_spec('coursetools'))\n"
             f"sys.path.insert(0, {str(site)!r})\n"
             "try:\n    import coursetools.checks\n    print('IMPORTED')\n"
             "except ImportError as e:\n    print('refused', e)\n")
    proc = hub.as_user(ANN, [python, "-c", probe])
    assert proc.returncode == 0, proc.stderr
    assert "course_lib" in proc.stdout and "coursetools None" in proc.stdout and "IMPORTED" not in proc.stdout
    for private in (hub.folder / "teacher", hub.folder / "teacher" / "course" / "source", hub.instructor_env):
        assert hub.as_user(ANN, ["ls", str(private)]).returncode != 0, f"{ANN} can list {private}"
    checks = hub.folder / "teacher" / "course" / "source" / LAB / f"{LAB}.ipynb"
    assert hub.as_user(BOB, ["cat", str(checks)]).returncode != 0
    # The teacher's own environment does have them (the probe above would have found them there).
    proc = hub.as_user(TEACHER, [str(hub.instructor_env / "bin" / "python"), "-c", "import coursetools.checks"])
    assert proc.returncode == 0, proc.stderr


def test_pam_checks_the_password_and_each_server_runs_as_its_user(hub):
    import requests

    session = requests.Session()
    session.get(f"{hub.url}/hub/login")
    wrong = session.post(f"{hub.url}/hub/login", data={"username": ANN, "password": "not-" + hub.passwords[ANN],
                                                       "_xsrf": session.cookies.get("_xsrf")})
    assert wrong.status_code == 403 and "jupyterhub-session-id" not in {c.name for c in session.cookies} or \
        "/hub/login" in wrong.url
    right = session.post(f"{hub.url}/hub/login?next=", data={"username": ANN, "password": hub.passwords[ANN],
                                                              "_xsrf": session.cookies.get("_xsrf")})
    assert right.status_code == 200 and f"/user/{ANN}" in right.url or "spawn-pending" in right.url, right.url
    environ = hub.server_environment(ANN, hub.token(ANN))
    assert environ["JUPYTERHUB_USER"] == ANN and environ["PATH"].startswith(str(hub.student_env))


def answered_notebook(user: str) -> Path:
    """Lab 01 with every code answer, in `user`'s home, theirs."""
    source = ROOT / "source" / LAB / f"{LAB}.ipynb"
    notebook = Path(pwd.getpwnam(user).pw_dir) / f"{LAB}.ipynb"
    build_submission(ROOT / "release" / LAB / f"{LAB}.ipynb", solution_answers(source), notebook)
    entry = pwd.getpwnam(user)
    os.chown(notebook, entry.pw_uid, entry.pw_gid)
    return notebook


def test_a_kernel_checks_with_the_hubs_token_and_only_as_its_own_student(hub, tmp_path):
    earlier = len(records(hub))  # the browser round's checks, when it ran first
    ann_env = hub.server_environment(ANN, hub.token(ANN))
    bob_env = hub.server_environment(BOB, hub.token(BOB))
    assert ann_env["JUPYTERHUB_API_TOKEN"] != bob_env["JUPYTERHUB_API_TOKEN"]
    notebook = answered_notebook(ANN)
    # What a kernel of ann's server does: course_lib.check_online() with nothing set by her.
    kernel_env = {k: ann_env[k] for k in ("JUPYTERHUB_API_TOKEN", "COURSE_CHECK_URL", "COURSE_CHECK_HUB",
                                          "JUPYTERHUB_USER")}
    code = (f"import course_lib\nanswer = course_lib.check_online(path={str(notebook)!r})\n"
            "print(answer.summary())")
    proc = hub.as_user(ANN, [str(hub.student_env / "bin" / "python"), "-c", code], env=kernel_env, timeout=900)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"(\d+) of \1 test cells passed", proc.stdout), proc.stdout
    assert records(hub)[earlier:] == [(ANN, LAB)]

    # bob's token checks as bob, whatever the request claims; it never lands on ann's records.
    raw = notebook.read_bytes()
    status, answer = check(hub, bob_env["JUPYTERHUB_API_TOKEN"], raw, f"?student={ANN}",
                           {"X-Forwarded-User": ANN, "X-Student": ANN})
    assert status == 200, answer
    assert records(hub)[earlier:] == [(ANN, LAB), (BOB, LAB)]

    # Refused: a token the Hub does not know, a token of ann's without the scope to reach the service, a token
    # the Hub revoked; nothing is recorded for any of them.
    status, answer = check(hub, "0" * 32, raw)
    assert status == 401 and "Hub does not know" in answer["error"]
    status, made = hub.api(f"/users/{ANN}/tokens", hub.token(ANN), "POST", {"scopes": ["read:users:name!user"],
                                                                            "note": "no service access"})
    assert status == 201, made
    status, answer = check(hub, made["token"], raw)
    assert status == 401 and "may not use the self-check service" in answer["error"]
    assert records(hub)[earlier:] == [(ANN, LAB), (BOB, LAB)]


def test_one_students_hub_token_never_reads_the_answer_of_anothers_check(hub):
    """bob's kernel token asking for ann's check by its id (``GET /check/<id>``) is refused with nothing of her answer,
    exactly as for an id nobody has; her own token reads it."""
    ann_token = hub.server_environment(ANN, hub.token(ANN))["JUPYTERHUB_API_TOKEN"]
    bob_token = hub.server_environment(BOB, hub.token(BOB))["JUPYTERHUB_API_TOKEN"]

    def answered(student: str) -> list[str]:
        return [check_id for who, check_id, done in records(hub, "student, check_id, answered_at IS NOT NULL")
                if who == student and done == "True"]

    if not answered(ANN):  # (run on its own: the earlier tests' checks are not there)
        status, answer = check(hub, ann_token, answered_notebook(ANN).read_bytes())
        assert status == 200, answer
    ann_check = answered(ANN)[-1]
    status, hers = answer_of(hub, ann_token, ann_check)
    assert status == 200 and hers["cells"], hers

    for headers in ({}, {"X-Forwarded-User": ANN, "X-Student": ANN}):
        request = urllib.request.Request(f"{hub.url}/services/self-check/check/{ann_check}?student={ANN}",
                                         headers={"Authorization": f"Bearer {bob_token}", **headers})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=60)
        reply = json.loads(refused.value.read())
        assert refused.value.code == 404 and set(reply) == {"error"}, reply
        assert "you have no check" in reply["error"]
        text = json.dumps(reply)
        assert ANN not in text and not any(str(c.get("cell")) in text for c in hers["cells"]), text
        assert "passed" not in text and "failed" not in text
    # The same refusal as for an id nobody has: bob cannot even tell that ann's check exists.
    status, nobodys = answer_of(hub, bob_token, "0" * 32)
    assert (status, nobodys["error"].replace("0" * 32, ann_check)) == (404, reply["error"])
