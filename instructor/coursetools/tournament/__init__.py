"""Class tournaments: agents in sandboxed kernels, the coordinator, ratings and the page."""
