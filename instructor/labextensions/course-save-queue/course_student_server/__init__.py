"""What a student's server on the course server needs beyond ``course_lib``: nbgrader's exchange with private modes
(`course_student_server.exchange`). The course's JupyterLab extension (course-save-queue) ships with it."""
