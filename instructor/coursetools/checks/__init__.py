"""Grader-only checks, one module per lab (``lab01.py`` ...), run by `coursetools.hidden.check`.

Expected values and traces come from the reference searches in `reference.py` or
from data written here, never from anything a submission could replace.
"""
