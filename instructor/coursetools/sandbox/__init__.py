"""The sandbox every grading kernel runs in: the launcher (bubblewrap or a container), its kernel
manager and the in-kernel watcher."""
