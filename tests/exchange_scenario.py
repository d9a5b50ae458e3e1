"""The attacks of issue 31's table, played by real accounts against a course server (`exchange_accounts.Server`).

``play(server, mode)`` sets the server up, has the honest student (`ANN`) fetch, answer and submit through
nbgrader, has `BOB` attack, then has the instructor (`TEACH`) collect, grade and release feedback; it returns
what happened, one line per attack. ``mode`` is ``"course"`` (this code: ``coursetools setup-exchange``,
``check-server``, the course's exchange classes) or ``"stock"`` (the set-up the instructor's guide described
before: an exchange root made ``ugo+rwx``, nbgrader's own classes, the instructor's package in the students'
Python). Run as a script (as root) it prints both, the table's before and after::

    .venv/bin/python tests/exchange_scenario.py [stock|course] [CODE_FOLDER]
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))

from exchange_accounts import COURSE_ID, LAB, ROOT, Server  # noqa: E402

TEACH, ANN, BOB = "srvteach", "srvann", "srvbob"
NB = f"{LAB}.ipynb"
FORGED_TIME = "2099-01-01 00:00:00.000000 UTC"
BACKDATED_TIME = "2026-01-05 09:00:00.000000 UTC"
GRADE_SCRIPT = (
    "from nbgrader.api import Gradebook\n"
    "import json, sys\n"
    "with Gradebook('sqlite:///gradebook.db', 'adversarial-search') as gb:\n"
    "    out = {}\n"
    "    for s in gb.assignment_submissions('01_game_trees'):\n"
    "        out[s.student.id] = [s.code_score, str(s.timestamp)]\n"
    "json.dump(out, sys.stdout)\n")


def denied(proc) -> bool:
    return proc.returncode != 0 and ("denied" in proc.stderr or "not permitted" in proc.stderr)


def verdict(proc, what: str) -> str:
    if proc.returncode == 0:
        return f"{what}: DONE"
    return f"{what}: refused ({(proc.stderr.strip().splitlines() or ['?'])[-1][-90:]})"


class Play:
    def __init__(self, server: Server, mode: str) -> None:
        self.s, self.mode, self.out = server, mode, {}
        self.course = Path("/home") / TEACH / "course"
        self.nbg = f"python -m nbgrader {{}} {LAB} --course {COURSE_ID}"

    def teach(self, script: str, check: bool = True):
        proc = self.s.run(TEACH, script, self.course)
        if check:
            assert proc.returncode == 0, f"{script}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        return proc

    def student(self, who: str, script: str, check: bool = True, folder: str = ""):
        cwd = self.s.home(who) / folder if folder else None
        proc = self.s.run(who, script, cwd)
        if check:
            assert proc.returncode == 0, f"{who}: {script}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        return proc

    # -- the set-up ----------------------------------------------------------------------------------------------
    def set_up(self) -> None:
        s = self.s
        s.add_accounts()
        s.make_envs()
        self.course = s.make_course()
        if self.mode == "stock":
            s.exchange.mkdir()
            s.exchange.chmod(0o777)  # "mode ugo+rwx", as the guide said
            for folder in s.config_dirs():
                folder.mkdir(parents=True)
                (folder / "nbgrader_config.py").write_text(f"c = get_config()\nc.Exchange.root = {str(s.exchange)!r}\n")
            s.student_python = s.teacher_python  # the instructor package pip-installed for everyone
        else:
            for folder in s.config_dirs():
                proc = s.run("root", f"{s.teacher_python} -m coursetools setup-exchange --exchange {s.exchange} "
                             f"--instructor {TEACH} --students-config {folder / 'nbgrader_config.py'}", self.course)
                assert proc.returncode == 0, proc.stdout + proc.stderr
            first = self.teach("python -m coursetools check-server", check=False)
            self.out["check-server on the course folder as copied"] = (
                f"exit {first.returncode}: " + " | ".join(line.strip() for line in first.stderr.splitlines()
                                                          if "UNSAFE" in line))
            self.teach(f"chmod 700 {self.course}")
        s.chown(s.scratch / "teacher-config", TEACH)  # the instructor's own Jupyter configuration folder
        self.teach(f"python -m coursetools hand-out {LAB}")

    def honest_work(self) -> None:
        """ann fetches, answers every question and submits; bob fetches and submits his notebook unanswered."""
        from coursetools.course.labfiles import solution_answers, written_answers
        from coursetools.quality.submission import build_submission

        for who in (ANN, BOB):
            self.student(who, self.nbg.format("fetch_assignment"))
        source = ROOT / "source" / LAB / NB
        fetched = self.s.home(ANN) / LAB / NB
        build_submission(fetched, {**solution_answers(source), **written_answers(source)}, fetched)
        self.s.chown(fetched, ANN)
        self.ann_notebook = fetched.read_bytes()
        for who in (ANN, BOB):
            self.student(who, self.nbg.format("submit"))

    def inbound_entries(self) -> list[Path]:
        return sorted((self.s.exchange / COURSE_ID / "inbound").iterdir())

    # -- the attacks ----------------------------------------------------------------------------------------------
    def forge(self) -> None:
        """Row 2: bob submits as ann (--student), then hand-makes entries: ann's in 2099, his own backdated."""
        proc = self.student(BOB, self.nbg.format("submit") + f" --student {ANN}", check=False)
        self.out["2a bob: nbgrader submit --student srvann"] = verdict(proc, "submitted as srvann")
        collect = self.teach(f"python -m nbgrader collect {LAB} --update", check=False)
        self.out["2a collect"] = self.collected(collect)
        inbound = self.s.exchange / COURSE_ID / "inbound"
        for name, what in ((f"{ANN}+{LAB}+{FORGED_TIME}", "2b bob: hand-made srvann entry dated 2099"),
                           (f"{BOB}+{LAB}+{BACKDATED_TIME}", "2c bob: hand-made own entry backdated"),
                           (f"{BOB}+{LAB}+not a time", "2d bob: hand-made entry whose time is no time")):
            entry = inbound / name
            stamp = name.split("+")[2]
            proc = self.student(BOB, f"mkdir '{entry}' && cp {LAB}/{NB} '{entry}/' && "
                                     f"printf '{stamp}' > '{entry}/timestamp.txt'", check=False)
            self.out[what] = verdict(proc, "made")
        collect = self.teach(f"python -m nbgrader collect {LAB} --update", check=False)
        self.out["2b/2c collect"] = self.collected(collect)

    def collected(self, proc) -> str:
        flags = [line.split(": not collected")[0].split("FLAGGED ")[-1] for line in proc.stderr.splitlines()
                 if "FLAGGED" in line]
        warned = proc.stderr.count("cheating attempt?")
        sub = self.course / "submitted" / ANN / LAB
        ann_is_hers = (sub / NB).is_file() and (sub / NB).read_bytes() == self.ann_notebook
        stamps = {who: (self.course / "submitted" / who / LAB / "timestamp.txt").read_text()
                  if (self.course / "submitted" / who / LAB / "timestamp.txt").is_file() else None
                  for who in (ANN, BOB)}
        return (f"flagged {len(flags)} {flags}; nbgrader warnings {warned}; submitted/srvann is "
                f"{'hers' if ann_is_hers else 'NOT hers'}; timestamps {stamps}")

    def classmate_reads(self) -> None:
        """Row 3: bob knows ann's submission folder's name (taken here from the listing only root can see)."""
        self.ann_entry = next(e for e in self.inbound_entries() if e.name.startswith(f"{ANN}+"))
        entry, home = self.ann_entry, self.s.home(ANN)
        self.attack("3", {
            "list inbound": f"ls '{entry.parent}'",
            "read her notebook": f"cat '{entry}/{NB}' > /dev/null",
            "read her submission secret": f"cat '{entry}/submission_secret.txt' > /dev/null",
            "read her cache's secret": f"cat {home}/.local/share/jupyter/nbgrader_cache/{COURSE_ID}/*/submission_secret.txt",
            "read her fetched lab": f"cat {home}/{LAB}/{NB} > /dev/null",
        })
        self.secret_for_bob = self.student(BOB, f"cat '{entry}/submission_secret.txt'", check=False).stdout

    def classmate_writes(self) -> None:
        """Row 3, after grading (they destroy her work when they succeed)."""
        entry = self.ann_entry
        self.attack("3", {
            "replace her notebook": f"rm -f '{entry}/{NB}' && cp {LAB}/{NB} '{entry}/{NB}'",
            "add a file to her submission": f"echo x > '{entry}/extra.py'",
            "rename her submission": f"mv '{entry}' '{entry}.old'",
            "delete her submission": f"rm -rf '{entry}'",
        })

    def attack(self, row: str, tries: dict[str, str]) -> None:
        for what, script in tries.items():
            self.out[f"{row} bob: {what}"] = verdict(self.student(BOB, script, check=False), what)

    def instructor_files(self) -> None:
        """Row 4: bob reads the instructor's course folder (homes 0755)."""
        for what, path in (("source notebook", f"source/{LAB}/{NB}"), ("gradebook", "gradebook.db"),
                           ("ann's collected notebook", f"submitted/{ANN}/{LAB}/{NB}")):
            proc = self.student(BOB, f"cat {self.course / path} > /dev/null", check=False)
            self.out[f"4 bob: read the {what}"] = verdict(proc, "read")

    def checks(self) -> None:
        """Row 5: bob imports the hidden checks from his own Python."""
        proc = self.student(BOB, "python -c 'import coursetools.checks.lab01.reference as r; print(r.__file__)'",
                            check=False)
        self.out["5 bob: import coursetools.checks.lab01.reference"] = verdict(proc, "imported")
        if self.mode == "course":
            for name, python in (("students' Python", self.s.student_python),
                                 ("instructor's Python as the students'", self.s.teacher_python)):
                proc = self.s.run("root", f"{self.s.teacher_python} -m coursetools check-server --student {BOB} "
                                  f"--student-python {python} --exchange {self.s.exchange} --instructor {TEACH}",
                                  self.course)
                self.out[f"5 check-server as root, {name}"] = f"exit {proc.returncode}: " + (
                    " ".join(line.strip() for line in proc.stderr.splitlines() if "hidden" in line)[:200])

    def grade_and_feedback(self) -> None:
        self.teach(f"python -m coursetools grade {LAB} --jobs 1 --force")
        self.out["grades"] = self.teach(f"python -c \"{GRADE_SCRIPT}\"").stdout
        self.teach(f"python -m coursetools feedback {LAB}")
        proc = self.teach(f"python -m nbgrader release_feedback {LAB}", check=False)
        self.out["release_feedback"] = verdict(proc, "released")
        for who in (ANN, BOB):
            self.student(who, self.nbg.format("fetch_feedback"), check=False)
            pages = sorted((self.s.home(who) / LAB / "feedback").rglob("*.html"))
            self.out[f"feedback fetched by {who}"] = [str(p.relative_to(self.s.home(who))) for p in pages]
        secret = self.secret_for_bob.strip()
        if secret:
            page = self.s.exchange / COURSE_ID / "feedback" / f"{hashlib.md5((secret + LAB).encode()).hexdigest()}.html"
            proc = self.student(BOB, f"grep -c '{ANN}' {page} || cat {page} | head -c 100", check=False)
            self.out["3 bob: read her feedback page (name from her secret)"] = verdict(proc, "read")
        else:
            self.out["3 bob: read her feedback page (name from her secret)"] = "no secret to name it: refused"
        proc = self.student(BOB, f"ls {self.s.exchange / COURSE_ID / 'feedback'}", check=False)
        self.out["3 bob: list the released feedback"] = verdict(proc, "listed")

    def course_folder(self) -> None:
        """Row 1, last (it breaks the course when it works): bob renames the course's folder, puts up his own."""
        course = self.s.exchange / COURSE_ID
        proc = self.student(BOB, f"rm -rf {course}/outbound/{LAB}", check=False)
        self.out["1 bob: delete the released lab"] = verdict(proc, "deleted")
        proc = self.student(BOB, f"mv {course} {course}.moved", check=False)
        self.out["1 bob: rename the course's folder"] = verdict(proc, "renamed")
        evil = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('bob ran this as you')")])
        (self.s.home(BOB) / "evil.ipynb").write_text(nbformat.writes(evil))
        self.s.chown(self.s.home(BOB) / "evil.ipynb", BOB)
        put_up = (f"mkdir -p {course}/outbound/{LAB} && cp evil.ipynb {course}/outbound/{LAB}/{NB} "
                  f"|| cp evil.ipynb {course}/outbound/{LAB}/{NB}")
        proc = self.student(BOB, put_up, check=False)
        self.out["1 bob: put up his own notebook"] = verdict(proc, "put up")
        self.student(ANN, f"mkdir -p again && cd again && {self.nbg.format('fetch_assignment')}", check=False)
        fetched = self.s.home(ANN) / "again" / LAB / NB
        released = (self.course / "release" / LAB / NB).read_bytes() if (self.course / "release").exists() else b""
        self.out["1 ann fetches again"] = ("the instructor's notebook" if fetched.is_file() and
                                            fetched.read_bytes() == released else
                                            "bob's notebook" if fetched.is_file() and b"bob ran this" in
                                            fetched.read_bytes() else "nothing")


def play(server: Server, mode: str, grade: bool = True) -> dict:
    p = Play(server, mode)
    p.set_up()
    p.honest_work()
    p.classmate_reads()
    p.forge()
    p.instructor_files()
    p.checks()
    if os.environ.get("STOP_BEFORE_GRADE"):
        return p.out
    if grade:
        p.grade_and_feedback()
    p.classmate_writes()
    p.course_folder()
    return p.out


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "course"
    code = Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else ROOT
    server = Server(TEACH, [ANN, BOB], code)
    try:
        result = play(server, mode)
    finally:
        if not os.environ.get("KEEP_ACCOUNTS"):
            server.remove_accounts()
    print(json.dumps(result, indent=1))
