"""The checker's channel to a kernel (`coursetools.channel.wire`, `coursetools.grading.checker`), with a real second process.

The process on the other end plays the submission's kernel: it runs the code a hidden test cell
sends (the channel's source and `serve`) after the student's definitions, exactly as a kernel does.
"""

from __future__ import annotations

import json
import socket
import struct
import subprocess
import sys
import time

import pytest

from coursetools.grading import checker
from coursetools.channel import wire
from course_lib.games import GameTree, Reversi
from course_lib.trace import Traced


def _serve(student_code: str, names: dict[str, str], group_fn=None):
    """Start a 'kernel' process with `student_code`; return (peer, the student's functions, process)."""
    run = checker.HiddenRun(checker.CheckCall("toy", "add", names), "/tmp")
    proc = subprocess.Popen([sys.executable, "-c", student_code + "\n" + run.code()])
    sock = run._accept(lambda: proc.poll() is None)
    assert sock is not None
    peer = checker.CheckerPeer(sock, time.monotonic() + 30)
    hello = peer.receive()
    assert hello["op"] == "hello" and hello["token"] == run.token
    found = {name: peer.dec(v) for name, v in hello["names"].items()}
    run.close()
    return peer, found, proc


def _end(peer, proc):
    peer.send({"op": "bye"})
    proc.wait(10)


def test_channel_records_every_call_in_the_checkers_trace():
    code = ("def minimax(game, state):\n"
            "    if game.is_terminal(state):\n        return game.utility(state, 'MAX')\n"
            "    values = [minimax(game, game.result(state, a)) for a in game.actions(state)]\n"
            "    return max(values) if game.to_move(state) == 'MAX' else min(values)\n")
    peer, fns, proc = _serve(code, {"minimax": "minimax"})
    tree = GameTree.from_leaves([3, 5, 2, 9, 12, 5, 23, 24], 2)
    game = Traced(tree)
    assert fns["minimax"](game, game.initial) == 12
    assert game.trace.leaf_values() == tree.leaf_values()  # minimax values every leaf, left to right
    assert game.trace.nodes_visited() == len(tree.nodes())
    _end(peer, proc)


MINIMAX = ("def minimax(game, state):\n"
           "    if game.is_terminal(state):\n        return game.utility(state, 'MAX')\n"
           "    values = [minimax(game, game.result(state, a)) for a in game.actions(state)]\n"
           "    return max(values) if game.to_move(state) == 'MAX' else min(values)\n")


def _steps(game):
    return [(e.kind, e.node) for e in game.trace.events("expand", "generate", "utility")]


def test_channel_free_questions_are_answered_in_the_kernel_and_graded_calls_recorded_here():
    peer, fns, proc = _serve(MINIMAX, {"minimax": "minimax"})
    tree = GameTree.from_leaves([3, 5, 2, 9, 12, 5, 23, 24], 2)
    remote, local = Traced(tree), Traced(tree)
    assert fns["minimax"](remote, remote.initial) == 12
    here: dict = {}
    exec(MINIMAX, here)
    here["minimax"](local, local.initial)
    # to_move and is_terminal were answered on the kernel's copy: no round trip, nothing recorded
    assert remote.trace.count("terminal_test") == 0 and remote.trace.count("to_move") == 0
    assert local.trace.count("terminal_test") == len(tree.nodes())
    # what the checks grade came here, in the same order as the search made it
    assert _steps(remote) == _steps(local) and remote.trace.leaf_values() == tree.leaf_values()
    _end(peer, proc)


def test_channel_graded_calls_come_in_records_not_one_round_trip_each():
    peer, fns, proc = _serve(MINIMAX, {"minimax": "minimax"})
    asked = []
    answer = peer.answer
    peer.answer = lambda msg: asked.append(msg.get("attr")) or answer(msg)  # requests the kernel makes of us
    tree = GameTree.from_leaves(list(range(27)), 3)
    remote, local = Traced(tree), Traced(tree)
    assert fns["minimax"](remote, remote.initial) == 20
    here: dict = {}
    exec(MINIMAX, here)
    here["minimax"](local, local.initial)
    assert asked == []  # every actions/result/utility call was answered on the kernel's copy ...
    assert _steps(remote) == _steps(local)  # ... and recorded here, in the order the search made them
    _end(peer, proc)


def test_channel_a_game_changed_in_the_kernel_is_caught_when_its_record_is_checked():
    cheat = "import course_lib.games.tree as t\nt.GameTree.utility = lambda self, s, p: 100\n" + MINIMAX
    peer, fns, proc = _serve(cheat, {"minimax": "minimax"})
    game = Traced(GameTree.from_leaves([3, 5, 2, 9], 2))
    with pytest.raises(wire.ChannelError, match="differently from the grader's"):
        fns["minimax"](game, game.initial)
    proc.kill()


