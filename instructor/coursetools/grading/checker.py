"""Hidden tests decided outside the submission's kernel.

A hidden test cell reads ``check("03_alphabeta", "pruning", alphabeta_value=alphabeta_value)``.
The grader does not run that line in the kernel: `parse_hidden` reads it, `HiddenRun` runs the
lab's check group here, in the grader's process, and lends the kernel the checker's games over
a Unix socket (`coursetools.channel.wire`). Each call of a student's function runs in the kernel; each
``game.actions(state)`` it makes runs here, on the checker's traced game. Nothing of the checks,
the references or the secret seed is ever sent to the kernel, and the verdict is this process's.
"""

from __future__ import annotations

import ast
import functools
import os
import secrets
import socket
import struct
import time
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from coursetools.channel import wire
from coursetools.checks.common import LentRandom, is_selfcheck
from coursetools.checks.kerneltext import redact
from coursetools.hidden import TIME_LIMIT_SECONDS, CheckFailed, CheckTimeout, load_group, timeout_message
from coursetools.grading.misconceptions import UNTRUSTED_MIN
from coursetools.sandbox.launcher import give_to_kernel

BEGIN, END = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
CONNECT_SECONDS = 30.0
FREE = ("to_move", "is_terminal")  # what the kernel answers on its own copy of a lent game (never graded)
# What the kernel also answers on its copy, but writes down and sends here, in order, before anything else it
# sends: the checker makes each call again on its traced game (so the trace is the checker's own) and checks
# that the kernel's copy gave the same answer.
LOGGED = ("actions", "result", "utility", "utilities")
RULES = ("to_move", "is_terminal", "actions", "result", "utility")  # what a listed game's table answers
TABLE_STATES = 20_000  # a grader-only game that opts in is listed for the kernel while it has at most this many


class HiddenFormError(ValueError):
    """A hidden test that is not made of ``check(lab, group, name=name, ...)`` calls (a lab set-up problem)."""


@dataclass(frozen=True)
class CheckCall:
    lab: str
    group: str
    names: dict  # the check's parameter -> the notebook name it is given


def split_hidden(source: str) -> tuple[str, str | None]:
    """The visible part of a test cell and its hidden part (None when it has none)."""
    if BEGIN not in source:
        return source, None
    before, rest = source.split(BEGIN, 1)
    hidden, _, after = rest.partition(END)
    return before + after, hidden


def parse_hidden(hidden: str) -> list[CheckCall]:
    """The ``check(...)`` calls of a hidden part; anything else is refused."""
    try:
        tree = ast.parse(hidden)
    except SyntaxError as exc:
        raise HiddenFormError(f"the hidden test does not parse: {exc}") from None
    calls = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "coursetools.hidden" \
                and [a.name for a in node.names] == ["check"]:
            continue
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "check"):
            raise HiddenFormError(f"a hidden test line is not a check(...) call: {ast.unparse(node)[:120]}")
        call = node.value
        args = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if len(args) != 2 or len(call.args) != 2:
            raise HiddenFormError("check() takes the lab and the group as two strings")
        names = {}
        for kw in call.keywords:
            if kw.arg is None or not isinstance(kw.value, ast.Name):
                raise HiddenFormError("check() is given the student's functions as name=name")
            names[kw.arg] = kw.value.id
        calls.append(CheckCall(args[0], args[1], names))
    if not calls:
        raise HiddenFormError("the hidden test has no check(...) call")
    return calls


# --- the checker's end of the channel ------------------------------------------------------------------------

_LENDABLE: tuple = ()


def _lendable(x: Any) -> bool:
    global _LENDABLE
    if not _LENDABLE:
        from course_lib.clock import Clock
        from course_lib.games import Game
        from course_lib.trace import Trace, Traced

        _LENDABLE = (Game, Traced, Trace, dict, Clock, LentRandom)
    if isinstance(x, _LENDABLE):
        return True
    if isinstance(x, functools.partial):
        return _lendable(x.func)
    if isinstance(x, types.FunctionType):
        return True
    if isinstance(x, types.MethodType):
        return _lendable(x.__self__)
    return False


