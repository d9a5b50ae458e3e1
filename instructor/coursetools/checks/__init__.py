"""Grader-only checks, run by `coursetools.hidden.check` and the checker: one per lab, ``labNN``
(a room ``labNN/`` with ``reference.py``, ``cases.py`` and ``groups.py`` on the shared `kit`, or
still a single ``labNN.py`` for the labs not moved yet).

Expected values and traces come from the grader's own models (a room's `reference.py`, or
``reference*.py`` here) or from data written here, never from anything a submission could replace.
"""
