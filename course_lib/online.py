"""Check your lab online before the deadline: ``course_lib.check_online()`` in a lab notebook.

It sends the notebook as you see it to your course's self-check service, which runs the same tests as the final
grading in a sandbox and answers per test cell: passed or not, your points, what the visible tests said, how
many hidden checks passed, and an explanation of the first wrong step on a case drawn for this check. A check
never changes your grade.

Set two things once (your teacher gives both): ``COURSE_CHECK_URL`` (the service's address) and
``COURSE_CHECK_TOKEN`` (your personal token), as environment variables or in the cell::

    import os
    os.environ["COURSE_CHECK_URL"] = "https://check.example.edu"
    os.environ["COURSE_CHECK_TOKEN"] = "sc_..."
    import course_lib
    course_lib.check_online()

In Colab the notebook is read through Colab's own API. Elsewhere (JupyterLab, Notebook 7, VS Code) the saved
file is read, so save first: it says so when the file does not hold the code you ran last. It never writes your
notebook. Standard library only.

On the course's JupyterHub nothing needs setting: the Hub gives your server the service's address
(``COURSE_CHECK_URL``), says it is the course's Hub (``COURSE_CHECK_HUB=1``) and gives a token of its own for you
(``JUPYTERHUB_API_TOKEN``), and the service asks the Hub who you are. The Hub's token is sent only there: on any
other JupyterHub (Binder, a university's) it stays home, and a ``COURSE_CHECK_TOKEN`` is needed. A
``COURSE_CHECK_TOKEN`` you set always takes precedence.

At a deadline the service may be too busy to answer within its own wait: your check goes on, and this call
asks for its answer again every few seconds (up to `timeout`, 300 s by default). If it still has none, it says
how to read it later: ``course_lib.check_online(check_id="...")``.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

URL_ENV, TOKEN_ENV, LAB_ENV = "COURSE_CHECK_URL", "COURSE_CHECK_TOKEN", "COURSE_CHECK_LAB"
HUB_TOKEN_ENV = "JUPYTERHUB_API_TOKEN"  # a JupyterHub server's token for its user, which its kernels inherit
COURSE_HUB_ENV = "COURSE_CHECK_HUB"  # "1" only on the course's own Hub, whose service may see that token
LAB_NAME = re.compile(r"\b(\d\d_[a-z][a-z0-9_]*[a-z0-9])\b")


class CheckOnlineError(Exception):
    """Why a check could not be made, in plain words (shown without a traceback in a notebook)."""

    def _render_traceback_(self) -> list[str]:  # IPython shows this instead of the traceback
        return [f"check_online: {self}"]


class Answer(dict):
    """The service's answer (a dict), shown in a notebook as a short table with the explanations."""

    def rows(self) -> list[tuple[str, str, str, str]]:
        out = []
        for c in self.get("cells", []):
            hidden = c.get("hidden") or {}
            unit = hidden.get("unit")
            cases = f" {unit}" if unit else f" ({hidden['cases']} cases)" if hidden.get("cases") else ""
            out.append((str(c.get("cell", "?")), "passed" if c.get("verdict") == "passed" else "FAILED",
                        f"{c.get('points', 0):g}/{c.get('max_points', 0):g}",
                        f"{hidden.get('passed', 0)} of {hidden.get('of', 0)}{cases}"))
        return out

    def notes(self) -> list[tuple[str, str]]:
        out = []
        for c in self.get("cells", []):
            for key, label in (("visible", "visible tests"), ("explanation", "hidden checks")):
                if c.get(key):
                    out.append((f"{c.get('cell')} ({label})", str(c[key])))
        return out

    def summary(self) -> str:
        cells = self.get("cells", [])
        passed = sum(1 for c in cells if c.get("verdict") == "passed")
        points = sum(c.get("points", 0) for c in cells), sum(c.get("max_points", 0) for c in cells)
        text = (f"{self.get('lab', '?')}: {passed} of {len(cells)} test cells passed, {points[0]:g} of "
                f"{points[1]:g} points (a check, not your grade)")
        return text + (" [practice: the deadline has passed]" if self.get("practice") else "")

    def __repr__(self) -> str:
        if self.get("refused"):
            return f"check_online: {self['refused']}"
        rows = [("test cell", "verdict", "points", "hidden checks passed"), *self.rows()]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = [self.summary(), ""] + ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
        for title, text in self.notes():
            lines += ["", f"{title}:", *("  " + line for line in text.splitlines())]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        if self.get("refused"):
            return f"<p><b>check_online:</b> {html.escape(str(self['refused']))}</p>"
        head = "".join(f"<th>{h}</th>" for h in ("test cell", "verdict", "points", "hidden checks passed"))
        body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in r) + "</tr>" for r in self.rows())
        notes = "".join(f"<p><b>{html.escape(t)}</b></p><pre>{html.escape(x)}</pre>" for t, x in self.notes())
        return (f"<p>{html.escape(self.summary())}</p><table><tr>{head}</tr>{body}</table>{notes}")


