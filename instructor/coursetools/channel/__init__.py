"""The channel between the grader and a sandboxed kernel: framing, encoding and the kernel's end."""
