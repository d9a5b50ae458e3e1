"""The kernel manager of grading: every kernel it starts goes through the sandbox launcher.

Kept apart from `coursetools.sandbox.launcher`, which runs once per kernel as that launcher and so must not
pay for importing Jupyter.
"""

from __future__ import annotations

import subprocess
import sys

from jupyter_client.manager import AsyncKernelManager

from coursetools.sandbox.launcher import stop_container


class SandboxKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels start through `coursetools.sandbox.launcher`.

    Interrupts travel as messages (an ``interrupt_request``): a signal would reach bubblewrap,
    not the kernel inside it.
    """

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        cmd = super().format_kernel_cmd(extra_arguments)
        return [sys.executable, "-m", "coursetools.sandbox.launcher", "--"] + cmd

    async def _async_pre_start_kernel(self, **kw):
        self.kernel_spec.interrupt_mode = "message"
        return await super()._async_pre_start_kernel(**kw)

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
