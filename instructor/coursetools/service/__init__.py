"""The self-check service: a student checks a lab notebook before the deadline (issue 25); the HTTP service, its
queue of checks, the workers and their services (docs/selfcheck.md)."""