DICT_METHODS = frozenset({"get", "keys", "values", "items", "setdefault", "pop", "update", "clear", "copy"})


class StudentError(Exception):
    """An exception raised by the student's code in the kernel, named as the student named it."""


class CheckerPeer(wire.Peer):
    games_in = frozenset({"GameTree"})  # what a student's function may return (built by its validating constructor)

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__(sock)
        self.deadline = deadline
        self._error_classes: dict[tuple, type] = {}
        self._methods_ok: set[tuple] = set()
        self.tables: dict[int, tuple[dict, int, dict]] = {}  # id -> (a dict sent as an argument, its tag, as synced)
        self.untrusted: set[str] | None = set()  # text the kernel wrote (errors, reprs, strings); None: too much
        # every piece of text the kernel sent, however short, and what this end sent it (a self-check's message
        # keeps none of the first that is not also the second: `kerneltext.redact`); None: too much to tell
        self.kernel_text: set[str] | None = set()
        self.sent_text: set[str] = set()
        self.text_seen = self.note_untrusted
        self.listed = {}  # reference id of a game lent with a table of its rules -> (the game, its states' indices)

    def note_untrusted(self, text: Any) -> None:
        if type(text) is str and self.kernel_text is not None:
            self.kernel_text.add(text)
            if len(self.kernel_text) > 20_000:
                self.kernel_text = None
        if type(text) is str and len(text) >= UNTRUSTED_MIN and self.untrusted is not None:
            self.untrusted.add(text)
            if len(self.untrusted) > 2000:  # past this, any hint in the message may be the kernel's
                self.untrusted = None

    def enc(self, x: Any, top: bool = False, depth: int = 0) -> Any:
        if type(x) is str and len(self.sent_text) < 20_000:
            self.sent_text.add(x)
        return super().enc(x, top, depth)

    def kernel_only_text(self) -> set[str] | None:
        """The text the kernel sent that this end never sent it (None: too much to tell)."""
        return None if self.kernel_text is None else self.kernel_text - self.sent_text

    def make_proxy(self, rid: int, methods: list, type_name: Any, text: Any) -> wire.Proxy:
        self.note_untrusted(str(text)[:300])
        self.note_untrusted(str(type_name)[:300])
        return super().make_proxy(rid, methods, type_name, text)

    def before_read(self) -> None:
        if self.alarm:  # the deadline is kept by SIGALRM (see HiddenRun.run): a blocking read is fastest
            return
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise CheckTimeout()
        self.sock.settimeout(left)

    alarm = False

    def _read(self, n: int) -> bytes:
        try:
            return super()._read(n)
        except (TimeoutError, socket.timeout):
            raise CheckTimeout() from None

    def enc_table(self, x: dict, depth: int) -> Any:
        sent = self.tables.get(id(x))
        if sent is not None and sent[0] is x and sent[2] == x:
            return {"$kd": sent[1]}
        tag = len(self.tables) + 1 if sent is None else sent[1]
        self.tables[id(x)] = (x, tag, dict(x))
        return {"$d": [[self.enc(k, depth=depth + 1), self.enc(v, depth=depth + 1)] for k, v in x.items()],
                "tag": tag}

    def free_questions(self, x: Any) -> dict:
        """A traced course game goes with a copy of the game, so a search makes few round trips; a lender that
        declares methods changing an argument in place (``lent_in_place``, `wire.IN_PLACE`) goes with their names.

        On that copy the kernel answers `FREE` (questions no check grades: `to_move`, `is_terminal`)
        and `LOGGED` (actions, results, utilities): those it writes down and sends here before
        anything else it sends, and `replay` makes them again on the traced game, in order. A small
        grader-only game (``lent_as_table``), traced or not, goes with the table of its rules instead
        of a copy (`list_rules`). An evaluation function, a clock or any other game is asked over the
        channel."""
        from course_lib.games import Game
        from course_lib.trace import Traced

        in_place = getattr(type(x), "lent_in_place", ())
        if in_place:  # methods that change an argument in place: the kernel runs them on its own object
            return {"in_place": [name for name in in_place if name in wire.IN_PLACE]}
        traced = isinstance(x, Traced)
        # A grader's wrapper that only watches the logged calls of a game (lab 03's Recorder) says which game it
        # answers as: the kernel answers as that game, and the calls it logs are made here on the wrapper.
        game = getattr(x.game, "answers_as", x.game) if traced else x
        if traced and wire.game_recipe(game) is not None:
            return {"copy": self.enc(game), "free": list(FREE), "logged": list(LOGGED)}
        if isinstance(game, Game) and getattr(type(game), "lent_as_table", False):
            table = self.list_rules(game, game.initial, {})
            if table is None:
                return {}
            self.listed[self.lent_ids[id(x)]] = (game, table[0])
            # Raw, nothing of it is graded: the kernel answers all of it. Traced: as a copy, its graded calls logged.
            free = [n for n in RULES if n not in LOGGED] if traced else list(RULES)
            return {"table": table[1], "free": free, "logged": [n for n in RULES if n in LOGGED] if traced else []}
        return {}

    def list_rules(self, game: Any, root: Any, known: dict) -> tuple[dict, dict] | None:
        """The rules of a small grader-only game (one that sets ``lent_as_table``), as a table for the kernel.

        Lists every state reachable from `root` that `known` (state -> index) lacks, with its player to
        move, whether it is terminal, its actions and their results (indices into the states listed so
        far) and, when terminal, each player's utility. Asked of the untraced game, so nothing is recorded.
        Returns (`known` with the new states, the listing), or None when the game is too large or cannot
        be listed (a state or an action that is not hashable, a rule that fails): then every question
        crosses as a call.
        """
        known, fresh = dict(known), []

        def index(s: Any) -> int:
            i = known.get(s)
            if i is None:
                i = known[s] = len(known)
                fresh.append(s)
            return i

        rows = []
        try:
            index(root)
            for s in fresh:  # grows while it is read: breadth first
                if len(known) > TABLE_STATES:
                    return None
                terminal = game.is_terminal(s) is True
                acts = list(game.actions(s))
                kids = [index(game.result(s, a)) for a in acts]
                hash(tuple(acts))
                utils = [[self.enc(p), self.enc(game.utility(s, p))] for p in game.players] if terminal else None
                rows.append([self.enc(game.to_move(s)), terminal, [self.enc(a) for a in acts], kids, utils])
        except Exception:  # noqa: BLE001 - a game that cannot be listed is asked call by call
            return None
        return known, {"from": len(known) - len(fresh), "states": [self.enc(s) for s in fresh], "rows": rows}

    def handle(self, msg: dict) -> None:
        if msg.get("op") == "log":
            self.replay(msg.get("calls"))
            return
        super().handle(msg)

    def replay(self, calls: Any) -> None:
        """The calls the kernel answered on its copy of a lent game: made again here, in the order it made them.

        The trace is therefore the checker's, as if each call had come over the channel; an answer of the
        kernel's copy that differs from the checker's (a copy the student's code changed) ends the check as
        a malformed message.
        """
        from course_lib.trace import Traced

        for entry in self._list(calls):
            if type(entry) is not list or len(entry) != 5 or type(entry[1]) is not str or entry[1] not in LOGGED:
                raise wire.ChannelError("a malformed record of calls")
            obj = self.target({"target": entry[0]})
            if not isinstance(obj, Traced):
                raise wire.ChannelError("a record of calls to an object lent without a copy")
            fn = self.callable_for(obj, entry[1])
            args = [self._dec_logged(a) for a in self._list(entry[2])]
            kw = entry[3]
            if type(kw) is not dict or not all(wire.is_identifier(k) for k in kw):
                raise wire.ChannelError("malformed keyword arguments")
            kw = {k: self._dec_logged(a) for k, a in kw.items()}
            outcome = entry[4]
            try:
                mine, failed = fn(*args, **kw), False
            except Exception:  # noqa: BLE001 - the kernel's copy must have failed too
                mine, failed = None, True
            if type(outcome) is not dict or len(outcome) != 1 or not ({"v", "raised", "k"} & outcome.keys()):
                raise wire.ChannelError("a malformed record of calls")
            if "k" in outcome:  # a child the kernel numbered without sending it: this end numbers its own
                if failed or entry[1] != "result" or not isinstance(mine, tuple):
                    raise wire.ChannelError(f"the kernel's copy of the game answered {entry[1]}() differently "
                                            "from the grader's (was the game changed?)")
                self.kept_states.append(mine)
            elif failed != ("raised" in outcome) or (not failed and self.dec(outcome["v"]) != mine):
                raise wire.ChannelError(f"the kernel's copy of the game answered {entry[1]}() differently "
                                        "from the grader's (was the game changed?)")

    def _dec_logged(self, v: Any) -> Any:
        """An argument in a record: a state by its number, a state numbered now, or any value."""
        if type(v) is dict and len(v) == 1:
            if "$i" in v:
                k = v["$i"]
                if type(k) is not int or not 0 <= k < len(self.kept_states):
                    raise wire.ChannelError("a record names a state that was never numbered")
                return self.kept_states[k]
            if "$k" in v:
                x = self.dec(v["$k"])
                if not isinstance(x, tuple):
                    raise wire.ChannelError("a record numbers a value that is not a state")
                self.kept_states.append(x)
                return x
        return self.dec(v)

    def allow_lending(self, x: Any) -> None:
        if not _lendable(x):
            raise PermissionError(f"the grader does not lend a {type(x).__name__}")

    def callable_for(self, obj: Any, attr: Any) -> Any:
        key = (type(obj), attr)
        if key in self._methods_ok:  # a method of this type already checked: the common case
            return getattr(obj, attr)
        fn = self._callable_for(obj, attr)
        if attr is not None and isinstance(fn, types.MethodType) and fn.__self__ is obj:
            self._methods_ok.add(key)
        return fn

    def _callable_for(self, obj: Any, attr: Any) -> Any:
        if attr is None:
            if isinstance(obj, (types.FunctionType, types.MethodType, functools.partial)):
                return obj
            raise TypeError(f"a {type(obj).__name__} is not callable")
        if attr in wire.DUNDERS:
            if isinstance(obj, (dict, _LENDABLE[2])):
                return getattr(obj, attr)
            raise TypeError(f"{attr} is not supported on a {type(obj).__name__}")
        if type(attr) is not str or attr.startswith("_"):
            raise AttributeError(f"{attr!r} is not a public attribute")
        if isinstance(obj, dict):
            if attr not in DICT_METHODS:
                raise AttributeError(f"'dict' object has no attribute {attr!r}")
            return getattr(obj, attr)
        fn = getattr(obj, attr)
        if isinstance(fn, types.MethodType) and (fn.__self__ is obj or _lendable(fn.__self__)):
            return fn
        raise AttributeError(f"{attr!r} of {type(obj).__name__} is not a method the grader lends")

    def get_attribute(self, obj: Any, attr: str) -> Any:
        if isinstance(obj, dict):
            if attr in DICT_METHODS:
                return getattr(obj, attr)
            raise AttributeError(f"'dict' object has no attribute {attr!r}")
        return getattr(obj, attr)

    def ask(self, obj: Any, what: Any) -> Any:
        if what == "hash":
            return super().ask(obj, what)
        if what == "rules":  # the kernel met a state its table of a listed game lacks
            rid = self._question.get("target")
            if rid not in self.listed:
                raise wire.ChannelError("a question about the rules of a game that was not listed")
            game, known = self.listed[rid]
            table = self.list_rules(game, self.dec(self._question.get("state")), known)
            if table is None:
                return None
            self.listed[rid] = (game, table[0])
            return table[1]
        raise PermissionError(f"the grader does not answer {what!r} about its objects")

    def write_back(self, sent: tuple, after: Any) -> None:
        args = sent[0]
        if type(after) is not list or len(after) != len(args):
            raise wire.ChannelError("a malformed answer (the arguments after the call)")
        for original, now in zip(args, after):
            if type(now) is dict and "$delta" in now and type(original) is dict:
                self._apply_delta(original, now)
            elif now is not None and wire.mutable(original):
                _sync(original, self.dec(now))

    def _apply_delta(self, table: dict, delta: dict) -> None:
        sent = self.tables.get(id(table))
        if sent is None or sent[0] is not table or sent[1] != delta.get("$delta"):
            raise wire.ChannelError("a change to a table the checker did not send")
        for pair in self._list(delta.get("set")):
            k, v = self._pair(pair)
            table[self.dec(k)] = self.dec(v)
        for k in self._list(delta.get("del")):
            table.pop(self.dec(k), None)
        self.tables[id(table)] = (table, sent[1], dict(table))

    def remote_error(self, reply: dict) -> BaseException:
        name = str(reply.get("type", "Exception"))
        bases = [b for b in reply.get("bases", []) if type(b) is str] if type(reply.get("bases")) is list else []
        if name in ("KeyboardInterrupt",):
            return CheckTimeout()
        base: type = StudentError
        if "IllegalMoveError" in [name] + bases:
            from course_lib.games import IllegalMoveError
            base = IllegalMoveError
        else:
            for b in [name] + bases:
                if b in wire.BUILTIN_ERRORS:
                    base = wire.BUILTIN_ERRORS[b]
                    break
        key = (name, base)
        if key not in self._error_classes:
            cls_name = name if wire.is_identifier(name) else "Error"
            self._error_classes[key] = base if cls_name == base.__name__ else type(cls_name, (base,), {})
        cls = self._error_classes[key]
        self.note_untrusted(name)
        exc = cls.__new__(cls)
        Exception.__init__(exc, str(reply.get("msg", ""))[:2000])
        self.note_untrusted(str(exc))
        where = reply.get("where")
        if type(where) is list and len(where) == 3:
            exc.student_where = (str(where[0])[:80], where[1] if type(where[1]) is int else 0, str(where[2])[:300])
            self.note_untrusted(exc.student_where[0])
            self.note_untrusted(exc.student_where[2])
        return exc


