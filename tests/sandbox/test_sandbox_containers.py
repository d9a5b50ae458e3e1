"""The container sandbox's clean-up, with the real podman: a container is not the grader's child, so what a
stopped shard leaves running is found by its label and removed (`coursetools.sandbox.launcher.sweep_containers`)."""

from __future__ import annotations

import subprocess

from coursetools.sandbox import launcher as sandbox


def _names(label: str) -> list[str]:
    ps = subprocess.run(["podman", *sandbox.engine_args(), "ps", "-a", "--format", "{{.Names}}", "--filter",
                         f"label={sandbox.LABEL}={label}"], capture_output=True, text=True, timeout=60)
    assert ps.returncode == 0, ps.stderr
    return ps.stdout.split()


def test_sweep_removes_the_containers_a_stopped_shard_left_running(tmp_path):
    sandbox.probe("podman")  # the image, and the engine options this host needs
    root = str(tmp_path / "sandboxes")
    for k in range(2):  # as a kernel's container would be: labelled with its shard's sandbox root, still running
        run = subprocess.run(["podman", *sandbox.engine_args(), "run", "-d", "--name", f"coursetools-left-{k}",
                              "--label", f"{sandbox.LABEL}={root}", "--network", "none", "--read-only",
                              *sandbox._container_ulimits(64, 60), "-v", "/usr:/usr:ro", sandbox.IMAGE,
                              "/usr/bin/sleep", "300"], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
    other = str(tmp_path / "another-shard")
    assert len(_names(root)) == 2
    sandbox.sweep_containers("podman", other)  # another shard's sweep leaves them alone
    assert len(_names(root)) == 2
    sandbox.sweep_containers("bwrap", root)  # and so does a sweep of the other sandbox
    assert len(_names(root)) == 2
    sandbox.sweep_containers("podman", root)
    assert _names(root) == []
