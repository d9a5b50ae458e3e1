"""`coursetools.sandbox.safecopy` on real folders: links, FIFOs and sockets are left out and named, caps hold, the
source is untouched, and `printable` leaves no control character."""

from __future__ import annotations

import hashlib
import os
import socket

import pytest

from coursetools.sandbox.safecopy import copy_submission, printable, read_regular


def _tree(folder) -> dict[str, str]:
    out = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            out[key] = "-> " + os.readlink(path)
        elif path.is_file():
            out[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[key] = "dir" if path.is_dir() else "special"
    return out


def test_safecopy_leaves_out_links_fifos_and_sockets(tmp_path):
    src = tmp_path / "src"
    (src / "data").mkdir(parents=True)
    (src / "lab.ipynb").write_text("{}")
    (src / "data" / "board.txt").write_text("#####")
    (src / "notes.json").symlink_to("../../../source/lab/lab.ipynb")
    (src / "gone").symlink_to("/home/student/notes.txt")
    (src / "data" / "etc").symlink_to("/etc")
    os.mkfifo(src / "pipe")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(src / "sock"))
    before = _tree(src)
    copied = copy_submission(src, tmp_path / "dst")
    server.close()
    assert _tree(src) == before
    assert sorted(_tree(tmp_path / "dst")) == ["data", "data/board.txt", "lab.ipynb"]
    assert copied.left_out == ["a symlink data/etc -> /etc (left out)",
                               "a symlink gone -> /home/student/notes.txt (left out)",
                               "a symlink notes.json -> ../../../source/lab/lab.ipynb (left out)",
                               "a FIFO pipe (left out)", "a socket sock (left out)"]
    assert copied.capped is None and copied.files == 3


def test_safecopy_caps_files_and_bytes_and_copies_the_notebook_first(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for k in range(10):
        (src / f"a{k}.bin").write_bytes(b"x" * 1000)
    (src / "z.ipynb").write_text("{}")
    copied = copy_submission(src, tmp_path / "few", max_files=3, first=("z.ipynb",))
    assert sorted(p.name for p in (tmp_path / "few").iterdir()) == ["a0.bin", "a1.bin", "z.ipynb"]
    assert copied.capped and "more than 3 files" in copied.capped and "COURSE_SUBMISSION_MAX_FILES" in copied.capped
    copied = copy_submission(src, tmp_path / "small", max_bytes=2500)
    assert [p.stat().st_size for p in sorted((tmp_path / "small").iterdir())] == [1000, 1000]
    assert copied.capped and "COURSE_SUBMISSION_MAX_MB" in copied.capped


def test_safecopy_reads_no_link_and_prints_no_control_character(tmp_path):
    (tmp_path / "environ").symlink_to("/proc/self/environ")
    with pytest.raises(OSError):
        read_regular(tmp_path / "environ", 1000)
    text = printable("notes\x1b[2J\x1b]0;owned\x07\r\b\x9b\u202e\u200b\udcff.txt")
    assert text.isprintable() and text == "notes\\x1b[2J\\x1b]0;owned\\x07\\x0d\\x08\\x9b\\u202e\\u200b\\udcff.txt"
