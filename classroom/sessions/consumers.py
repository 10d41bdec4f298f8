"""The sockets of class sessions.

``/ws/student/`` (students): the open sessions of the student's classes, pushed the moment the
teacher opens, starts or ends one, and "you are seated" when the teacher starts, so the home page
shows a Join button and the lobby page moves to the table without a reload.

    server -> client  {"type": "sessions", "sessions": [{id, title, classroom, status, joined,
                        join_url, lobby_url, play_url}]}      on connect and after every change
                      | {"type": "seated", "session_id": n, "match_id": n, "play_url": "..."}
                      | {"type": "pong"} | {"type": "error", "code": "...", "message": "..."}
    client -> server  {"type": "sync"} | {"type": "ping"}

A client's ``sync`` is answered at most once every ``SYNC_MIN_INTERVAL`` (a second): those asked
meanwhile share the next answer, so a page (or a script) asking thousands of times reads the
database once a second at most. Both sockets have the match socket's flood limit
(realtime/sockets.py).

``/ws/session/<id>/`` (the teacher of the session's class): the live monitor's news, on connect,
after every change of the session or of one of its matches (at most ``MONITOR_MIN_INTERVAL``
apart, however busy the tables are) and every ``MONITOR_TICK_SECONDS`` while it plays (stalls
grow without any event):

    server -> client  {"type": "monitor", "session": {id, status, paused, next_round},
                        "tables": [match ids]
                        | null, "answered": ["<match id>:<seat>", ...]}

``tables`` names the matches that moved since the last message, ``answered`` the seats whose
figures changed with them (only their rows of the page need fetching: a move changes its table's
card and its player's figures; ``<match>:*`` is every seat); null means "look at everything"
(on connect, after a change of the session itself). ``next_round`` is null, or, once the
teacher started another round, ``{"projector": url, "monitor": url, "watch": {old match id:
url}}``, where a page opened before it goes by itself. The tick names the tables that have not moved
for a while (``IDLE_SECONDS``): only their "no move for ..." can have changed. The page then
fetches its live part again, only those tables and their students when it can (``?tables=``):
the work and the bytes of a change follow what changed, not the size of the class. The message
reads only the session's row and its playing tables: the page's fetch is the one read of the
figures.
"""

from __future__ import annotations

import asyncio
import json
import time

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import reverse
from django.utils import translation

from accounts.models import Role
from accounts.socket_users import scope_language
from classroom.models import ClassSession, Enrollment, SessionTable
from classroom.sessions import push, selectors
from classroom.sessions.selectors.tables import STALL_SECONDS
from realtime import wire
from realtime.database_waits import bounded_database_sync_to_async
from realtime.layers import MembershipWatch
from realtime.sockets import (
    CLOSE_FORBIDDEN,
    CLOSE_UNAUTHENTICATED,
    CleanSocket,
    OutageAnswers,
    refuse,
    within_the_layer_wait,
)

MAX_MESSAGE_BYTES = 1024
# A client's syncs are answered at most this often (seconds); the rest share the next answer.
SYNC_MIN_INTERVAL = 1.0
MONITOR_MIN_INTERVAL = 0.5  # seconds: at most two messages a second
MONITOR_TICK_SECONDS = 10.0
# A table quiet for this long may hold a stalled student (STALL_SECONDS) by the next tick.
IDLE_SECONDS = max(0.0, STALL_SECONDS - MONITOR_TICK_SECONDS)


