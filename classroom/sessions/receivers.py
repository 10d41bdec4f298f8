"""Live play's news, turned into news for the teacher's displays of a session."""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import OrderedDict

from asgiref.sync import sync_to_async
from django.db import connection
from django.dispatch import receiver

from classroom.models import SessionTable
from classroom.sessions import push
from classroom.sessions.services import session_finish_if_done
from games.signals import match_changed
from realtime.news import send_now

# match id -> its session's id, or None for a match outside any session. A match joins its
# session's table in the transaction that creates it (sessions.services._open_table), before any
# move, and never leaves it; so what a process once read stays true, and every later move of that
# match costs no query here.
# Ended sessions need no care: their monitors have closed, and news to an empty group is dropped.
_SESSION_OF_MATCH_LIMIT = 20_000
_session_of_match: OrderedDict[int, int | None] = OrderedDict()
_session_of_match_lock = threading.Lock()


_UNKNOWN = object()


def _known_session_of_match(match_id: int):
    with _session_of_match_lock:
        if match_id not in _session_of_match:
            return _UNKNOWN
        _session_of_match.move_to_end(match_id)
        return _session_of_match[match_id]


def session_of_match(match_id: int) -> int | None:
    known = _known_session_of_match(match_id)
    if known is not _UNKNOWN:
        return known
    session_id = (
        SessionTable.objects.filter(match_id=match_id).values_list("session_id", flat=True).first()
    )
    with _session_of_match_lock:
        _session_of_match[match_id] = session_id
        if len(_session_of_match) > _SESSION_OF_MATCH_LIMIT:
            _session_of_match.popitem(last=False)
    return session_id


def _read_session_of_match(match_id: int) -> int | None:
    try:
        return session_of_match(match_id)
    finally:
        # On a server's shared thread nothing else would hand the connection back to the pool.
        # A caller's transaction (a test's, say) keeps its own.
        if not connection.in_atomic_block:
            connection.close()


def forget_sessions_of_matches() -> None:
    """For tests: a test database that rolls back hands the same match ids out again."""
    with _session_of_match_lock:
        _session_of_match.clear()


# News of moves for a session's displays is gathered for this long in each process and sent as one
# message naming the tables that moved: a Redis round trip per move would cost the players more
# than it gives a screen that looks at most twice a second.
NEWS_GATHER_SECONDS = 0.05
# loop -> session -> (tables that moved, [match id, seat] of the seats that answered)
_gathering: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[int, tuple[set[int], set[tuple[int, int]]]]
] = weakref.WeakKeyDictionary()


@receiver(match_changed, dispatch_uid="classroom.sessions.match_changed")
async def tell_the_session_monitor(
    sender,
    match_id,
    version,
    events,
    finished=False,
    actor_seat=None,
    on_server_loop=True,
    **kwargs,
):
    """Sent after the commit, once per new version: the session's monitor sockets hear which
    tables moved and which seats answered (gathered for ``NEWS_GATHER_SECONDS``; they throttle
    themselves too). A table's last move may end the whole session.

    Asynchronous: a server hears of every move on its event loop, where a thread for each one
    slowed the moves themselves (docs/capacity.md); only a match's first move in a process reads
    the database."""
    session_id = _known_session_of_match(match_id)
    if session_id is _UNKNOWN:
        session_id = await sync_to_async(_read_session_of_match)(match_id)
    if session_id is None:
        return
    if finished:
        # Once per table; the session's own news goes out on that commit.
        await sync_to_async(_finish_session_if_done)(session_id)
    # The seats whose row of figures changed: who answered, and who moved (a stall ends).
    answered = {(match_id, e["seat"]) for e in events if e.get("type") == "attempt"}
    if actor_seat is not None:
        answered.add((match_id, actor_seat))
    group = push.session_group(session_id)
    if not on_server_loop:  # a loop of its own for this one send: nothing else to gather with
        await send_now(group, _session_news({match_id}, answered))
        return
    loop = asyncio.get_running_loop()
    gathering = _gathering.setdefault(loop, {})
    news = gathering.get(session_id)
    if news is not None:
        news[0].add(match_id)
        news[1].update(answered)
        return
    gathering[session_id] = ({match_id}, answered)
    try:
        await asyncio.sleep(NEWS_GATHER_SECONDS)
    finally:  # even if cancelled: a gathering left behind would swallow every later move's news
        moved, answered = gathering.pop(session_id)
    await send_now(group, _session_news(moved, answered))


def _session_news(moved: set[int], answered: set[tuple[int, int]]) -> dict:
    return {
        "type": "sessions.changed",
        "match_ids": sorted(moved),
        "answered": sorted([match_id, seat] for match_id, seat in answered),
    }


def _finish_session_if_done(session_id: int) -> None:
    try:
        session_finish_if_done(session_id=session_id)
    finally:
        if not connection.in_atomic_block:
            connection.close()