def test_channel_a_game_that_is_not_a_course_game_answers_everything_here():
    from course_lib.games import Game

    class Wrapped(Game):  # the grader's own game class: the kernel cannot rebuild it, so no copy goes
        def __init__(self, inner):
            self.inner, self.initial, self.players = inner, inner.initial, inner.players

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def to_move(self, s):
            return self.inner.to_move(s)

        def actions(self, s):
            return self.inner.actions(s)

        def result(self, s, a):
            return self.inner.result(s, a)

        def is_terminal(self, s):
            return self.inner.is_terminal(s)

        def utility(self, s, p):
            return self.inner.utility(s, p)

    peer, fns, proc = _serve(MINIMAX, {"minimax": "minimax"})
    tree = GameTree.from_leaves([3, 5, 2, 9], 2)
    game = Traced(Wrapped(tree))
    assert fns["minimax"](game, game.initial) == 3
    assert game.trace.count("terminal_test") == len(tree.nodes()) and game.trace.count("to_move") == 3
    _end(peer, proc)


NIM_MINIMAX = MINIMAX.replace("'MAX'", "'P1'")


def _count_requests(peer):
    """The requests the kernel makes of the checker, as (op, attr or question)."""
    asked = []
    answer = peer.answer
    peer.answer = lambda msg: asked.append((msg.get("op"), msg.get("attr") or msg.get("what"))) or answer(msg)
    return asked


def test_channel_a_small_grader_game_goes_as_the_table_of_its_rules():
    from coursetools.checks.nim import NimState, ReferenceNim

    peer, fns, proc = _serve(NIM_MINIMAX, {"minimax": "minimax"})
    asked = _count_requests(peer)
    here: dict = {}
    exec(NIM_MINIMAX, here)  # the same search, run here on the grader's own game
    game = ReferenceNim((1, 2, 2))
    assert fns["minimax"](game, game.initial) == here["minimax"](game, game.initial)
    assert asked == []  # raw: nothing of it is graded, the kernel answered every question from the table
    # traced, from a position the table does not hold (P2 to move on the first heaps): one question for its
    # states, then the graded calls come in records and are made here, in the search's order
    remote, local = Traced(game), Traced(game)
    root = NimState((1, 2, 2), "P2")
    assert fns["minimax"](remote, root) == here["minimax"](local, root)
    assert asked == [("ask", "rules")]
    assert _steps(remote) == _steps(local) and len(_steps(remote)) > 100
    _end(peer, proc)


def test_channel_what_a_table_cannot_answer_crosses_as_a_call():
    from coursetools.checks.nim import ReferenceNim

    code = ("def probe(game, state):\n"
            "    out = []\n"
            "    for question in (lambda: game.result(state, (0, 5)), lambda: game.result(state, [0, 1]),\n"
            "                     lambda: game.result(state, (0, True)), lambda: game.utility(state, 'P1')):\n"
            "        try:\n            out.append(question())\n"
            "        except Exception as e:\n            out.append(type(e).__name__)\n"
            "    return out\n")
    peer, fns, proc = _serve(code, {"probe": "probe"})
    asked = _count_requests(peer)
    here: dict = {}
    exec(code, here)
    game = Traced(ReferenceNim((1, 2, 2)))
    # an illegal move (a list, a bool for a count) and the utility of a state that is not over: the checker's
    # game answers them, so the errors are its own (as the same probe meets them here), and each crosses as a call
    mine = here["probe"](ReferenceNim((1, 2, 2)), game.initial)
    assert "IllegalMoveError" in mine and fns["probe"](game, game.initial) == mine
    assert asked == [("call", "result")] * 3 + [("call", "utility")]
    assert game.trace.count("utility") == 0 and game.trace.count("generate") == 0
    _end(peer, proc)


def test_channel_a_table_changed_in_the_kernel_is_caught_when_its_record_is_checked():
    from coursetools.checks.nim import ReferenceNim

    cheat = ("import gc\n"
             "def minimax(game, state):\n"
             "    for rules in [r for r in gc.get_objects() if type(r).__name__ == '_Rules']:\n"
             "        rules.rows = [(m, t, a, k, tuple((p, 100) for p, _ in u) if u else u)\n"
             "                      for m, t, a, k, u in rules.rows]\n"
             "    return search(game, state)\n" + NIM_MINIMAX.replace("def minimax", "def search").replace(
                 "[minimax(", "[search("))
    peer, fns, proc = _serve(cheat, {"minimax": "minimax"})
    game = Traced(ReferenceNim((1, 2)))
    with pytest.raises(wire.ChannelError, match="differently from the grader's"):
        fns["minimax"](game, game.initial)
    proc.kill()


def test_channel_a_grader_game_too_large_to_list_answers_everything_here(monkeypatch):
    from coursetools.checks.nim import ReferenceNim

    monkeypatch.setattr(checker, "TABLE_STATES", 10)
    peer, fns, proc = _serve(NIM_MINIMAX, {"minimax": "minimax"})
    asked = _count_requests(peer)
    here: dict = {}
    exec(NIM_MINIMAX, here)
    game, local = Traced(ReferenceNim((1, 2, 2))), Traced(ReferenceNim((1, 2, 2)))  # more than 10 states
    assert fns["minimax"](game, game.initial) == here["minimax"](local, local.initial)
    # no table: every question crossed, the free ones too, so the trace is the whole search's
    assert ("call", "result") in asked and game.trace.count("terminal_test") == local.trace.count("terminal_test")
    assert _steps(game) == _steps(local)
    _end(peer, proc)


