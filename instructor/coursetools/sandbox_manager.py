"""The kernel manager of grading: every kernel it starts goes through the sandbox launcher.

Kept apart from `coursetools.sandbox`, which runs once per kernel as that launcher and so must not
pay for importing Jupyter.
"""

from __future__ import annotations

import sys

from jupyter_client.manager import AsyncKernelManager


class SandboxKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels start through `coursetools.sandbox`.

    Interrupts travel as messages (an ``interrupt_request``): a signal would reach bubblewrap,
    not the kernel inside it.
    """

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        cmd = super().format_kernel_cmd(extra_arguments)
        return [sys.executable, "-m", "coursetools.sandbox", "--"] + cmd

    async def _async_pre_start_kernel(self, **kw):
        self.kernel_spec.interrupt_mode = "message"
        return await super()._async_pre_start_kernel(**kw)
