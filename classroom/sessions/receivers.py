"""Live play's news, turned into news for the teacher's displays of a session."""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.dispatch import receiver

from classroom.models import SessionTable
from classroom.sessions import push
from games.signals import match_changed

# match id -> its session's id, or None for a match outside any session. A match joins its
# session's table in the transaction that creates it (sessions.services._open_table), before any
# move, and never leaves it; so what a process once read stays true, and every later move of that
# match costs no query here (under load the look-up was a query per move: docs/capacity.md).
# Ended sessions need no care: their monitors have closed, and news to an empty group is dropped.
_SESSION_OF_MATCH_LIMIT = 20_000
_session_of_match: OrderedDict[int, int | None] = OrderedDict()
_session_of_match_lock = threading.Lock()


def session_of_match(match_id: int) -> int | None:
    with _session_of_match_lock:
        if match_id in _session_of_match:
            _session_of_match.move_to_end(match_id)
            return _session_of_match[match_id]
    session_id = (
        SessionTable.objects.filter(match_id=match_id).values_list("session_id", flat=True).first()
    )
    with _session_of_match_lock:
        _session_of_match[match_id] = session_id
        if len(_session_of_match) > _SESSION_OF_MATCH_LIMIT:
            _session_of_match.popitem(last=False)
    return session_id


def forget_sessions_of_matches() -> None:
    """For tests: a test database that rolls back hands the same match ids out again."""
    with _session_of_match_lock:
        _session_of_match.clear()


@receiver(match_changed, dispatch_uid="classroom.sessions.match_changed")
def tell_the_session_monitor(sender, match_id, version, events, **kwargs):
    """Sent after the commit, once per new version: the session's monitor sockets look again
    (they throttle themselves)."""
    session_id = session_of_match(match_id)
    if session_id is not None:
        push.send_soon(push.session_group(session_id), {"type": "sessions.changed"})
