"""The course on a shared server: JupyterHub with real accounts (``coursetools server``, docs/server.md)."""
