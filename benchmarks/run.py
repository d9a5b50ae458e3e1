"""``make bench``: every benchmark, measured side by side in one run."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import engine  # noqa: E402

if __name__ == "__main__":
    print("== engine ==")
    result = engine.run()
    print("== grading ==")
    import grading  # noqa: E402  (benchmarks/grading.py: sequential vs --jobs N vs the nbclient floor)

    graded = grading.run()
    print("== self-check ==")
    import selfcheck  # noqa: E402  (benchmarks/selfcheck.py: one check, and a burst, against grading the same)

    checked = selfcheck.run()
    sys.exit(0 if result["ratio"] <= 1.5 and graded["ratio"] <= 1.3 and graded["slowest_checks"] <= 20
             and checked["met"] else 1)
