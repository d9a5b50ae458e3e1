"""A course server on one machine: ``coursetools server`` (``make server``, docs/server.md).

It starts a real JupyterHub (configurable-http-proxy in front) on 127.0.0.1 for a small class of real Unix
accounts: the Hub checks each password with PAM and starts each user's JupyterLab as that user. Students' servers
run from the students' environment (`envs.student_env`: no ``coursetools`` in it) and see nbgrader's assignment
list; the teacher's server runs from the instructor's environment, in the course folder, with formgrader (opened
in a tab of its own: JupyterHub's Content-Security-Policy forbids the frame JupyterLab would show it in). The
self-check service and one worker run as Hub services, as the teacher; a student's kernel checks with the Hub's own
token for that student (``JUPYTERHUB_API_TOKEN``), which the Hub lets reach the service and nothing else of it.

Layout (``--dir``, default ``build/server/``): ``hub/`` (root only: the Hub's config, database, secrets, log and
the accounts' passwords), ``teacher/`` (the teacher's only: the course folder, its services, its config),
``students/`` (the students' Jupyter config), the exchange (`exchange_layout`, checked by check-server before the
Hub starts).
"""

from __future__ import annotations

import argparse
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from coursetools import write_private
from coursetools.course.exchange_layout import Layout, make_exchange, students_config
from coursetools.course.server_check import check_server
from coursetools.hub import envs
from coursetools.labs import labs_in
from coursetools.quality.processes import free_port, stop

SEED_FILE = "secret-seed"

COURSE_ID = "adversarial-search"
SERVICE = "self-check"
TEACHER, STUDENTS = "course-teacher", ("course-ann", "course-bob")


class ServerError(RuntimeError):
    """The server could not be set up; the message says what to do."""


@dataclass
class Server:
    """One course server: where it lives, who uses it, the port it answers on."""

    root: Path  # the course's repository (its source/, release/, course_lib, instructor/)
    folder: Path
    teacher: str = TEACHER
    students: list[str] = field(default_factory=lambda: list(STUDENTS))
    port: int = 0
    passwords: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def hub_dir(self) -> Path:
        return self.folder / "hub"

    @property
    def private(self) -> Path:
        return self.folder / "teacher"

    @property
    def course(self) -> Path:
        return self.private / "course"

    @property
    def envs(self) -> Path:
        return self.root / "build" / "server-envs"

    @property
    def service_url(self) -> str:
        return f"{self.url}/services/{SERVICE}"


# --- accounts ---------------------------------------------------------------------------------------------------

