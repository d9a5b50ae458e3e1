"""What of the student's kernel's text a self-check's answer may carry (grader only).

A self-check's answer goes back to the student before the deadline, so nothing the kernel was passed by a hidden
check may come back in it: the kernel has seen the hidden cases (the drawn ones and the final grading's fixed
ones) and can write them into any text it sends. Two rules, used only in a self-check's grading process:

- `cut_error`: the student's exception inside a hidden check's message is cut to its type (a built-in exception's
  name, else "an exception of its own class") and its first line, on one line, only when that line is written in
  the notebook as it was handed in (`written`) or has the shape of one of Python's own messages whose words are
  Python's and whose names are the notebook's, and never holds the word "secret"; else the type alone. One line
  and no line break: it cannot start a ``Hint:`` section or any other section of the message, nor pass a fixed
  case's message for one about a case drawn for this check (``... on secret ...`` on its first line).
- `redact`: every other piece of text the kernel sent (strings, the names and lines of its errors, the reprs of
  its objects) is replaced in the message, raw or quoted, by `HIDDEN_TEXT`.

`written` is set by the grader from the notebook's code cells before any of them runs, so what it holds was
written before any hidden case reached the kernel.
"""

from __future__ import annotations

import builtins
import re

HIDDEN_TEXT = "<text from your kernel, not shown>"
LINE_CHARS = 100
#: The words of Python's own error messages (TypeError, IndexError, KeyError, NameError, ...).
PYTHON_WORDS = frozenset("""
a an and the of to for in is not no has have object objects attribute attributes subscriptable callable iterable
hashable unhashable type types operand operands unsupported supported between instances instance list tuple dict
set str int float bool bytes none nonetype index indices out range must be integers integer or slices slice got
missing required positional keyword argument arguments takes but were was given unexpected multiple values value
name defined local variable referenced before assignment associated with too many enough unpack expected division
modulo by zero maximum recursion depth exceeded while calling python comparison can only concatenate cannot
interpreted as invalid literal base empty sequence arg max min pop from key keys item items assignment does
support len unsupported format string convert implicitly float division math domain error call function
method module has no attribute at least most one non iterator generator already executing
""".split())
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_QUOTED = re.compile(r"'([^'\n]{0,60})'")
_BUILTIN_ERRORS = frozenset(n for n, v in vars(builtins).items()
                            if isinstance(v, type) and issubclass(v, BaseException))

#: The notebook's code as handed in, one entry a stripped line (set by the grader before any cell runs).
_WRITTEN: list[frozenset[str]] = [frozenset()]
_WRITTEN_WORDS: list[frozenset[str]] = [frozenset()]


def set_written(sources: list[str]) -> None:
    """Remember the notebook's code cells as handed in, before any of them runs."""
    lines = {line.strip() for src in sources for line in src.splitlines() if line.strip()}
    _WRITTEN[0] = frozenset(lines)
    _WRITTEN_WORDS[0] = frozenset(w for line in lines for w in _WORD.findall(line) if not w.isdigit())


def written(text: str) -> bool:
    """True when `text` is written, as it is, in one line of the notebook as handed in."""
    return bool(text) and any(text in line for line in _WRITTEN[0])


def error_name(name: str) -> str:
    """An exception's type as a self-check may name it: a built-in exception's name, else a plain phrase."""
    return name if name in _BUILTIN_ERRORS else "an exception of its own class"


def _python_shaped(line: str) -> bool:
    """True when every word of `line` is Python's, a built-in's or a name written in the notebook, quoted names
    included, and it holds at most two numbers of at most two digits (argument counts)."""
    numbers = re.findall(r"\d+", line)
    if len(numbers) > 2 or any(len(n) > 2 for n in numbers):
        return False
    if re.search(r"[^\w\s'(),.:+\-*/%<>=!\[\]]", line):
        return False
    for word in _WORD.findall(line):
        if word.isdigit():
            continue
        if word.lower() not in PYTHON_WORDS and word not in _WRITTEN_WORDS[0] and not hasattr(builtins, word):
            return False
    return True


def _may_stay(text: str) -> bool:
    """True when the kernel's `text` may stay in a self-check's message: one printable line, without the word
    "secret" (the grader's mark of a case drawn for this check), written in the notebook or shaped like Python's."""
    return (len(text) <= LINE_CHARS and text.isprintable() and "secret" not in text.lower()
            and (written(text.strip()) or _python_shaped(text)))


def cut_error(name: str, message: str) -> str:
    """A student's exception as a self-check's message may quote it: its type, and its first line when that line is
    written in the notebook or shaped like Python's own message (`_python_shaped`)."""
    first = (str(message).strip().splitlines() or [""])[0].strip()
    shown = error_name(name)
    if first and _may_stay(first):
        return f"{shown}: {first}"
    return shown + (" (its message is not shown in a self-check)" if first else "")


def student_line(name: str, lineno: object, line: str) -> str:
    """Where the student's code raised, as a self-check may say it: the function and line number when the name is
    written in the notebook, the line itself when it is written there as it is."""
    if not (isinstance(name, str) and name in _WRITTEN_WORDS[0] and type(lineno) is int and 0 < lineno < 100_000):
        return ""
    code = line.strip() if isinstance(line, str) else ""
    return f"\n  in {name}, line {lineno}:" + (f"\n    {code}" if code and written(code) else "")


def redact(message: str, texts: set[str] | None) -> str:
    """`message` with every text the kernel sent (`texts`; None: too much to tell, so the whole message) replaced
    by `HIDDEN_TEXT`, quoted as repr quotes it or raw (three characters or more, standing as a word of its own:
    shorter pieces are letters and signs of the grader's own text as often); a copy cut short (``{x!r:.80}``) is
    found by its first characters and replaced to the length of the whole. Text written in the notebook as handed
    in, and Python's own messages about its names, stay (`written`, `_python_shaped`)."""
    if texts is None:
        return HIDDEN_TEXT
    spans: list[tuple[int, int]] = []
    for text in texts:
        if not text or _may_stay(text):
            continue
        forms = {repr(text), ascii(text)} | ({text} if len(text) >= 3 else set())
        for form in forms:
            head = form[:16]
            pattern = re.escape(head) if form != text else r"(?<!\w)" + re.escape(head) + (
                r"(?!\w)" if head == form else "")
            for m in re.finditer(pattern, message):
                end = m.start() + len(form)
                line_end = message.find("\n", m.start())
                if "\n" not in form and line_end >= 0:  # a copy cut short ends with its line at the latest
                    end = min(end, line_end)
                spans.append((m.start(), end))
    out, at = [], 0
    for start, end in sorted(spans):
        if end <= at:
            continue
        out.append(message[at:start] if start > at else "")
        if start >= at:
            out.append(HIDDEN_TEXT)
        at = max(at, end)
    return "".join(out) + message[at:]