def _sync(original: Any, now: Any) -> None:
    """Make `original` (a container the checker sent) hold what the kernel's copy holds after a call."""
    if now is original:  # lent by reference: the kernel changed the checker's own object
        return
    if isinstance(original, list) and isinstance(now, list):
        olds = list(original)
        original[:] = now
        for i, (old, new) in enumerate(zip(olds, now)):
            if type(old) is type(new) and isinstance(old, (list, dict, set, tuple)):
                _sync(old, new)
                original[i] = old
    elif isinstance(original, dict) and isinstance(now, dict):
        original.clear()
        original.update(now)
    elif isinstance(original, set) and isinstance(now, set):
        original.clear()
        original.update(now)
    elif isinstance(original, tuple) and isinstance(now, tuple) and len(original) == len(now):
        for old, new in zip(original, now):
            if type(old) is type(new) and isinstance(old, (list, dict, set, tuple)):
                _sync(old, new)


# --- one hidden test ---------------------------------------------------------------------------------------

@dataclass
class Verdict:
    passed: bool
    message: str
    events: list[str] = field(default_factory=list)  # attempts to reach outside, for the instructor
    untrusted: set[str] | None = field(default_factory=set)  # kernel text the message may quote (None: any)


def kernel_code(path: str, token: str, names: list[str]) -> str:
    """The expression the kernel evaluates for one hidden test: the channel's source, then `serve`.

    The grader sends it as a ``user_expression``, which IPython evaluates without the input
    transformers a submission may have installed. The kernel runs the source once and keeps it as
    a module named after its digest, for the next checks of the same submission: what the kernel
    keeps is the kernel's (like everything it sends back, it decides nothing).
    """
    src, name = _channel_source()
    return ("(lambda s, t: (s.modules[" + repr(name) + "] if " + repr(name) + " in s.modules else "
            "s.modules.setdefault(" + repr(name) + ", (lambda m: (exec(compile(" + repr(src) + ", "
            + repr(wire.CHANNEL_FILE) + ", 'exec'), m.__dict__), m)[1])(t.ModuleType('_grader_channel')))))"
            "(__import__('sys'), __import__('types')).serve(" + repr(path) + ", " + repr(token) + ", "
            + repr(names) + ", globals())")