def test_channel_plain_games_cross_by_value_and_tables_come_back():
    code = ("def search(game, state, table):\n"
            "    table[state] = ('seen', type(game).__name__)\n"
            "    return len(game.actions(state))\n")
    peer, fns, proc = _serve(code, {"search": "search"})
    tree = GameTree.from_nested([[1, 2], [3, 4], 5])
    table: dict = {"kept": 1}
    assert fns["search"](tree, tree.initial, table) == 3
    assert table == {"kept": 1, tree.initial: ("seen", "GameTree")}
    _end(peer, proc)


def test_channel_a_reversi_without_pass_move_crosses_as_itself():
    """Reversi crosses by value with its rules: without a pass move, a player with no disc to place is skipped."""
    code = ("def turns(game, state):\n"
            "    return game.null_move, game.result(state, (0, 3)).to_move\n")
    peer, fns, proc = _serve(code, {"turns": "turns"})
    rows = [".WB.", "BWBW", ".WBB", ".WWW"]
    for null_move, after in ((False, "B"), (True, "W")):
        game = Reversi(4, null_move=null_move)
        assert fns["turns"](game, game.state_from(rows)) == (null_move, after)
    _end(peer, proc)


def test_channel_student_errors_keep_their_name_and_line():
    code = "class Oops(ValueError):\n    pass\ndef f(x):\n    raise Oops('no ' + str(x))\n"
    peer, fns, proc = _serve(code, {"f": "f"})
    with pytest.raises(ValueError, match="no 3") as info:
        fns["f"](3)
    assert type(info.value).__name__ == "Oops"
    assert info.value.student_where[0] == "f"
    _end(peer, proc)


@pytest.mark.parametrize("attack, expected", [
    ("object.__getattribute__(game, '_peer').request({'op': 'get', 'target': "
     "object.__getattribute__(game, '_rid'), 'attr': '__class__'})", "AttributeError"),
    ("object.__getattribute__(game, '_peer').call(object.__getattribute__(game, '_rid'), '__init__', (), {})",
     "AttributeError"),
    ("object.__getattribute__(game, '_peer').call(object.__getattribute__(game, '_rid'), None, (), {})",
     "TypeError"),
    ("game.trace.events.__self__", "AttributeError"),
])
def test_channel_lends_no_private_attribute_or_module(attack, expected):
    code = ("def probe(game):\n    try:\n        " + attack + "\n        return 'reached'\n"
            "    except Exception as exc:\n        return type(exc).__name__\n")
    peer, fns, proc = _serve(code, {"probe": "probe"})
    game = Traced(GameTree.from_leaves([1, 2], 2))
    assert fns["probe"](game) == expected
    _end(peer, proc)


def test_channel_a_malformed_message_ends_the_check_and_is_reported():
    run = checker.HiddenRun(checker.CheckCall("toy", "add", {"add": "add"}), "/tmp")
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)

    def connect_and_lie() -> None:
        client.connect(run.path)
        hello = json.dumps({"op": "hello", "token": "not-the-token", "names": {}}).encode()
        client.sendall(struct.pack(">I", len(hello)) + hello)

    import threading
    threading.Timer(0.2, connect_and_lie).start()
    verdict = run.run()
    client.close()
    assert not verdict.passed and "tampered" in verdict.message
    assert verdict.events == ["a malformed greeting on the check channel"]


def test_channel_refuses_values_it_does_not_know():
    peer = wire.Peer.__new__(wire.Peer)
    wire.Peer.__init__(peer, socket.socketpair()[0])
    for bad in ({"$x": 1}, {"$f": "1e400"}, {"$n": "os", "f": ["system"], "c": [1, "mine"], "v": [1, 2]},
                {"$r": 5, "s": "yours"}, {"$d": [[[1], 2]]}):
        with pytest.raises(wire.ChannelError):
            peer.dec(bad)


def test_channel_a_call_can_lend_the_students_function_the_graders_helper_for_that_call_only():
    """A check grades one function with the other graded functions it calls lent by the grader: for the length of
    one call the student's global name holds the checker's function (run here, on the checker's objects), then the
    student's own again; a name the student's module does not hold is not created."""
    code = ("def helper(game, state):\n    raise IndexError('the student helper is wrong')\n"
            "def search(game, state):\n    return helper(game, state) * 10\n"
            "def has(name):\n    return name in globals()\n")
    peer, fns, proc = _serve(code, {"search": "search", "has": "has"})
    tree = GameTree.from_leaves([3, 5, 2, 9], 2)
    game = Traced(tree)
    seen = []

    def helper(g, state):
        seen.append(g is game)
        return len(g.actions(state))

    assert wire.call_binding(fns["search"], {"helper": helper, "missing": helper}, game, game.initial) == 20
    assert seen == [True]  # the checker's own game came back to the checker's helper
    with pytest.raises(IndexError, match="the student helper is wrong"):
        fns["search"](game, game.initial)
    assert fns["has"]("missing") is False
    _end(peer, proc)
