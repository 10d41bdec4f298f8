"""Live play's news, turned into news for the teacher's displays of a session."""

from __future__ import annotations

from django.dispatch import receiver

from classroom.models import ClassSession, SessionTable
from classroom.sessions import push
from games.signals import match_changed


@receiver(match_changed, dispatch_uid="classroom.sessions.match_changed")
def tell_the_session_monitor(sender, match_id, version, events, **kwargs):
    """Sent after the commit, once per new version: the session's monitor sockets look again
    (they throttle themselves, so a busy table costs one query here and nothing more)."""
    session_id = (
        SessionTable.objects.filter(match_id=match_id, session__status=ClassSession.Status.PLAYING)
        .values_list("session_id", flat=True)
        .first()
    )
    if session_id is not None:
        push.send_now(push.session_group(session_id), {"type": "sessions.changed"})
