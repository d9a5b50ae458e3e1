"""Grading a class: the autograde coordinator, nbgrader's preprocessors, the hidden checks' runner,
hints, intake and the class report."""
