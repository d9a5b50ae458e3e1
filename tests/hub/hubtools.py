"""What the Hub tests use to drive the course server: its accounts, its API, a check, the service's records."""

from __future__ import annotations

import json
import pwd
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEACHER, ANN, BOB = "hubteach", "hubann", "hubbob"
LAB = "01_game_trees"
CHP = ROOT / "build" / "hub-node" / "node_modules" / ".bin" / "configurable-http-proxy"


class Hub:
    def __init__(self, folder: Path, url: str, passwords: dict[str, str]) -> None:
        self.folder, self.url, self.passwords = folder, url, passwords
        self.student_env = ROOT / "build" / "server-envs" / "student"
        self.instructor_env = ROOT / "build" / "server-envs" / "instructor"

    def as_user(self, user: str, cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None,
                timeout: float = 300) -> subprocess.CompletedProcess:
        home = pwd.getpwnam(user).pw_dir
        base = {"PATH": "/usr/bin:/bin", "HOME": home, "USER": user, "LANG": "C.UTF-8"}
        return subprocess.run(["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--", *cmd],
                              cwd=cwd or home, env={**base, **(env or {})}, capture_output=True, text=True,
                              timeout=timeout)

    def api(self, path: str, token: str, method: str = "GET", body: dict | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}/hub/api{path}", data=data, method=method,
                                         headers={"Authorization": f"token {token}"})
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                text = reply.read().decode()
                return reply.status, json.loads(text) if text else {}
        except urllib.error.HTTPError as exc:
            return exc.code, {}

    def token(self, user: str) -> str:
        """A token of `user`'s own (as `jupyterhub token` makes it: the user's scopes)."""
        proc = subprocess.run([sys.executable, "-m", "jupyterhub", "token", "-f", "jupyterhub_config.py", user],
                              cwd=self.folder / "hub", capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip().splitlines()[-1]

    def server_environment(self, user: str, token: str) -> dict[str, str]:
        """Start `user`'s server through the Hub's API; the environment its process (and its kernels) got."""
        status, _ = self.api(f"/users/{user}/server", token, "POST", {})
        assert status in (201, 202, 400), status  # 400: already running
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            status, model = self.api(f"/users/{user}", token)
            if model.get("servers", {}).get("", {}).get("ready"):
                break
            time.sleep(1)
        pids = subprocess.run(["pgrep", "-u", user, "-f", "jupyterhub-singleuser"], capture_output=True,
                              text=True).stdout.split()
        assert pids, f"no server of {user} runs as {user}"
        raw = Path(f"/proc/{pids[0]}/environ").read_bytes()
        return dict(item.split("=", 1) for item in raw.decode().split("\0") if "=" in item)


def check(hub: Hub, token: str, notebook: bytes, query: str = "", headers: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(f"{hub.url}/services/self-check/check/{LAB}{query}", data=notebook,
                                     method="POST", headers={"Authorization": f"Bearer {token}", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=600) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def answer_of(hub: Hub, token: str, check_id: str) -> tuple[int, dict]:
    """``GET /check/<check_id>`` of the self-check service with `token`: the status and the JSON reply."""
    request = urllib.request.Request(f"{hub.url}/services/self-check/check/{check_id}",
                                     headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def records(hub: Hub, columns: str = "student, lab") -> list[tuple[str, ...]]:
    """These columns (default: student, lab) of every check the service recorded, in the order the checks came,
    read as the teacher from its database."""
    course = hub.folder / "teacher" / "course"
    env = {"PATH": f"{hub.instructor_env}/bin:/usr/bin:/bin"}
    exports = hub.as_user(TEACHER, [str(hub.instructor_env / "bin" / "python"), "-m", "coursetools", "services",
                                    "env"], env=env, cwd=course).stdout
    for line in exports.splitlines():
        key, _, value = line.removeprefix("export ").partition("=")
        env[key] = value.strip("'")
    code = ("from coursetools.service import tokens\n"
            f"for row in tokens.connect().execute('SELECT {columns} FROM selfcheck_records ORDER BY at'):\n"
            "    print(*row)")
    proc = hub.as_user(TEACHER, [str(hub.instructor_env / "bin" / "python"), "-c", code], env=env, cwd=course)
    assert proc.returncode == 0, proc.stderr
    return [tuple(line.split()) for line in proc.stdout.splitlines()]
