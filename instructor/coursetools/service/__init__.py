"""The self-check service: a student checks a lab notebook before the deadline (issue 25)."""
