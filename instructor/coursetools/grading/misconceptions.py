"""What a failed hidden test diagnosed: the known mistakes its hint names (grader only).

Every check writes its hint on a line of its own, ``Hint: ...`` (`checks.common.fail` and
`checks.common.sequence_message`), up to the picture (``The tree:`` / ``The position:``) or the
end. A lab's known mistakes are what its checks already name: each `kit.Mistake` (its ``key``)
of the lab's check modules, the keys of a ``HINTS`` table and the ``*_HINT`` constants. A hint
holding one of their texts diagnoses that mistake; a hint that matches none is kept under its
first words; an explanation of the first wrong step that names no known mistake (and the older
``this matches none of the known mistakes``, or kit.NO_MODEL's words) is recorded as such.

The grader runs this in its own process when a hidden test fails and writes the result into the
autograded notebook's cell metadata (`preprocessors.GuardedExecute`). Text that came from the
student's kernel (exception messages, their source lines, reprs, strings) can appear in a
verdict's message: a hint section overlapping any of it is not trusted and diagnoses nothing.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import re
from typing import Iterable

UNEXPLAINED = "no known mistake"
UNTRUSTED_MIN = 12  # shorter student text cannot spell a hint; longer text is searched for in the message
#: What the explanation of a first wrong step says when it names no known mistake (`checks.explainer`).
FIRST_STEP = ("first differs from the correct one", "first differ from the correct ones",
              "took the same steps as the correct one")
_ENDS = ("\nThe tree:", "\nThe position:", "\nHint: ")


@functools.lru_cache(maxsize=None)
def catalogue(lab: str) -> tuple[tuple[str, str], ...]:
    """(key, hint text) of every known mistake the checks of `lab` can name, longest text first."""
    from coursetools.checks.kit import Mistake
    from coursetools.hidden import load_checks

    module = load_checks(lab)
    modules = [module]
    if hasattr(module, "__path__"):
        modules += [importlib.import_module(f"{module.__name__}.{m.name}") for m in pkgutil.iter_modules(module.__path__)]
    found: dict[str, str] = {}
    for mod in modules:
        for name, value in vars(mod).items():
            items = value if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if isinstance(item, Mistake):
                    found.setdefault(item.hint, item.key)
            if name == "HINTS" and isinstance(value, dict):
                for key, text in value.items():
                    found.setdefault(text, str(key))
            elif name.endswith("_HINT") and isinstance(value, str):
                found.setdefault(value, name[:-5].lower())
    return tuple(sorted(((k, t) for t, k in found.items() if len(t) >= UNTRUSTED_MIN), key=lambda kt: -len(kt[1])))


def hint_sections(message: str, untrusted: Iterable[str] | None = ()) -> list[str]:
    """The ``Hint:`` sections of a verdict's message that no text from the student's kernel overlaps
    (`untrusted` None: the kernel sent too much to tell, and no section is trusted). A message may
    quote the start of a student's text only, so its first 40 characters are looked for too."""
    if untrusted is None:
        return []
    spans = []
    for text in {t for t in untrusted if len(t) >= UNTRUSTED_MIN}:
        for piece in {text, text[:40]}:
            start = message.find(piece)
            while start >= 0:
                spans.append((start, start + len(text)))
                start = message.find(piece, start + 1)
    out = []
    for m in re.finditer(r"(?:^|\n)Hint: ", message):
        begin = m.end()
        ends = [i for i in (message.find(e, begin) for e in _ENDS) if i >= 0]
        end = min(ends, default=len(message))
        if not any(a < end and m.start() < b for a, b in spans):
            out.append(message[begin:end].strip())
    return out


def label(text: str) -> str:
    """A hint's first words, numbers blanked, as the name of a mistake no table names."""
    first = re.split(r"[:;.](?:\s|$)", text.replace("Looks like ", "", 1), maxsplit=1)[0]
    return re.sub(r"\d+", "#", " ".join(first.split()))[:70]


def diagnose(lab: str, message: str, untrusted: Iterable[str] | None = ()) -> list[dict]:
    """The mistakes a failed verdict's hints name: ``{"key": ..., "known": bool}`` each, in order."""
    try:
        known = catalogue(lab)
    except Exception:  # noqa: BLE001 - a lab without a check module still gets its hints' first words
        known = ()
    out: list[dict] = []
    for section in hint_sections(message, untrusted):
        if "matches none of the known mistakes" in section or "No known mistake's model gives" in section:
            out.append({"key": UNEXPLAINED, "known": False})
            continue
        spans: list[tuple[int, int]] = []
        keys = []
        for key, text in known:  # longest first: a text inside a longer one that matched is not a second mistake
            i = section.find(text)
            if i >= 0 and not any(a <= i and i + len(text) <= b for a, b in spans):
                spans.append((i, i + len(text)))
                keys.append((i, key))
        out += [{"key": k, "known": True} for _, k in sorted(keys)]
        if not keys and any(p in section for p in FIRST_STEP):
            out.append({"key": UNEXPLAINED, "known": False})
        elif not keys:
            out.append({"key": label(section), "known": False})
    seen: set = set()
    return [d for d in out if not (d["key"] in seen or seen.add(d["key"]))]