class _SmallJsonConsumer(OutageAnswers, CleanSocket, AsyncWebsocketConsumer):
    _synced_at = float("-inf")
    _sync_asked: asyncio.TimerHandle | None = None
    joined_groups: list[str] = []

    async def join(self, groups: list[str]) -> None:
        """Join ``groups``, and again if the channel layer loses them (a Redis restart). At the
        handshake: a channel layer that does not answer in time (Redis hung) is an outage, and the
        socket is closed with 4503 (``OutageAnswers``) well before Daphne drops the handshake."""
        self.joined_groups = groups
        await within_the_layer_wait(self._add_to(groups))
        self.membership_watch = MembershipWatch.of(self.channel_layer)
        if self.membership_watch is not None:
            self.membership_watch.watch(self.channel_name)

    async def _add_to(self, groups: list[str]) -> None:
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def _discard_from(self, groups: list[str]) -> None:
        for group in groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def leave(self) -> None:
        watch = getattr(self, "membership_watch", None)
        if watch is not None:
            watch.unwatch(self.channel_name)
        await within_the_layer_wait(self._discard_from(self.joined_groups))

    async def groups_lost(self, message):
        for group in self.joined_groups:
            await self.channel_layer.group_add(group, self.channel_name)
        if self._user_group is not None:
            await self.channel_layer.group_add(self._user_group, self.channel_name)
        await self.caught_up()

    async def caught_up(self):
        """What was pushed while the groups were lost may be missed: sync."""
        await self.sync()

    async def receive(self, text_data=None, bytes_data=None):
        if await self.refused_as_flood():
            return
        try:
            message = wire.read_message(text_data, max_bytes=MAX_MESSAGE_BYTES)
        except wire.Refused as refused:
            await self.send_error(refused.code, refused.message)
            return
        kind = message.get("type")
        if kind == "ping":
            await self.send(text_data='{"type": "pong"}')
        elif kind == "sync":
            await self._sync_asked_for()
        else:
            await self.send_error("unknown_type", "send sync or ping")

    async def sync(self):
        raise NotImplementedError

    async def _sync_asked_for(self):
        """The client's sync: at once when the last was answered long enough ago, else once at the
        end of the interval, for every sync asked until then."""
        if self._sync_asked is not None:
            return
        wait = self._synced_at + SYNC_MIN_INTERVAL - time.monotonic()
        if wait <= 0:
            self._synced_at = time.monotonic()
            await self.sync()
            return
        self._sync_asked = asyncio.get_running_loop().call_later(wait, self._sync_later)

    def _sync_later(self) -> None:
        self._sync_asked = None
        if self.closing:
            return
        self._synced_at = time.monotonic()
        self._sync_task = asyncio.get_running_loop().create_task(self.sync())  # kept: not collected

    async def disconnect(self, code):
        if self._sync_asked is not None:
            self._sync_asked.cancel()

    async def _send_json(self, payload):
        await self.send(text_data=json.dumps(payload, separators=(",", ":")))


