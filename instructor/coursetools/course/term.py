"""A term's bookkeeping: checks frozen at hand-out, the exchange's folder, and the reset for the next term.

**Frozen checks.** Grades must not move because a check changed during the term. When a lab is handed
out (``coursetools hand-out LAB``), a fingerprint of everything that decides its grades is recorded
in ``frozen-checks.json``: the lab's hidden checks (``coursetools/checks/labNN/``), the checks' shared
modules, and the test cells of ``source/LAB/`` with their points. ``coursetools grade LAB`` compares
and refuses, naming the changed files, unless ``--regrade-with-new-checks`` is given; that regrade is
written to ``frozen-checks.log`` and the new fingerprint becomes the lab's.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

import coursetools

FROZEN = "frozen-checks.json"
FROZEN_LOG = "frozen-checks.log"
# A term's own files and folders: archived, then gone, when the next term starts.
TERM_FILES = ("gradebook.db", "submitted", "downloaded", "autograded", "feedback", "exports", FROZEN, FROZEN_LOG,
              "build/grading", "build/tournament")
NBGRADER_DEFAULT_EXCHANGE = "/usr/local/share/nbgrader/exchange"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def checks_files(root: Path, lab: str) -> dict[str, str]:
    """``{name: sha256}`` of what decides `lab`'s grades: its checks, the shared checks, its source test cells."""
    import nbformat

    checks = Path(coursetools.__file__).parent / "checks"
    room = checks / f"lab{lab[:2]}"
    files = sorted(room.rglob("*.py")) + sorted(checks.glob("*.py"))
    out = {f"checks/{p.relative_to(checks).as_posix()}": _digest(p.read_bytes()) for p in files}
    for nb_path in sorted((root / "source" / lab).glob("*.ipynb")):
        nb = nbformat.read(nb_path, as_version=4)
        for cell in nb.cells:
            g = cell.metadata.get("nbgrader", {})
            if g.get("grade") and not g.get("solution"):
                key = f"source/{lab}/{nb_path.name}#{g.get('grade_id')}"
                out[key] = _digest(json.dumps([cell.source, g.get("points")]).encode())
    return out


def _read(root: Path) -> dict:
    path = root / FROZEN
    return json.loads(path.read_text()) if path.is_file() else {}


def freeze(root: Path, lab: str) -> bool:
    """Record `lab`'s checks as handed out, unless already recorded; True when it was recorded now."""
    frozen = _read(root)
    if lab in frozen:
        return False
    frozen[lab] = {"frozen": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
                   "files": checks_files(root, lab)}
    (root / FROZEN).write_text(json.dumps(frozen, indent=1, sort_keys=True) + "\n")
    return True


def changed_checks(root: Path, lab: str) -> list[str] | None:
    """What changed in `lab`'s checks since it was handed out (None when it was never frozen)."""
    record = _read(root).get(lab)
    if record is None:
        return None
    now, then = checks_files(root, lab), record["files"]
    return sorted(name for name in set(now) | set(then) if now.get(name) != then.get(name))


def accept_new_checks(root: Path, lab: str, changed: list[str], why: str) -> Path:
    """Log a regrade with changed checks and make the new fingerprint the lab's; returns the log."""
    stamp = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    log = root / FROZEN_LOG
    with open(log, "a") as f:
        f.write(f"{stamp} {lab}: regraded with new checks ({why}); changed: {', '.join(changed)}\n")
    frozen = _read(root)
    frozen[lab] = {"frozen": stamp, "files": checks_files(root, lab)}
    (root / FROZEN).write_text(json.dumps(frozen, indent=1, sort_keys=True) + "\n")
    return log


def exchange_root(root: Path) -> str:
    """The exchange folder nbgrader will use here: Exchange.root from the Jupyter config paths and the course."""
    from jupyter_core.paths import jupyter_config_path
    from traitlets.config.loader import Config, PyFileConfigLoader

    cfg = Config()
    for folder in [*reversed(jupyter_config_path()), str(root)]:  # lowest precedence first
        if (Path(folder) / "nbgrader_config.py").is_file():
            cfg.merge(PyFileConfigLoader("nbgrader_config.py", path=folder).load_config())
    return str(cfg.Exchange.root) if "root" in cfg.Exchange else NBGRADER_DEFAULT_EXCHANGE


def archive_term(root: Path, name: str) -> tuple[Path, list[str]]:
    """Move the term's gradebook and folders into archive/<name>/; returns it and what was moved."""
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"archive name {name!r}: use a plain name such as 2026-autumn")
    url = coursetools_db_url(root)
    if not url.startswith("sqlite:///"):
        raise ValueError(f"the gradebook is {url.split('@')[-1]}, not a file here: back that database up and empty "
                         "it yourself, then archive again with COURSE_DB_URL unset")
    archive = root / "archive" / name
    if archive.exists():
        raise ValueError(f"{archive} exists already: choose another name (nothing was moved)")
    moved = []
    gradebook = Path(url[len("sqlite:///"):])
    for item in TERM_FILES:
        path = gradebook if item == "gradebook.db" else root / item
        if path.exists():
            dest = archive / item
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(path), str(dest))
            moved.append(item)
    return archive, moved


def coursetools_db_url(root: Path) -> str:
    """The course's gradebook address (CourseDirectory.db_url of its nbgrader_config.py)."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config().CourseDirectory.db_url
