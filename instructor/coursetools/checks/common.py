"""Shared pieces of the hidden tests: exact comparisons, messages, seeded cases."""

from __future__ import annotations

import contextlib
import math
import os
import random
import re
import traceback
from typing import Any, Callable, Sequence

from coursetools.channel import wire
from coursetools.checks import kerneltext
from coursetools.hidden import CheckFailed

NUMBER_TYPES = (int, float)


def secret_seed() -> str | None:
    """The instructor's secret seed (``COURSE_SECRET_SEED`` of the grader's process; never sent to a kernel)."""
    return os.environ.get("COURSE_SECRET_SEED") or None


def rng(lab: str, group: str, secret: bool = False) -> random.Random:
    """A generator for `group`: fixed public cases, or the secret seed's cases, drawn afresh for the submission
    being graded (`for_student`: its student and timestamp), so a memorised hidden answer gains nothing; the same
    submission regraded draws the same cases. The kinds and the count of the cases never depend on the draw."""
    if not secret:
        return random.Random(f"{lab}/{group}/public")
    return random.Random(f"{lab}/{group}/{secret_seed()}" + (f"/{submission_key()}" if _SUBMISSION[0] else ""))


class LentRandom(random.Random):
    """A seeded `random.Random` of the grader's, lent to a student's search (lab 07) by the checker: every draw is made
    here, in the grader, so a check knows the state the search left it in. Nothing else of the grader is
    reachable through it: only its public methods are lent, as for any object the checker lends."""

    #: `shuffle` changes the student's list in place: the kernel shuffles it there, drawing each swap from this
    #: generator with ``randrange(i + 1)`` as `random.Random.shuffle` does (`wire.IN_PLACE`).
    lent_in_place = ("shuffle",)

    # Drawing with getrandbits as `random.Random` does (overriding `random` alone would change what choice() draws).
    _randbelow = random.Random._randbelow_with_getrandbits

    def random(self) -> float:
        """The next float in [0, 1): a Python method, so that it is lent like `choice` (lab 08 draws with it)."""
        return super().random()


#: Set (to "1") in the grading process of a self-check only, never in the final grading's.
SELFCHECK_ENV = "COURSE_SELFCHECK"


def is_selfcheck() -> bool:
    """True when the grader runs a student's self-check (its scratch course's config sets `SELFCHECK_ENV`): each
    group then runs the cases drawn for this check first (`kit.drawn_first`), so a failure is explained on one of
    them rather than on a case of the final grading."""
    return os.environ.get(SELFCHECK_ENV) == "1"


def has_secret() -> bool:
    """True when the grader runs with a secret seed."""
    return bool(secret_seed())


#: The submission the grader is checking: (student id, its timestamp as handed in), None outside grading.
_SUBMISSION: list[tuple[str, str] | None] = [None]


@contextlib.contextmanager
def for_student(student_id: str | None, timestamp: str | None = None):
    """Within the block, the secret cases are those drawn for this submission: `student_id` and its `timestamp`
    (nbgrader's ``timestamp.txt``; the grader sets both per submission)."""
    before = _SUBMISSION[0]
    key = (str(student_id or ""), " ".join(str(timestamp or "").split()))
    _SUBMISSION[0] = key if any(key) else None
    try:
        yield
    finally:
        _SUBMISSION[0] = before


def student_id() -> str | None:
    """The id of the student whose submission is being checked (set by `for_student`; never sent to a kernel)."""
    return (_SUBMISSION[0] or ("", ""))[0] or None


def submission_key() -> str:
    """The submission being checked as its draws are seeded: the student's id and the submission's timestamp."""
    student, stamp = _SUBMISSION[0] or ("", "")
    return f"student={student}/at={stamp}"


def student_rng(lab: str, group: str) -> random.Random:
    """The secret cases of `group` drawn for the submission being graded: from the secret seed, the student's id
    and the submission's timestamp, so two students, or two submissions, do not meet the same hidden positions
    (the same submission regraded: the same cases and the same grade)."""
    return random.Random(f"{lab}/{group}/{secret_seed()}/{submission_key()}")


# -- exact comparisons ------------------------------------------------------------------