class StudentConsumer(_SmallJsonConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await refuse(self, CLOSE_UNAUTHENTICATED)
            return
        if user.role != Role.STUDENT:
            await refuse(self, CLOSE_FORBIDDEN)
            return
        await self.join_user_group(user)
        classroom_ids = await bounded_database_sync_to_async(_student_classroom_ids)(user)
        await self.join(
            [push.student_group(user.pk)]
            + [push.class_group(classroom_id) for classroom_id in classroom_ids]
        )
        await self.accept()
        await self.sync()

    async def disconnect(self, code):
        await super().disconnect(code)
        await self.leave()

    async def sync(self):
        # In the child's language, as their pages: the titles are translated as they are read.
        sessions = await bounded_database_sync_to_async(_open_sessions_in)(
            scope_language(self.scope), self.scope["user"]
        )
        await self._send_json({"type": "sessions", "sessions": sessions})

    async def sessions_listed(self, message):
        await self.sync()

    async def sessions_seated(self, message):
        await self._send_json(
            {
                "type": "seated",
                "session_id": message["session_id"],
                "match_id": message["match_id"],
                "play_url": reverse("games:play", args=[message["match_id"]]),
            }
        )
        await self.sync()


def _open_sessions_in(language: str, student) -> list[dict]:
    with translation.override(language):
        return selectors.student_open_sessions(student=student)


def _student_classroom_ids(user) -> list[int]:
    return list(Enrollment.objects.filter(student=user).values_list("classroom_id", flat=True))


class SessionMonitorConsumer(_SmallJsonConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await refuse(self, CLOSE_UNAUTHENTICATED)
            return
        session = await bounded_database_sync_to_async(selectors.teacher_session)(
            teacher=user, session_id=self.scope["url_route"]["kwargs"]["session_id"]
        )
        if session is None:
            await refuse(self, CLOSE_FORBIDDEN)
            return
        await self.join_user_group(user)
        self.session_id = session.pk
        self.sent_at = 0.0
        self.pending: asyncio.TimerHandle | None = None
        self.playing = session.status == ClassSession.Status.PLAYING
        self.moved: set[int] | None = None  # matches moved since the last message; None: all
        self.answered: set[tuple[int, int]] = set()  # (match, seat) that answered since then
        self.tables: list[int] = []  # the session's playing matches, as of the last message
        self.last_moved: dict[int, float] = {}  # match -> when its news came (monotonic)
        self.connected_at = time.monotonic()
        await self.join([push.session_group(self.session_id)])
        await self.accept()
        await self.sync()
        self.ticker = asyncio.create_task(self._tick())

    async def disconnect(self, code):
        await super().disconnect(code)
        if getattr(self, "session_id", None) is None:
            return
        ticker = getattr(self, "ticker", None)
        if ticker is not None:
            ticker.cancel()
        if self.pending is not None:
            self.pending.cancel()
        await self.leave()

    async def caught_up(self):
        self.moved = None  # every table may have moved meanwhile
        self._soon()

    async def sync(self):
        self.sent_at = time.monotonic()
        moved, self.moved = self.moved, set()
        answered, self.answered = self.answered, set()
        news = await bounded_database_sync_to_async(_session_news)(
            self.session_id, self.scope["user"]
        )
        if news is None:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        session, self.tables = news
        self.playing = session["status"] == ClassSession.Status.PLAYING
        tables = None if moved is None else sorted(moved)
        seats = sorted(f"{match_id}:{seat}" for match_id, seat in answered)
        await self._send_json(
            {"type": "monitor", "session": session, "tables": tables, "answered": seats}
        )

    async def sessions_changed(self, message):
        match_ids = message.get("match_ids")
        if match_ids is None:  # the session itself changed
            self.moved = None
        else:
            now = time.monotonic()
            for match_id in match_ids:
                self.last_moved[match_id] = now
            if self.moved is not None:
                self.moved.update(match_ids)
            self.answered.update((match_id, seat) for match_id, seat in message.get("answered", ()))
        self._soon()

    def _soon(self) -> None:
        """A snapshot as soon as the throttle allows; news arriving meanwhile shares it."""
        if self.pending is not None:
            return
        delay = max(0.0, self.sent_at + MONITOR_MIN_INTERVAL - time.monotonic())
        loop = asyncio.get_running_loop()
        self.pending = loop.call_later(delay, self._fire)

    def _fire(self) -> None:
        self.pending = None
        task = asyncio.get_running_loop().create_task(self.sync())
        self._keep = task  # a reference, so the task is not collected mid-way

    async def _tick(self):
        while True:
            await asyncio.sleep(MONITOR_TICK_SECONDS)
            if self.playing:
                idle = self._idle_tables()
                if idle and self.moved is not None:
                    # Every seat of a quiet table: any of its players' "no move for" may grow.
                    self.moved.update(idle)
                    self.answered.update((match_id, "*") for match_id in idle)
                    self._soon()

    def _idle_tables(self) -> list[int]:
        quiet_since = time.monotonic() - IDLE_SECONDS
        return [
            match_id
            for match_id in self.tables
            if self.last_moved.get(match_id, self.connected_at) <= quiet_since
        ]


def _session_news(session_id: int, teacher) -> tuple[dict, list[int]] | None:
    """The session's status, and its tables' matches still playing."""
    session = selectors.teacher_session(teacher=teacher, session_id=session_id)
    if session is None:
        return None
    status = {
        "id": session.pk,
        "status": session.status,
        "paused": session.paused_at is not None,
        "next_round": _next_round(session),
    }
    return status, selectors.playing_matches(session=session)


def _next_round(session) -> dict | None:
    """Where the teacher's screens of this session go once another round has started."""
    if session.next_round_id is None:
        return None
    old = dict(
        SessionTable.objects.filter(session=session, match__isnull=False).values_list(
            "number", "match_id"
        )
    )
    new = dict(
        SessionTable.objects.filter(
            session_id=session.next_round_id, match__isnull=False
        ).values_list("number", "match_id")
    )
    return {
        "projector": reverse("classroom:sessions_projector", args=[session.next_round_id]),
        "monitor": reverse("classroom:sessions_detail", args=[session.next_round_id]),
        # A table's big-screen view goes to the same table of the new round.
        "watch": {
            str(match_id): reverse("games:watch", args=[new[number]])
            for number, match_id in old.items()
            if number in new
        },
    }
