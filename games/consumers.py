"""``/ws/match/<id>/``: one socket per player (or spectator) of a match.

The consumer is thin: it checks who is connecting, turns wire messages into calls of
``games.services.submit_move`` and, for every change of the match, sends its own seat's view.
Wire contract (docs/architecture.md, "Contracts"):

    client -> server  {"type": "move", "move": {...}, "client_id": "..."} | {"type": "sync"}
                      | {"type": "ping"}
    server -> client  {"type": "state", "version": n, "view": {...}, "events": [...]}
                      | {"type": "clock", "paused": bool, "server_time": ms}
                      | {"type": "error", "code": "...", "message": "..."} | {"type": "pong"}

State messages also carry ``server_time`` (the match's clock in ms, which its deadlines are on,
so a page can count down whatever its own clock says; it stands still while the game is paused),
``paused``, ``stopped`` (present, true, once the teacher stopped the match: the page reads it as
ended) and, on the mover's own socket, the ``client_id`` of the move they answer. A ``clock``
message says the teacher paused, resumed or added time.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

import engine
from accounts import digits
from engine import EngineError
from games import selectors, services, trace
from games.clock import clock
from games.delivery import MatchHub
from games.models import Match
from realtime import wire
from realtime.sockets import (
    CLOSE_FORBIDDEN,
    CLOSE_UNAUTHENTICATED,
    OUTAGES,
    TRY_AGAIN_MESSAGE,
    CleanSocket,
    OutageAnswers,
    refuse,
)

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096


class LoopDispatch:
    """Channels' ``dispatch`` without its close_old_connections, which it runs before every
    handler through the process's one shared sync thread: every frame and every piece of news
    would queue there behind other sockets' database work (docs/capacity.md). A consumer that
    takes this reaches the database only on the event loop's own connections
    (games/async_db.py) or through database_sync_to_async, which closes old connections itself."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class MatchConsumer(LoopDispatch, OutageAnswers, CleanSocket, AsyncWebsocketConsumer):
    # The match's news reaches this socket through its process's hub (games/delivery.py), which
    # hears it once for all the process's sockets of the match; the socket's own channel carries
    # only news of its user (realtime/sockets.py: their sign-in ended), which is rare.
    # News that waits while a state read from the database is on its way (``_news_held``).
    _held: list | None = None
    # The match's version at the last heartbeat, when this socket was behind it.
    _behind_of: int | None = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await refuse(self, CLOSE_UNAUTHENTICATED)
            return
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.version = -1
        self.hub = MatchHub.here()
        await self.join_user_group(user)
        async with self._news_held():  # news that comes before the first state waits for it
            # Joined before the match is read: news committed after the read reaches this socket
            # (what the read already had it drops by version).
            await self.hub.join(self.match_id, self)
            access = await self._access_at_connect(user)
            if access is None:
                # Nothing of this match goes to a socket not allowed it.
                self._held.clear()
                await self.hub.leave(self.match_id, self)
                await refuse(self, CLOSE_FORBIDDEN)
                return
            self.rules = engine.get_game(access.game)
            self.stopped = access.status == Match.Status.ABANDONED
            self._clock_from(access.clock_offset_ms, access.paused_at_ms)
            await self.accept()
            clock().watch(self.match_id)
            self.watching = True
            await self._send_state(access.version, access.state, [])
            self.hub.saw(self.match_id, access.version)
        clock().schedule(self.match_id, access.wake_at_ms)

    async def _access_at_connect(self, user):
        """What ``user`` may see of the match, or None. A solo game waits for its player
        (games.models.Match.waits_for_players): counted here, it runs on from where it stood if it
        stood still while they were away."""
        access = await selectors.match_access_async(match_id=self.match_id, user=user)
        if access is not None and access.seat is not None and access.waits_for_players:
            self.arrived = True
            if await services.match_player_arrived_async(match_id=self.match_id):
                access = await selectors.match_access_async(match_id=self.match_id, user=user)
        if access is not None:
            self.seat = access.seat
        return access

    async def disconnect(self, code):
        # Runs also when connect failed half-way (realtime/sockets.py): only what was done is
        # undone, or another socket's timer of the match would go.
        if getattr(self, "watching", False):
            clock().unwatch(self.match_id)
        if getattr(self, "hub", None) is not None:
            await self.hub.leave(self.match_id, self)
        if getattr(self, "arrived", False):
            self.arrived = False
            try:
                await services.match_player_left_async(match_id=self.match_id)
            except Exception:
                # Not counted out: the match plays on as before (the sweep wakes it).
                log.exception("match %s: the player's leaving was not recorded", self.match_id)

    # --- from the client -------------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        arrived_ns = time.monotonic_ns()
        if await self.refused_as_flood():
            return
        try:
            message = wire.read_message(text_data, max_bytes=MAX_MESSAGE_BYTES)
        except wire.Refused as refused:
            await self._error(refused.code, refused.message)
            return
        kind = message.get("type")
        if kind == "ping":
            await self.send(text_data='{"type": "pong"}')
        elif kind == "sync":
            await self._send_current()
        elif kind == "move":
            with trace.move(self.match_id, arrived_ns):  # its timeline (games/trace.py), if on
                await self._move(message, arrived_ns)
        else:
            await self._error("unknown_type", "send move, sync or ping")

    async def _move(self, message, arrived_ns: int):
        if self.seat is None:
            await self._error("spectator", "spectators watch; they do not play")
            return
        move = message.get("move")
        client_id = message.get("client_id", "")
        if not isinstance(move, dict):
            await self._error("malformed", "a move message carries a move object")
            return
        if not isinstance(client_id, str) or len(client_id) > services.MAX_CLIENT_ID:
            await self._error("bad_client_id", "client_id is a short string")
            return
        move = typed_numbers(move)  # "٧" typed on an Arabic keyboard is 7
        try:
            # Its shape (declared type, declared keys) costs no database work (engine.core.plays).
            self.rules.check_shape(move)
            result = await services.submit_move_async(
                match_id=self.match_id,
                user=self.scope["user"],
                move=move,
                client_id=client_id,
                arrived_ns=arrived_ns,
            )
        except (EngineError, services.MatchError) as error:
            await self._error(error.code, error.message, client_id=client_id)
            return
        except OUTAGES as outage:
            # Nothing was applied (or, if the commit's answer was lost, the same client_id sent
            # again is answered as a duplicate): the page may send it again. A move refused for
            # its wait is the server past saturation, many a second: not each one a warning.
            level = (
                logging.INFO if isinstance(outage, services.MoveWaitedTooLong) else logging.WARNING
            )
            log.log(level, "match %s: move answered try_again (%s)", self.match_id, outage)
            await self._error("try_again", TRY_AGAIN_MESSAGE, client_id=client_id)
            return
        if result.duplicate:
            # Already applied: answer with where the match is now (the broadcast went out then).
            await self._send_state(
                result.version, result.state, [], client_id=client_id, force=True
            )

    async def _send_current(self):
        async with self._news_held():  # what comes while the database is read follows its answer
            access = await selectors.match_access_async(
                match_id=self.match_id, user=self.scope["user"]
            )
            if access is None:
                await self.close(code=CLOSE_FORBIDDEN)
                return
            self.stopped = access.status == Match.Status.ABANDONED
            self._clock_from(access.clock_offset_ms, access.paused_at_ms)
            await self._send_state(access.version, access.state, [], force=True)
            self.hub.saw(self.match_id, access.version)
        clock().schedule(self.match_id, access.wake_at_ms)

    # --- from the match (games/delivery.py) ------------------------------------------------------

    async def hear(self, message):
        if self._held is not None:
            self._held.append(message)
            return
        kind = message["type"]
        if kind == "match.changed":
            await self._changed(message)
        elif kind == "match.stopped":
            self.stopped = True
            await self._error("match_stopped", "the teacher stopped this match")
            await self._send_state(message["version"], message["state"], [], force=True)
        elif kind == "match.version":
            await self._heartbeat(message["version"])
        elif kind == "match.clock":
            self._clock_from(message["clock_offset_ms"], message["paused_at_ms"])
            payload = {"type": "clock", "paused": self.paused_at_ms is not None}
            payload["server_time"] = self._match_time()
            await self.send(text_data=json.dumps(payload, separators=(",", ":")))
            clock().schedule(self.match_id, message["wake_at_ms"])
        else:
            log.warning("unknown match news %r", kind)

    async def _changed(self, message):
        version = message["version"]
        if version <= self.version:
            return  # stale news (a sync already brought something newer)
        mine = message["actor_seat"] is not None and message["actor_seat"] == self.seat
        await self._send_state(
            version,
            message["state"],
            message["events"],
            client_id=message["client_id"] if mine else "",
        )
        clock().schedule(self.match_id, message["wake_at_ms"])

    async def _heartbeat(self, version: int) -> None:
        """The match's version in the database (games/delivery.py, the heartbeat). A socket still
        behind the version of the previous beat a whole beat later has lost the news that would
        have brought it there: it syncs itself, and its page gets the state it missed. (Behind the
        version of this beat only, the news may just be on its way: a busy table moves between
        beats.)"""
        lost = self._behind_of is not None and self.version < self._behind_of
        self._behind_of = version if version > self.version else None
        if lost:
            self._behind_of = None
            await self._send_current()

    @contextlib.asynccontextmanager
    async def _news_held(self):
        """Keep the match's news back while a state read from the database is on its way, then
        send what is newer: the socket's states go out in version order."""
        if self._held is not None:  # already held by an outer step
            yield
            return
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held, None
            for message in held:
                await self.hear(message)

    # --- helpers ---------------------------------------------------------------------------------

    async def _send_state(self, version, state, events, client_id="", force=False):
        if version < self.version and not force:
            return
        view = self.rules.view(self.rules.load(state), self.seat)
        payload = {
            "type": "state",
            "version": version,
            "view": view,
            "events": self.rules.event_view(events, self.seat),
            # The match's own clock (paused, or behind by the time added), as its deadlines are.
            "server_time": self._match_time(),
            "paused": self.paused_at_ms is not None,
        }
        if self.stopped:
            # The teacher stopped the match: it is over for everyone, though nobody won it.
            payload["stopped"] = True
        if client_id:
            payload["client_id"] = client_id
        self.version = max(self.version, version)
        with trace.span("send:mover" if client_id else "send:other"):
            await self.send(text_data=json.dumps(payload, separators=(",", ":")))

    def _clock_from(self, clock_offset_ms: int, paused_at_ms: int | None) -> None:
        self.clock_offset_ms = clock_offset_ms
        self.paused_at_ms = paused_at_ms

    def _match_time(self) -> int:
        wall = self.paused_at_ms if self.paused_at_ms is not None else services.now_ms()
        return wall - self.clock_offset_ms

    async def _error(self, code, message, client_id=""):
        payload = {"type": "error", "code": code, "message": message}
        if client_id:
            payload["client_id"] = client_id
        await self.send(text_data=json.dumps(payload))


def typed_numbers(move: dict) -> dict:
    """The move with every number a child typed as text read as a number, in either digit set:
    ``{"type": "score", "value": "٧"}`` plays as ``{"type": "score", "value": 7}`` (an Arabic
    keyboard types Eastern Arabic digits; accounts/digits.py). Lists are read through; the move's
    type and any other text stay as they came, for the game's own checks."""
    return {key: value if key == "type" else _typed(value) for key, value in move.items()}


def _typed(value):
    if isinstance(value, list):
        return [_typed(item) for item in value]
    return digits.typed_number(value)