# --- which notebook, as the student sees it -------------------------------------------------------------------

def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def notebook_path() -> Path | None:
    """The notebook this kernel runs for: its session path (JupyterLab, Notebook 7) or VS Code's variable."""
    shell = _shell()
    ns = getattr(shell, "user_ns", {}) or {}
    for value in (ns.get("__vsc_ipynb_file__"), ns.get("__session__"), os.environ.get("JPY_SESSION_NAME")):
        if value and str(value).endswith(".ipynb"):
            path = Path(str(value)).expanduser()
            if not path.is_absolute():
                path = Path.cwd() / path
            if path.is_file():
                return path
            if Path(path.name).is_file():  # a session path relative to the server's root, the kernel in its folder
                return Path(path.name).resolve()
    return None


def _colab_notebook() -> bytes:
    from google.colab import _message  # Colab's own API for the notebook open in the browser

    reply = _message.blocking_request("get_ipynb", request="", timeout_sec=60)
    if not isinstance(reply, dict) or "ipynb" not in reply:
        raise CheckOnlineError("Colab did not hand over the notebook: reload the page and run check_online() again")
    return json.dumps(reply["ipynb"]).encode()


def _code(source: Any) -> str:
    text = "".join(source) if isinstance(source, list) else str(source or "")
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def unsaved_run(saved: dict) -> int | None:
    """The number of a cell this kernel ran whose code the saved notebook does not hold (the last one), or None.

    The cells run are the kernel's own record (``In``); the cell that calls check_online() is left out, and so
    are cells with magics or shell commands (the kernel records them rewritten)."""
    shell = _shell()
    history = list(getattr(shell, "user_ns", {}).get("In", []) or [])
    cells = {_code(c.get("source")) for c in saved.get("cells", []) if c.get("cell_type") == "code"}
    for number in range(len(history) - 2, 0, -1):
        code = _code(history[number])
        if not code or "get_ipython()" in code or "check_online" in code:
            continue
        if code not in cells and not any(code in cell for cell in cells):
            return number
        return None  # the last cell run (before this one) is saved: an older one edited since is the student's
    return None


def read_notebook(path: str | os.PathLike | None = None) -> tuple[bytes, str | None]:
    """The notebook's bytes as the student sees it, and its file name (None in Colab)."""
    if path is None and "google.colab" in sys.modules:
        return _colab_notebook(), None
    found = Path(path) if path is not None else notebook_path()
    if found is None:
        raise CheckOnlineError("cannot tell which notebook this is: save it, then call "
                               "check_online(path='your_notebook.ipynb')")
    try:
        raw = found.read_bytes()
    except OSError as exc:
        raise CheckOnlineError(f"cannot read {found.name}: {exc.strerror}") from None
    if path is None:  # the notebook this kernel runs for: it must be saved, and hold what was run
        try:
            saved = json.loads(raw)
        except ValueError:
            raise CheckOnlineError(f"{found.name} is not a saved notebook (is it still being saved? try again)") \
                from None
        number = unsaved_run(saved)
        if number is not None:
            raise CheckOnlineError(f"save first: the saved {found.name} is older than your last run (cell [{number}] "
                                   "is not in it). Save the notebook (Ctrl+S, or File > Save), then run "
                                   "check_online() again.")
    return raw, found.name


def lab_of(raw: bytes, name: str | None) -> str | None:
    """The lab a notebook is: its file name (``02_minimax.ipynb``), else its number from its title (``# Lab 02:``),
    which the service knows the lab by."""
    found = LAB_NAME.search(name or "")
    if found:
        return found.group(1)
    try:
        cells = json.loads(raw).get("cells", [])
    except (ValueError, AttributeError):
        return None
    for cell in cells[:3]:
        if isinstance(cell, dict) and cell.get("cell_type") == "markdown":
            title = re.match(r"\s*#\s*Lab\s+(\d\d)\b", _code(cell.get("source")))
            if title:
                return title.group(1)
    return None


# --- the call -------------------------------------------------------------------------------------------------

def _error_body(exc: urllib.error.HTTPError) -> dict:
    try:
        body = json.loads(exc.read().decode(errors="replace"))
    except (ValueError, AttributeError, OSError):
        body = None
    return body if isinstance(body, dict) else {"error": f"the service answered {exc.code} {exc.reason}"}


