"""The course's own files: set-up cells and badges, release, the student edition, the package, leak checks."""
