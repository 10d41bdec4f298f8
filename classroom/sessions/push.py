"""News of class sessions for the sockets, through the channel layer, sent after the commit.

Three kinds of group: every student socket joins its classes' groups (a session opened or ended)
and its own group (you are seated: go to your table); the teacher's monitor and projector sockets
join their session's group (something changed: look again). Messages carry no state: the consumers
read it from the database, so a lost message only delays a display until the next one or the tick.
"""

from __future__ import annotations

from realtime import news


def class_group(classroom_id: int) -> str:
    return f"classroom.{classroom_id}.students"


def student_group(user_id: int) -> str:
    return f"student.{user_id}"


def session_group(session_id: int) -> str:
    return f"session.{session_id}"


def send_after_commit(group: str, message: dict) -> None:
    # All in one order, so that one socket's news of several groups (the class's list, the
    # student's seat) arrives in the order it was sent.
    news.send_after_commit(group, message, in_order_with="classroom.sessions")


def sessions_changed_for_class(classroom_id: int) -> None:
    """The class's students' home pages: the list of open sessions changed."""
    send_after_commit(class_group(classroom_id), {"type": "sessions.listed"})


def seated(student_id: int, session_id: int, match_id: int) -> None:
    send_after_commit(
        student_group(student_id),
        {"type": "sessions.seated", "session_id": session_id, "match_id": match_id},
    )


def session_changed(session_id: int) -> None:
    """The teacher's displays of the session: look again."""
    send_after_commit(session_group(session_id), {"type": "sessions.changed"})
