"""Checks on the project itself: unique test names, no lab solutions in course_lib."""

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Names of things students write in the labs; course_lib must not ship them.
SOLUTION_NAMES = re.compile(
    r"minimax|alpha_?beta|negamax|expectimax|maxn|max_n|transposition|iterative_deepening|"
    r"depth_limited|perfect_ordering|ordered_alphabeta|count_nodes|tree_stats|mcts",
    re.IGNORECASE,
)


def test_test_function_names_are_unique():
    names = Counter()
    for path in sorted(ROOT.glob("tests/**/*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_"):
                names[node.name] += 1
    duplicated = sorted(n for n, k in names.items() if k > 1)
    assert not duplicated, f"test names used more than once (one silently hides the other): {duplicated}"


def test_course_lib_defines_no_lab_solution():
    offenders = []
    for path in sorted((ROOT / "course_lib").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if SOLUTION_NAMES.search(node.name):
                    offenders.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert not offenders, f"course_lib must not implement what students write: {offenders}"


def test_importing_course_lib_does_no_heavy_work():
    import subprocess
    import sys

    code = "import sys, course_lib, course_lib.games, course_lib.trace; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
