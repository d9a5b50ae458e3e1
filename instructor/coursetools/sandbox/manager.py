"""The kernel manager of grading: every kernel it starts goes through the sandbox launcher.

Kept apart from `coursetools.sandbox.launcher`, which runs once per kernel as that launcher and so must not
pay for importing Jupyter.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading

from jupyter_client.manager import AsyncKernelManager

from coursetools.sandbox.launcher import (
    REPORT_CAP, cgroup_name, cgroup_usage, judge_report, mode, remove_cgroup, stop_container)


class _Channel:
    """The watcher's channel: a pipe whose write end goes into the sandbox and whose reading end stays here,
    drained by a thread as the kernel writes (so the kernel never waits on it, and can never take back a line)."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        self.data = bytearray()
        self.flooded = self.at_end = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drain, daemon=True)

    def start(self) -> None:
        os.close(self.write_end)  # the sandbox has it now: the channel ends when the last process in it ends
        self.write_end = -1
        self._thread.start()

    def _drain(self) -> None:
        try:
            while not self._stop.is_set():
                ready, _, _ = select.select([self.read_end], [], [], 0.2)
                if not ready:
                    continue
                chunk = os.read(self.read_end, 65536)
                if not chunk:
                    self.at_end = True
                    return
                room = REPORT_CAP - len(self.data)
                self.data += chunk[:max(room, 0)]
                self.flooded |= len(chunk) > room
        finally:
            os.close(self.read_end)

    def close(self, wait: float) -> None:
        """Wait up to `wait` seconds for the channel's end, then stop reading it."""
        if self._thread.is_alive():
            self._thread.join(wait)
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()
        else:  # never started: the kernel never launched
            os.close(self.read_end)
        if self.write_end >= 0:
            os.close(self.write_end)
            self.write_end = -1


class SandboxKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels start through `coursetools.sandbox.launcher`.

    Interrupts travel as messages (an ``interrupt_request``): a signal would reach bubblewrap,
    not the kernel inside it. It holds the reading end of the sandbox watcher's channel (see `report`).
    """

    _channel: _Channel | None = None
    _report: tuple[list[str], dict[str, int]] | None = None
    _process: subprocess.Popen | None = None

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        cmd = super().format_kernel_cmd(extra_arguments)
        options = ["--report-fd", str(self._channel.write_end)] if self._channel else []
        return [sys.executable, "-m", "coursetools.sandbox.launcher", *options, "--"] + cmd

    async def _async_pre_start_kernel(self, **kw):
        self.kernel_spec.interrupt_mode = "message"
        self._report = None
        # docker has no way to hand a container an open file: its kernels have no watcher's channel
        self._channel = _Channel() if mode() in ("bwrap", "podman") else None
        return await super()._async_pre_start_kernel(**kw)

    async def _async_launch_kernel(self, kernel_cmd: list[str], **kw):
        if self._channel is None:
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        try:
            return await super()._async_launch_kernel(kernel_cmd, pass_fds=(self._channel.write_end,), **kw)
        finally:
            self._channel.start()
            self._process = getattr(self.provisioner, "process", None)  # the provisioner forgets it once it ends

    async def _async_kill_kernel(self, restart: bool = False) -> None:
        """Kill the sandbox (every process in it dies with it) and wait for it, without the default's
        polling every 0.1 s: a class's worth of kernels ends sooner."""
        if not self.has_kernel:
            return
        stop_container(self.connection_file)  # a container outlives its engine's client: it is stopped by name
        await self.provisioner.kill(restart=restart)
        process = getattr(self.provisioner, "process", None)
        if process is not None:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.log.warning("the sandboxed kernel did not end within 5 s of being killed")
                return
        if self.has_kernel:
            await self.provisioner.wait()

    def report(self) -> tuple[list[str], dict[str, int]]:
        """Once the kernel has ended: what its submission tried beyond its sandbox, in words (`judge_report`), and
        its sandbox's memory counters (`cgroup_usage`; empty where the engine keeps the cgroup, or none was made).
        The end marker is this manager's: the kernel's process has exited and the channel reached its end."""
        if self._report is not None:
            return self._report
        channel, self._channel = self._channel, None
        process = self._process
        if channel is None or process is None:
            self._report = ([], {})
            return self._report
        try:
            exited = process.wait(timeout=10) is not None
        except subprocess.TimeoutExpired:
            exited = False
        channel.close(wait=5 if exited else 0)
        usage: dict[str, int] = {}
        if mode() == "bwrap":
            usage = cgroup_usage(cgroup_name(process.pid))
            remove_cgroup(cgroup_name(process.pid))
        self._report = (judge_report(bytes(channel.data), ended=exited and channel.at_end, flooded=channel.flooded),
                        usage)
        return self._report
