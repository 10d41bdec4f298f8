"""Reads of class sessions: the teacher's lists and a student's open sessions (``lists``), and the
live monitor (``monitor``, with its tables' rows in ``tables`` and the standings in
``standings``). The names the views, sockets and tests call are importable from here."""

from classroom.sessions.selectors.lists import (
    classroom_sessions,
    playing_matches,
    session_title,
    student_open_sessions,
    student_session,
    student_table,
    students_at,
    students_not_in_lobby,
    tables_playing,
    teacher_session,
)
from classroom.sessions.selectors.monitor import session_monitor

__all__ = [
    "classroom_sessions",
    "playing_matches",
    "session_monitor",
    "session_title",
    "student_open_sessions",
    "student_session",
    "student_table",
    "students_at",
    "students_not_in_lobby",
    "tables_playing",
    "teacher_session",
]
