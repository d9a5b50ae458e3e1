"""The self-check service: the HTTP service, its queue of checks, the workers and their services (docs/selfcheck.md)."""