def same(actual: Any, expected: Any) -> bool:
    """Equal AND of a plain type: an object that claims to equal everything is not."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(actual) is type(expected) and actual == expected
    if type(expected) in NUMBER_TYPES:
        if type(actual) not in NUMBER_TYPES:
            return False
        if math.isinf(expected) or math.isinf(actual):
            return actual == expected
        return math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-9)
    if type(expected) in (list, tuple):
        return (type(actual) is type(expected) and len(actual) == len(expected)
                and all(same(a, e) for a, e in zip(actual, expected)))
    if type(actual) is not type(expected):
        return False
    return bool(expected == actual) and bool(actual == expected)


#: Types whose values are compared by value (`same`); anything else returned is one of the student's own objects.
PLAIN_TYPES = (bool, int, float, str, bytes, type(None), tuple, list, dict, set, frozenset)


def same_answer(actual: Any, expected: Any) -> bool:
    """How two answers of ONE student's functions are compared with each other: `same`, and two objects of the
    student's own class (not plain data) that print the same, memory addresses left out, are the same answer
    (such objects compare by identity, so two equal-looking nodes of two runs would otherwise differ; whether
    an object is a right answer at all is for the group that grades that function)."""
    if same(actual, expected):
        return True
    if type(actual) is not type(expected) or isinstance(expected, PLAIN_TYPES):
        return False
    try:
        return _ADDRESS.sub("", repr(actual)) == _ADDRESS.sub("", repr(expected))
    except Exception:  # noqa: BLE001 - an object that cannot print is no match
        return False


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def is_number(x: Any) -> bool:
    """A plain int or float (not bool, not a look-alike object)."""
    return type(x) in NUMBER_TYPES


def first_difference(expected: Sequence[Any], actual: Sequence[Any]) -> int | None:
    """The first index where two sequences differ (None when they are the same)."""
    for i, (e, a) in enumerate(zip(expected, actual)):
        if not same(a, e):
            return i
    if len(expected) != len(actual):
        return min(len(expected), len(actual))
    return None


def show(seq: Sequence[Any], limit: int = 24) -> str:
    """A short text of a sequence, cut in the middle when long."""
    items = [str(x) for x in seq]
    if len(items) > limit:
        items = items[: limit - 4] + [f"... ({len(items) - limit + 2} more) ..."] + items[-2:]
    return "[" + ", ".join(items) + "]"


def sequence_message(what: str, expected: Sequence[Any], actual: Sequence[Any], where: str = "",
                     picture: str = "", hint: str = "") -> str:
    """Where two sequences first differ, with the neighbourhood only (the last two items that agree, the correct
    item there and theirs), never the whole expected sequence; then a hint."""
    i = first_difference(expected, actual)
    lines = [f"{what} differ{(' ' + where) if where else ''}."]
    if i is not None:
        before = [str(x) for x in expected[max(0, i - 2):i]]
        agree = (f"the first {i} agree (..., {', '.join(before)})" if i > 2 else
                 f"the first {i} agree ({', '.join(before)})" if i else "they differ from the first")
        e = expected[i] if i < len(expected) else "nothing more"
        a = actual[i] if i < len(actual) else "nothing more"
        lines.append(f"  {agree}; then the correct search: {e}, yours: {a}")
        lines.append(f"  yours ({len(actual)}): {show(actual)}")
    if hint:
        lines.append(f"Hint: {hint}")
    if picture:
        lines.append("The tree:")
        lines.append(picture)
    return "\n".join(lines)


def fail(message: str, hint: str = "", picture: str = "") -> None:
    """Raise `CheckFailed` with a hint and an optional tree picture."""
    text = message + (f"\nHint: {hint}" if hint else "") + (f"\nThe tree:\n{picture}" if picture else "")
    raise CheckFailed(text)


def call(fn: Callable[..., Any], *args: Any, where: str = "", **kwargs: Any) -> Any:
    """Call the student's `fn`; an exception becomes a message naming it and their line."""
    try:
        return fn(*args, **kwargs)
    except CheckFailed:
        raise
    except RecursionError:
        raise CheckFailed(
            f"{_name(fn)} recursed too deeply{(' ' + where) if where else ''}: does every path "
            "reach a terminal state, and does each call move to a child state?") from None
    except NotImplementedError:
        raise CheckFailed(f"{_name(fn)} is not written yet (it raised NotImplementedError).") from None
    except Exception as exc:  # the student's own error, reported in their words (a self-check's: cut)
        if is_selfcheck():
            raise CheckFailed(f"{_name(fn)} raised {kerneltext.cut_error(type(exc).__name__, str(exc))}"
                              f"{(' ' + where) if where else ''}{_student_line(exc)}") from None
        raise CheckFailed(
            f"{_name(fn)} raised {type(exc).__name__}: {exc}{(' ' + where) if where else ''}"
            f"{_student_line(exc)}") from None


def lending(fn: Callable[..., Any], lent: dict) -> Callable[..., Any]:
    """The student's `fn`, called with the grader's functions `lent` in place of the global names its module holds
    (the lab's rollout for theirs, say) for the length of each call, then their own again: a test grades `fn`, not
    the other graded functions it calls. A name the student's module does not hold is not lent."""
    def call(*args: Any, **kw: Any) -> Any:
        if isinstance(fn, wire.Proxy):
            return wire.call_binding(fn, lent, *args, **kw)
        inner = getattr(type(fn), "call_lending", None)  # a function of the submission's kernel (grading)
        if inner is not None:
            return inner(fn, lent, *args, **kw)
        with wire.globals_lent(fn, lent):
            return fn(*args, **kw)

    call.__name__ = getattr(fn, "__name__", "your function")
    return call


def _name(fn: Callable[..., Any]) -> str:
    return f"{getattr(fn, '__name__', 'your function')}()"


def _student_line(exc: BaseException) -> str:
    where = getattr(exc, "student_where", None)  # an error raised in the kernel: its last student frame
    if where and is_selfcheck():
        return kerneltext.student_line(*where)
    if where:
        name, lineno, line = where
        return f"\n  in {name}, line {lineno}:" + (f"\n    {line}" if line else "")
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if "coursetools" not in f.filename and "course_lib" not in f.filename]
    if not frames:
        return ""
    f = frames[-1]
    code = f"\n    {f.line}" if f.line else ""
    return f"\n  in {f.name}, line {f.lineno}:{code}"


def expect_number(value: Any, what: str) -> None:
    """Fail unless `value` is a plain int or float."""
    if not is_number(value):
        fail(f"{what} should be a number (int or float), but it is {type(value).__name__}: {value!r:.80}")


def require(condition: bool, message: str, hint: str = "", picture: str = "") -> None:
    """Fail with `message` unless `condition`."""
    if not condition:
        fail(message, hint, picture)