class _Later(Exception):
    """The service stopped waiting (504) while the check goes on; its answer is kept under `check_id`."""

    def __init__(self, check_id: str) -> None:
        super().__init__(check_id)
        self.check_id = check_id


def _call(request: urllib.request.Request, url: str, timeout: float) -> tuple[int, dict]:
    """Send `request`: the status and the JSON answer, `_Later` on a 504 that names its check, or
    `CheckOnlineError` in plain words."""
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read().decode())
    except urllib.error.HTTPError as exc:
        body = _error_body(exc)
        if exc.code == 504 and isinstance(body.get("check_id"), str):
            raise _Later(body["check_id"]) from None
        message = str(body.get("error"))
        if exc.code == 429:
            retry = exc.headers.get("Retry-After")
            if retry and retry.isdigit() and "try again" not in message:
                message += f"; try again in {int(retry)} s"
        raise CheckOnlineError(message) from None
    except urllib.error.URLError as exc:
        raise CheckOnlineError(f"the self-check service at {url} is unreachable ({exc.reason}); check "
                               f"{URL_ENV} and your connection, or try again later") from None
    except (TimeoutError, OSError) as exc:
        raise CheckOnlineError(f"no answer from the self-check service within {timeout:.0f} s ({exc}); "
                               "try again in a few minutes") from None
    except ValueError:
        raise CheckOnlineError(f"the service at {url} did not answer as a self-check service does "
                               f"(is {URL_ENV} right?)") from None


def _headers(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "User-Agent": "course_lib.check_online"}


def post(url: str, token: str, lab: str, notebook: bytes, timeout: float) -> dict:
    """Send the notebook; the answer, `_Later` when the service stopped waiting, or `CheckOnlineError`."""
    request = urllib.request.Request(f"{url.rstrip('/')}/check/{lab}", data=notebook, method="POST",
                                     headers={**_headers(token), "Content-Type": "application/x-ipynb+json"})
    return _call(request, url, timeout)[1]


POLL_SECONDS = 5.0


def answer_of(url: str, token: str, check_id: str, timeout: float) -> dict:
    """The answer of an earlier check (``GET /check/ID``), asked again every few seconds until it is there or
    `timeout` seconds have passed (then `CheckOnlineError`, with how to ask later)."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{8,64}", check_id or ""):
        raise CheckOnlineError(f"{check_id!r} is not a check id (it is the id an earlier answer gave)")
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(f"{url.rstrip('/')}/check/{check_id}", method="GET", headers=_headers(token))
    while True:
        left = deadline - time.monotonic()
        status, body = _call(request, url, max(1.0, min(30.0, left)))
        if status == 200:
            return body
        if left <= POLL_SECONDS:
            raise CheckOnlineError(f"no answer yet: the checkers are busy, your check goes on and its answer is "
                                   f"kept; read it later with course_lib.check_online(check_id={check_id!r})")
        time.sleep(POLL_SECONDS)


def hub_token() -> str:
    """The Hub's token for this user, on the course's own Hub only (anywhere else, "")."""
    if os.environ.get(COURSE_HUB_ENV, "").strip() != "1":
        return ""
    return os.environ.get(HUB_TOKEN_ENV, "").strip()


def check_online(lab: str | None = None, *, path: str | os.PathLike | None = None, url: str | None = None,
                 token: str | None = None, timeout: float = 300.0, check_id: str | None = None) -> Answer:
    """Check this notebook online with the course's hidden tests (never changes your grade); see the module.

    When the service is too busy to answer at once, the check goes on and this call waits for its answer (up to
    `timeout` seconds in all); ``check_online(check_id=...)`` reads the answer of an earlier check."""
    started = time.monotonic()
    token = token or os.environ.get(TOKEN_ENV, "").strip() or hub_token()
    if not token:
        raise CheckOnlineError(f"no token configured: set {TOKEN_ENV} to the personal token your teacher sent "
                               f"(os.environ['{TOKEN_ENV}'] = 'sc_...')")
    url = url or os.environ.get(URL_ENV, "").strip()
    if not url:
        raise CheckOnlineError(f"no service configured: set {URL_ENV} to the address your teacher gave")
    if check_id is not None:
        return Answer(answer_of(url, token, check_id, timeout))
    raw, name = read_notebook(path)
    lab = lab or os.environ.get(LAB_ENV) or lab_of(raw, name)
    if not lab:
        raise CheckOnlineError("cannot tell which lab this notebook is: call check_online('02_minimax') with its name")
    try:
        return Answer(post(url, token, lab, raw, timeout))
    except _Later as later:
        return Answer(answer_of(url, token, later.check_id, max(1.0, timeout - (time.monotonic() - started))))
