"""News of class sessions for the sockets, through the channel layer, sent after the commit.

Three kinds of group: every student socket joins its classes' groups (a session opened or ended)
and its own group (you are seated: go to your table); the teacher's monitor and projector sockets
join their session's group (something changed: look again). Messages carry no state: the consumers
read it from the database, so a lost message only delays a display until the next one or the tick.
"""

from __future__ import annotations

import logging

from channels.layers import get_channel_layer
from django.db import transaction

from accounts.sockets import log_send_failure
from games.delivery import group_send_soon

log = logging.getLogger(__name__)


def class_group(classroom_id: int) -> str:
    return f"classroom.{classroom_id}.students"


def student_group(user_id: int) -> str:
    return f"student.{user_id}"


def session_group(session_id: int) -> str:
    return f"session.{session_id}"


async def send(group: str, message: dict) -> None:
    """Sent before this returns, from the event loop. Errors are logged: the write is committed,
    and displays catch up on the next message or tick."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group, message)
    except Exception as error:
        log_send_failure(log, message, group, error)


def send_after_commit(group: str, message: dict) -> None:
    # Never waiting for an event loop (a view's commit runs on a server's shared thread), and all
    # in one order, so that one socket's news of several groups (the class's list, the student's
    # seat) arrives in the order it was sent.
    transaction.on_commit(
        lambda: group_send_soon(group, message, in_order_with="classroom.sessions")
    )


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