def _run(cmd: list[str], what: str, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode:
        raise ServerError(f"{what} failed: {(proc.stdout + proc.stderr).strip()[-2000:]}")
    return proc


def make_accounts(names: list[str]) -> dict[str, str]:
    """Each account made when missing (its home private), with a new random password; the passwords."""
    passwords = {}
    for name in names:
        try:
            pwd.getpwnam(name)
        except KeyError:
            _run(["useradd", "--create-home", "--user-group", "--shell", "/bin/bash", name], f"useradd {name}")
        os.chmod(pwd.getpwnam(name).pw_dir, 0o700)
        passwords[name] = secrets.token_urlsafe(9)
        _run(["chpasswd"], f"setting the password of {name}", input=f"{name}:{passwords[name]}\n")
    return passwords


def remove_accounts(names: list[str]) -> None:
    """Remove the accounts (and their homes) that exist."""
    for name in names:
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        subprocess.run(["userdel", "--remove", name], capture_output=True)


def user_env(user: str, env: Path, **extra: str) -> dict[str, str]:
    """A clean environment for `user`'s processes, `env`'s programs first on PATH."""
    home = pwd.getpwnam(user).pw_dir
    return {"PATH": f"{env}/bin:/usr/local/bin:/usr/bin:/bin", "HOME": home, "USER": user, "LOGNAME": user,
            "LANG": "C.UTF-8", "SHELL": "/bin/bash", **extra}


def as_user(user: str, cmd: list[str], cwd: Path, env: dict[str, str], what: str) -> subprocess.CompletedProcess:
    """Run `cmd` as `user` (its own uid, gid and groups, nothing of root's)."""
    return _run(["setpriv", f"--reuid={user}", f"--regid={user}", "--init-groups", "--", *cmd], what, cwd=cwd,
                env=env)


# --- the folders ------------------------------------------------------------------------------------------------

def exchange_layout(server: Server) -> Layout:
    """The exchange of this server (`coursetools.course.exchange_layout`): made or repaired, its root under the
    server's folder."""
    layout = Layout(server.folder / "exchange", COURSE_ID, server.teacher)
    make_exchange(layout)
    return layout


def give(path: Path, user: str, mode: int = 0o700) -> None:
    entry = pwd.getpwnam(user)
    _run(["chown", "-R", f"{entry.pw_uid}:{entry.pw_gid}", str(path)], f"giving {path} to {user}")
    os.chmod(path, mode)


def make_course(server: Server) -> None:
    """The teacher's course folder (config, source/ and release/ of every lab), kept when it exists."""
    server.private.mkdir(parents=True, exist_ok=True)
    if not (server.course / "nbgrader_config.py").is_file():
        server.course.mkdir(parents=True, exist_ok=True)
        shutil.copy2(server.root / "nbgrader_config.py", server.course / "nbgrader_config.py")
        for lab in labs_in(server.root):
            for part in ("source", "release"):
                if (server.root / part / lab).is_dir():
                    shutil.copytree(server.root / part / lab, server.course / part / lab)
    seed = server.private / SEED_FILE
    if not seed.is_file():  # the course's secret seed: the hidden cases of checks and grading are drawn from it
        write_private(seed, os.environ.get("COURSE_SECRET_SEED") or secrets.token_urlsafe(24))
    give(server.private, server.teacher)
    _run(["chmod", "-R", "go-rwx", str(server.private)], f"making {server.private} the teacher's only")


def secret_seed(server: Server) -> str:
    """The course's secret seed (``teacher/secret-seed``, the teacher's only), which the self-check's worker needs."""
    return (server.private / SEED_FILE).read_text().strip()


def config_dirs(server: Server, layout: Layout) -> tuple[Path, Path]:
    """The Jupyter config folder of the students' servers and of the teacher's (``JUPYTER_CONFIG_PATH``)."""
    students = server.folder / "students" / "jupyter"
    students.mkdir(parents=True, exist_ok=True)
    (students / "nbgrader_config.py").write_text(students_config(layout) + f"c.CourseDirectory.course_id = {COURSE_ID!r}\n")
    for path in (server.folder / "students", students, students / "nbgrader_config.py"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    teacher = server.private / "jupyter"
    teacher.mkdir(parents=True, exist_ok=True)
    (teacher / "nbgrader_config.py").write_text("c = get_config()  # noqa: F821\n"
                                                f"c.Exchange.root = {str(layout.root)!r}\n"
                                                f"c.CourseDirectory.course_id = {COURSE_ID!r}\n"
                                                f"c.CourseDirectory.root = {str(server.course)!r}\n")
    give(teacher, server.teacher)
    return students, teacher


def services_up(server: Server, instructor: Path) -> dict[str, str]:
    """The self-check service's broker and database, started as the teacher in the course; their URLs."""
    proc = as_user(server.teacher, [str(instructor / "bin" / "python"), "-m", "coursetools", "services", "up"],
                   server.course, user_env(server.teacher, instructor), "starting the broker and the database")
    values = {}
    for line in proc.stdout.splitlines():
        if line.startswith("export ") and "=" in line:
            key, _, value = line[7:].partition("=")
            values[key] = value.strip("'")
    return values


def services_down(server: Server, instructor: Path) -> None:
    subprocess.run(["setpriv", f"--reuid={server.teacher}", f"--regid={server.teacher}", "--init-groups", "--",
                    str(instructor / "bin" / "python"), "-m", "coursetools", "services", "down"],
                   cwd=server.course, env=user_env(server.teacher, instructor), capture_output=True)


# --- the Hub ----------------------------------------------------------------------------------------------------

def proxy_command(root: Path) -> Path:
    path = root / "build" / "hub-node" / "node_modules" / ".bin" / "configurable-http-proxy"
    if not path.exists():
        raise ServerError(f"configurable-http-proxy is missing ({path}): run `make hub-deps`")
    return path


def hub_config(server: Server, student: Path, instructor: Path, services: dict[str, str],
               configs: tuple[Path, Path]) -> str:
    """The text of ``jupyterhub_config.py``."""
    service_port = free_port()
    py = str(instructor / "bin" / "python")
    teacher_env = user_env(server.teacher, instructor, JUPYTER_CONFIG_PATH=str(configs[1]), **services)
    worker_env = {**teacher_env, "COURSE_SECRET_SEED": secret_seed(server)}  # in the Hub's config, root's only
    student_env = {"PATH": f"{student}/bin:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                   "JUPYTER_CONFIG_PATH": str(configs[0]), "COURSE_CHECK_URL": server.service_url,
                   "COURSE_CHECK_HUB": "1"}
    services_list = [
        {"name": SERVICE, "url": f"http://127.0.0.1:{service_port}", "user": server.teacher, "cwd": str(server.course),
         "command": [py, "-m", "coursetools", "serve", "--host", "127.0.0.1", "--port", str(service_port)],
         "environment": teacher_env, "display": False},
        {"name": f"{SERVICE}-worker", "user": server.teacher, "cwd": str(server.course),
         "command": [py, "-m", "coursetools", "worker"], "environment": worker_env},
    ]
    return f'''# Written by `coursetools server` (instructor/coursetools/hub/server.py); docs/server.md says what to change.
c = get_config()  # noqa: F821
c.JupyterHub.bind_url = {server.url + "/"!r}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {free_port()}
c.ConfigurableHTTPProxy.command = [{str(proxy_command(server.root))!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{free_port()}"
c.JupyterHub.db_url = "sqlite:///{server.hub_dir / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = {str(server.hub_dir / 'jupyterhub_cookie_secret')!r}
c.JupyterHub.cleanup_servers = True

# Real accounts: PAM checks the password of the Unix account.
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = {set([server.teacher, *server.students])!r}

# Each user's JupyterLab runs as that user, from the students' or the instructor's environment.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
c.Spawner.env_keep = []
TEACHER = {server.teacher!r}
TEACHER_CMD = [{str(instructor / "bin" / "jupyterhub-singleuser")!r}]
STUDENT_CMD = [{str(student / "bin" / "jupyterhub-singleuser")!r}]
TEACHER_ENV = {teacher_env!r}
STUDENT_ENV = {student_env!r}
COURSE = {str(server.course)!r}


def pre_spawn_hook(spawner):
    if spawner.user.name == TEACHER:
        spawner.cmd, spawner.notebook_dir = TEACHER_CMD, COURSE
        spawner.environment = dict(TEACHER_ENV)
    else:
        spawner.cmd = STUDENT_CMD
        spawner.environment = dict(STUDENT_ENV)


c.Spawner.pre_spawn_hook = pre_spawn_hook

# The self-check service and its worker run as the teacher. A server's token (JUPYTERHUB_API_TOKEN, which its
# kernels inherit) may reach that one service: the service asks the Hub whose token it is.
c.JupyterHub.services = {services_list!r}
c.JupyterHub.load_roles = [{{"name": "user", "scopes": ["self", "access:services!service={SERVICE}"]}}]
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", "access:services!service={SERVICE}"]
'''


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=3) as reply:
            return reply.status == 200
    except OSError:
        return False


def start(server: Server, log=None) -> subprocess.Popen:
    """Set everything up and start the Hub; returns once the Hub and the self-check service answer."""
    if os.geteuid() != 0:
        raise ServerError("run it as root: the Hub starts each user's server as that user (sudo make server)")
    server.folder.mkdir(parents=True, exist_ok=True)
    os.chmod(server.folder, 0o755)
    server.hub_dir.mkdir(exist_ok=True)
    os.chmod(server.hub_dir, 0o700)
    server.passwords = make_accounts([server.teacher, *server.students])
    write_passwords(server)
    student = envs.student_env(server.root, server.envs)
    instructor = envs.instructor_env(server.root, server.envs, server.teacher)
    make_course(server)
    layout = exchange_layout(server)
    configs = config_dirs(server, layout)
    problems = check_server(server.course, layout, server.students[0] if server.students else None,
                            str(student / "bin" / "python"))
    if problems:
        raise ServerError("coursetools check-server refused this server:\n" + "\n".join(f"  UNSAFE {p}" for p in problems))
    services = services_up(server, instructor)
    server.port = server.port or free_port()
    config = server.hub_dir / "jupyterhub_config.py"
    config.write_text(hub_config(server, student, instructor, services, configs))
    hub_log = server.hub_dir / "hub.log"
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
           "HOME": str(server.hub_dir)}
    proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=server.hub_dir, env=env,
                            stdout=open(hub_log, "w"), stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 180
    while not (answers(server.url + "/hub/api") and answers(server.service_url + "/")):
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            raise ServerError(f"the Hub did not start; its log ({hub_log}):\n"
                              f"{hub_log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.5)
    return proc


def write_passwords(server: Server) -> None:
    rows = [f"{name},{'teacher' if name == server.teacher else 'student'},{password}\n"
            for name, password in server.passwords.items()]
    write_private(server.hub_dir / "accounts.csv", "account,role,password\n" + "".join(rows))


def summary(server: Server) -> str:
    accounts = "\n".join(f"    {name:20s} {'teacher' if name == server.teacher else 'student':8s} password {pw}"
                         for name, pw in server.passwords.items())
    return f"""course server ready: {server.url}/ (JupyterHub, real accounts, each server run as its user)
  accounts (passwords also in {server.hub_dir / 'accounts.csv'}, readable by root only; new ones each start):
{accounts}
  students: JupyterLab, Nbgrader > Assignment List to fetch and submit; course_lib.check_online() needs no token
  teacher:  JupyterLab in the course ({server.course});
            formgrader in its own tab: {server.url}/user/{server.teacher}/formgrader
            hand a lab out from the teacher's terminal: coursetools hand-out 01_game_trees
  self-check service: {server.service_url}/ (a Hub service, run as {server.teacher}, with one worker)
  the course's secret seed (the hidden cases are drawn from it): {server.private / SEED_FILE}, the teacher's only
  the Hub's config and log: {server.hub_dir}; the exchange: {server.folder / 'exchange'} (check-server: safe)
to stop: Ctrl+C (or kill -TERM {os.getpid()}); the accounts stay: userdel --remove NAME removes one"""


def main(args: argparse.Namespace) -> int:
    """``coursetools server``: start, print what runs, wait until stopped, then stop everything it started."""
    from coursetools import course_root

    root = course_root()
    server = Server(root, (args.dir or root / "build" / "server").resolve(), args.teacher, args.students or
                    list(STUDENTS), args.port or 0)
    try:
        proc = start(server)
    except (ServerError, envs.EnvError) as exc:
        print(f"coursetools server: {exc}", file=sys.stderr)
        return 2
    print(summary(server), flush=True)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    try:
        while proc.poll() is None and not stopping:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    stop(proc)
    services_down(server, server.envs / "instructor")
    print("course server stopped (the Hub, every user's server, the self-check service, its broker and database)")
    return 0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dir", type=Path, help="where the server keeps its state (default build/server/)")
    p.add_argument("--port", type=int, help="the Hub's port on 127.0.0.1 (default: a free one)")
    p.add_argument("--teacher", default=TEACHER, help=f"the teacher's account (default {TEACHER})")
    p.add_argument("--students", nargs="*", help=f"the students' accounts (default {' '.join(STUDENTS)})")