@functools.lru_cache(maxsize=1)
def _channel_source() -> tuple[str, str]:
    """The channel's source, and the module name a kernel keeps it under."""
    import hashlib

    src = Path(wire.__file__).read_text()
    return src, "_grader_channel_" + hashlib.sha256(src.encode()).hexdigest()[:16]


class HiddenRun:
    """One ``check(...)`` of a test cell: listen, let the kernel connect, run the group, decide."""

    def __init__(self, call: CheckCall, folder: str, time_limit: float = TIME_LIMIT_SECONDS) -> None:
        self.call, self.time_limit = call, time_limit
        self.token = secrets.token_hex(16)
        folder = folder if len(folder) < 70 else "/tmp"
        self.path = os.path.join(folder, f"check-{secrets.token_hex(6)}.sock")
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        os.chmod(self.path, 0o600)
        give_to_kernel(self.path)  # the kernel runs as an unprivileged user
        self.server.listen(1)
        self.events: list[str] = []

    def code(self) -> str:
        return kernel_code(self.path, self.token, sorted(set(self.call.names.values())))

    def close(self) -> None:
        self.server.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass

    def run(self, kernel_alive: Callable[[], bool] = lambda: True) -> Verdict:
        try:
            return self._run(kernel_alive)
        finally:
            self.close()

    def _run(self, kernel_alive: Callable[[], bool]) -> Verdict:
        group = self.call.group
        try:
            fn = load_group(self.call.lab, group)
        except Exception as exc:
            return Verdict(False, f"grader set-up problem: {exc}")
        sock = self._accept(kernel_alive)
        if sock is None:
            return Verdict(False, "the grader could not reach your functions: the kernel did not run this test "
                                  "cell as written (does your notebook change how cells run?)", self.events)
        deadline = time.monotonic() + self.time_limit + 5
        peer = CheckerPeer(sock, deadline)
        try:
            hello = peer.receive()
            if hello.get("op") != "hello" or hello.get("token") != self.token or type(hello.get("names")) is not dict:
                self.events.append("a malformed greeting on the check channel")
                return Verdict(False, "the grader could not reach your functions (the channel was tampered with)",
                               self.events)
            found = {name: peer.dec(v) for name, v in hello["names"].items() if name in self.call.names.values()}
            missing = [n for n in self.call.names.values() if n not in found]
            if missing:
                return Verdict(False, f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not defined: "
                                      "run the cell that defines it (and keep its name)", self.events)
            student = {param: _named(found[name], name) for param, name in self.call.names.items()}
            peer.deadline = time.monotonic() + self.time_limit
            passed = self._timed(peer, fn, student)
            if peer.malformed:
                return self._malformed(group, peer.malformed)
            message = (f"hidden tests of '{group}': all {passed} cases passed" if isinstance(passed, int)
                       else f"hidden tests of '{group}': passed")
            return Verdict(True, message, self.events)
        except CheckFailed as failure:
            if peer.malformed:  # the check caught the channel's error as the student's function failing
                return self._malformed(group, peer.malformed)
            message = str(failure)
            if is_selfcheck():  # nothing the kernel wrote leaves in a self-check's message but what it may
                message = redact(message, peer.kernel_only_text())
            return Verdict(False, message, self.events, peer.untrusted)
        except CheckTimeout:
            return Verdict(False, timeout_message(group, self.time_limit), self.events)
        except wire.ChannelError as exc:
            return self._malformed(group, peer.malformed or str(exc))
        except (RecursionError, MemoryError) as exc:  # a value the kernel sent too deep or too big to handle
            self.events.append(f"a message on the check channel too deep or too big to handle ({type(exc).__name__})")
            return Verdict(False, f"the check of '{group}' could not finish: the kernel sent a value too deep or "
                                  f"too big to handle ({type(exc).__name__})", self.events)
        except Exception as exc:  # noqa: BLE001 - whatever the kernel's messages caused: a failed check, not a lost grade
            what = f"{type(exc).__name__}: {str(exc)[:200]}"
            self.events.append(f"the check of '{group}' stopped on an unexpected error ({what})")
            return Verdict(False, f"the check of '{group}' could not finish ({type(exc).__name__})", self.events)
        finally:
            try:
                peer.send({"op": "bye"})
            except OSError:
                pass
            sock.close()

    def _malformed(self, group: str, problem: str) -> Verdict:
        """The check failed because the kernel broke the channel's protocol: flagged for the instructor."""
        self.events.append(f"a malformed message on the check channel ({problem})")
        return Verdict(False, f"the check of '{group}' could not finish: the kernel broke the grader's channel "
                              f"({problem})", self.events)

    def _timed(self, peer: CheckerPeer, fn: Callable[..., Any], student: dict) -> Any:
        """Run the group under the time limit: SIGALRM in the main thread, socket timeouts elsewhere."""
        import threading

        from coursetools.hidden import time_limit

        if threading.current_thread() is not threading.main_thread():
            return fn(**student)
        peer.alarm = True
        peer.sock.settimeout(None)
        kernel = peer_pid(peer.sock)
        try:
            with time_limit(self.time_limit, others=[kernel] if kernel else []):
                return fn(**student)
        finally:
            peer.alarm = False

    def _accept(self, kernel_alive: Callable[[], bool]) -> socket.socket | None:
        end = time.monotonic() + CONNECT_SECONDS
        self.server.settimeout(0.5)
        while time.monotonic() < end:
            try:
                sock, _ = self.server.accept()
                sock.settimeout(None)
                return sock
            except (TimeoutError, socket.timeout):
                if not kernel_alive():
                    return None
        return None


def peer_pid(sock: socket.socket) -> int | None:
    """The process at the other end of a Unix socket, as the operating system knows it (not as it says)."""
    try:
        pid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))[0]
    except (OSError, AttributeError, struct.error):
        return None
    return pid if pid > 0 else None


def _named(proxy: Any, name: str) -> Any:
    """The student's object as the checks see it; a proxy keeps the student's name for messages."""
    return _NamedProxy(proxy, name) if isinstance(proxy, wire.Proxy) else proxy


class _NamedProxy:
    """A student's function or class as the checks call it: its name, and calls into the kernel."""

    def __init__(self, proxy: wire.Proxy, name: str) -> None:
        self._proxy, self.__name__ = proxy, name

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return self._proxy(*args, **kw)

    def call_lending(self, lent: dict, *args: Any, **kw: Any) -> Any:
        """A call with the grader's functions `lent` in place of the global names the student's module holds."""
        return wire.call_binding(self._proxy, lent, *args, **kw)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._proxy, name)

    def __repr__(self) -> str:
        return repr(self._proxy)
