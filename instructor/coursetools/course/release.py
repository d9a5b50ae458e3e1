"""Build the student versions of the labs with nbgrader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from coursetools import tool_env
from coursetools.labs import labs_in


def release_all(root: Path) -> int:
    """Run ``nbgrader generate_assignment`` for every lab in source/; 0 when all succeed."""
    from coursetools.course.stamp import stamp_all

    # The set-up cell and links come from one configuration: write them before releasing,
    # so a lab regenerated from an old copy cannot bring back a stale set-up cell.
    changed = stamp_all(root)
    if changed:
        print(f"stamped the set-up cell and links into {len(changed)} notebook(s)")
    found = labs_in(root)
    if not found:
        print("no labs in source/ yet: nothing to release")
        return 0
    for lab in found:
        print(f"releasing {lab} ...", flush=True)
        proc = subprocess.run(
            [sys.executable, "-m", "nbgrader", "generate_assignment", lab, "--force", "--log-level=WARN"],
            cwd=root,
            env=tool_env(),
        )
        if proc.returncode:
            print(f"nbgrader generate_assignment {lab} failed", file=sys.stderr)
            return proc.returncode
    print(f"released {len(found)} lab(s) into {root / 'release'}")
    return 0
