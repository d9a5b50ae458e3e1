"""``make dist``: build the package students install (sdist and wheel) and check it.

The package is built from a staging copy holding only what it is made of
(``pyproject.toml``, ``LICENSE``, ``course_lib/``), the same files the student edition
carries, so the wheel on the package index and an install from the edition's git tag
hold the same code. The built files are checked with ``twine check --strict`` and
opened: the wheel must hold ``course_lib`` and nothing of the instructor's.
``make publish`` uploads them with ``twine upload`` (credentials from the environment).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from coursetools.course.stamp import ConfigError, checked_config

PACKAGE_FILES = ("pyproject.toml", "LICENSE", "course_lib")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".ipynb_checkpoints", "*.egg-info")


def stage_package(root: Path, out: Path) -> Path:
    """Copy the files the package is built from into `out` (created)."""
    out.mkdir(parents=True, exist_ok=True)
    for name in PACKAGE_FILES:
        src = root / name
        if src.is_dir():
            shutil.copytree(src, out / name, ignore=IGNORE)
        else:
            shutil.copy(src, out / name)
    return out


def _run(cmd: list[str], cwd: Path | None = None) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def build_dist(root: Path, out: Path) -> list[Path]:
    """Build sdist and wheel of the course package into `out` (emptied first), check them, return their paths."""
    cfg = checked_config(root)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="course-dist-") as tmp:
        staged = stage_package(root, Path(tmp) / "package")
        _run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(out.resolve()), str(staged)])
    stem = f"{cfg.package.replace('-', '_')}-{cfg.version}"
    wheel, sdist = out / f"{stem}-py3-none-any.whl", out / f"{stem}.tar.gz"
    built = sorted(out.iterdir())
    if built != sorted([wheel, sdist]):
        raise RuntimeError(f"expected {wheel.name} and {sdist.name}, the build wrote {[p.name for p in built]}")
    _run([sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)])
    names = zipfile.ZipFile(wheel).namelist()
    stray = [n for n in names if not n.startswith(("course_lib/", f"{stem}.dist-info/"))]
    if stray or "course_lib/__init__.py" not in names:
        raise RuntimeError(f"{wheel.name} must hold course_lib and its metadata only; it holds {stray or names}")
    return [sdist, wheel]


def cmd_dist(args) -> int:
    """Build the package students install (sdist and wheel) into dist/ and check them with twine."""
    from coursetools import course_root

    root = course_root()
    try:
        paths = build_dist(root, Path(args.out) if args.out else root / "dist")
    except ConfigError as exc:
        print(f"coursetools dist refused: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        print(f"coursetools dist failed: {exc}", file=sys.stderr)
        return 1
    for path in paths:
        print(f"built and checked {path}")
    return 0
