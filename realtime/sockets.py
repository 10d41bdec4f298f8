"""What every socket of the product shares: refusing a socket so that the page can tell why, ending
cleanly, the flood limit, closing at once when its user's sign-in ends, and answering outages
without a crash. Who the socket's user is, and their language, is accounts'
(accounts/socket_users.py).

A socket closed before its handshake completes is answered with HTTP 403 and nothing more: the
browser reports close code 1006 whatever the reason, and the pages, which stop reconnecting only
on 4401 (signed out) and 4403 (not allowed), retried every few seconds forever. So a refusal
accepts the socket, then closes it with its code.

Once a socket has begun closing (its server closed it, or its client went away) it sends nothing
more: Daphne refuses a send on a closing connection with an exception, which ended the consumer
without its ``disconnect`` (so without leaving its groups and its process's match hub), and the
client saw 1006 instead of the close code it was sent.

A database or Redis that is down, restarting or hung is not the client's fault and passes:
``OutageAnswers`` turns it into a clear answer instead of an exception (which Daphne turned into
HTTP 500 at the handshake, or a close with 1011, with a traceback in the log). A handshake is
closed with 4503 (like HTTP 503: unavailable for now; a server may only send 1000 or 3000-4999,
so not RFC 6455's 1013), after which the page reconnects as after any other close; a
message is answered ``{"type": "error", "code": "try_again"}`` and the socket stays open
(docs/live-play.md, "Outages"). A hung Redis holds a command for redis-py's socket timeout (15 s),
longer than Daphne waits for a handshake (5 s, after which it drops the connection without a close
code): a handshake's joins wait at most ``CHANNEL_LAYER_WAIT_S`` (``within_the_layer_wait``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from time import monotonic

import psycopg
import redis.exceptions
from channels.exceptions import StopConsumer
from django.db import InterfaceError, OperationalError, transaction

log = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_TRY_AGAIN = 4503
# What an unreachable, restarting or hung service raises: Django's wrapping of the database's
# errors (SQLite's "database is locked" included), psycopg's own (its pool's PoolTimeout) and
# redis-py's. Never a programming error: those still crash loudly.
OUTAGES: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    psycopg.OperationalError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
)
# What a channel layer's call raises while Redis is down, restarting or hung: an outage, logged in
# one line, not a programming error, logged with its traceback (asyncio's TimeoutError is an
# OSError).
CHANNEL_LAYER_OUTAGES: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OSError,
)


def log_send_failure(logger, message: dict, group: str, error: BaseException) -> None:
    """A group send that failed: an outage (Redis away) in one line, anything else with its
    traceback (called from the send's ``except`` block)."""
    if isinstance(error, CHANNEL_LAYER_OUTAGES):
        logger.warning(
            "could not send %s to %s (%s: %s)",
            message.get("type"),
            group,
            type(error).__name__,
            error,
        )
    else:
        logger.exception("could not send %s to %s", message.get("type"), group)


# A handshake waits on the channel layer at most this long for each of its joins (its user's
# group, then its own groups or its match's: two at most), well within Daphne's 5 s.
CHANNEL_LAYER_WAIT_S = 1.5
TRY_AGAIN_MESSAGE = "the server is busy or restarting; try again in a moment"
CLOSE_FLOOD = 4429
# The close code a socket's disconnect is given when its consumer ends without one (it failed).
CLOSE_ABNORMAL = 1006

# A child taps fast, but not 20 times a second for long: beyond this burst and rate messages are
# refused with "flood".
FLOOD_BURST = 20
FLOOD_RATE_PER_SECOND = 8.0
# Refusals further apart than this are forgotten: a new flood starts with the next one.
FLOOD_FORGET_SECONDS = 1.0
# A socket refused without such a pause for this long (wall time) is closed with CLOSE_FLOOD. A
# backlog the server reads in an instant is refused at worst, never closed.
FLOOD_CLOSE_SECONDS = 1.5
# The event loop is looked at this often (``LoopStalls``); a look this late means it stood still.
LOOP_LOOK_SECONDS = 0.1
LOOP_STOOD_STILL_SECONDS = 0.25
# A socket whose channel layer broke (Redis restarting) reads its channel again after this long.
RETRY_READ_SECONDS = 1.0


async def refuse(consumer, code: int) -> None:
    await consumer.accept()
    await consumer.close(code=code)


class OutageAnswers:
    """For an ``AsyncWebsocketConsumer``: an outage at the handshake closes the socket with
    ``CLOSE_TRY_AGAIN``; one while handling a message answers ``try_again``."""

    # Mixed in before ``CleanSocket``, which keeps ``_accepted``.

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except OUTAGES as outage:
            # The socket's own channel could not be read (Redis stopped): its page reconnects,
            # and joins its groups again on the Redis that comes back.
            log.warning(
                "%s: channel unreadable, socket told to try again (%s: %s)",
                scope.get("path"),
                type(outage).__name__,
                outage,
            )
            if not self._accepted:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})

    async def websocket_connect(self, message):
        try:
            await super().websocket_connect(message)
        except OUTAGES as outage:
            log.warning(
                "%s: socket told to try again (%s: %s)",
                self.scope.get("path"),
                type(outage).__name__,
                outage,
            )
            if not self._accepted:
                await self.accept()
            await self.close(code=CLOSE_TRY_AGAIN)

    async def websocket_receive(self, message):
        try:
            await super().websocket_receive(message)
        except OUTAGES as outage:
            log.warning(
                "%s: message answered try_again (%s: %s)",
                self.scope.get("path"),
                type(outage).__name__,
                outage,
            )
            await self.send(
                text_data=json.dumps(
                    {"type": "error", "code": "try_again", "message": TRY_AGAIN_MESSAGE}
                )
            )

    async def websocket_disconnect(self, message):
        try:
            await super().websocket_disconnect(message)
        except OUTAGES as outage:
            # Leaving groups failed: their memberships expire by themselves.
            log.warning(
                "%s: closed during an outage (%s: %s)",
                self.scope.get("path"),
                type(outage).__name__,
                outage,
            )
            raise StopConsumer() from None

    async def dispatch(self, message):
        try:
            await super().dispatch(message)
        except OUTAGES as outage:
            # News from the channel layer that needed the database: the page syncs when it
            # reconnects or asks, and the next news brings it up to date.
            log.warning(
                "%s: %s not handled (%s: %s)",
                self.scope.get("path"),
                message.get("type"),
                type(outage).__name__,
                outage,
            )


def user_group(user_id: int) -> str:
    """Every socket of the user, in every server process."""
    return f"user.{user_id}"


def user_sockets_end(*, user_id: int) -> None:
    """Closes every socket of the user (4401) once the current transaction commits: their secret
    changed, or the account was deleted or deactivated. Their sessions end with the same commit;
    a socket that outlived its session would go on playing as them."""
    transaction.on_commit(lambda: _send_to_user(user_id, {"type": "user.signed_out"}))


def _send_to_user(user_id: int, message: dict) -> None:
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(user_id), message)
    except CHANNEL_LAYER_OUTAGES as outage:
        # The change is committed; the sockets still end at their next handshake.
        log.warning(
            "could not end the sockets of user %s (%s: %s)", user_id, type(outage).__name__, outage
        )
    except Exception:
        log.exception("could not end the sockets of user %s", user_id)


class ChannelLayerUnanswered(redis.exceptions.TimeoutError):
    """The channel layer did not answer within ``CHANNEL_LAYER_WAIT_S``: an outage (one of
    ``OUTAGES``), as redis-py's own timeouts are."""


async def within_the_layer_wait(awaitable):
    """``awaitable`` (a socket's joins and leaves on the channel layer), given
    ``CHANNEL_LAYER_WAIT_S``. Past it the call is cancelled (redis-py then drops its connection,
    which a hung Redis never answers) and ``ChannelLayerUnanswered`` raised."""
    try:
        return await asyncio.wait_for(awaitable, CHANNEL_LAYER_WAIT_S)
    except TimeoutError:
        raise ChannelLayerUnanswered(
            f"no answer from the channel layer within {CHANNEL_LAYER_WAIT_S:g} s"
        ) from None


class LoopStalls:
    """When the running event loop last stood still: blocked by a long call, or its process
    paused. Looked at every ``LOOP_LOOK_SECONDS`` by a timer of the loop's own; a look that comes
    ``LOOP_STOOD_STILL_SECONDS`` late or more means nothing ran meanwhile, sockets' reads
    included."""

    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopStalls] = (
        weakref.WeakKeyDictionary()
    )

    @classmethod
    def here(cls) -> LoopStalls:
        loop = asyncio.get_running_loop()
        stalls = cls._by_loop.get(loop)
        if stalls is None:
            stalls = cls._by_loop[loop] = cls()
            loop.call_later(LOOP_LOOK_SECONDS, stalls._look)
        return stalls

    def __init__(self):
        self.looked_at = monotonic()
        self.still_from = self.still_until = float("-inf")

    def _look(self) -> None:
        now = monotonic()
        if now - self.looked_at >= LOOP_STOOD_STILL_SECONDS:
            self.still_from, self.still_until = self.looked_at, now
        self.looked_at = now
        asyncio.get_running_loop().call_later(LOOP_LOOK_SECONDS, self._look)

    def still_since(self, since: float, now: float) -> float | None:
        """If the loop stood still between ``since`` and ``now`` (the last time it did), the
        instant from which it may have; else None."""
        if now - self.looked_at >= LOOP_STOOD_STILL_SECONDS:
            # Not looked at since: the loop is running again only now, this look still to come.
            return max(self.looked_at, since)
        if self.still_until >= since:
            return max(self.still_from, since)
        return None


class FloodLimit:
    """A token bucket counted at the instants the client can have sent its messages, and a clock
    of sustained refusals that closes.

    The server reads a message later than its client sent it whenever it was not reading: its
    event loop stood still (a long call, a paused process) or the socket was busy with an earlier
    message (waiting on the database). What the client sent meanwhile is then read in an instant.
    Counted at the instants read, a client well under the limit was refused after every stall.
    Each message is counted instead at the earliest instant it can have been sent (``sent_after``:
    the last instant the server was surely reading the socket, ``CleanSocket``): a backlog spends
    the tokens of the time it was sent in, at most ``FLOOD_BURST`` and the rate over the stall, and
    no message counts before the one sent before it. A client faster than the limit gains
    nothing: over any stretch of time, at most the burst and the rate over that stretch is let
    through. Refusals close the socket only if they go on for ``FLOOD_CLOSE_SECONDS`` of wall
    time, counted at the instants read."""

    OK = "ok"
    REFUSE = "refuse"
    CLOSE = "close"

    def __init__(self, now: float):
        self.tokens = float(FLOOD_BURST)
        self.tokens_at = now
        self.flooding_since: float | None = None
        self.refused_at = 0.0

    def take(self, *, sent_after: float, now: float) -> str:
        at = max(sent_after, self.tokens_at)
        tokens = min(FLOOD_BURST, self.tokens + (at - self.tokens_at) * FLOOD_RATE_PER_SECOND)
        if tokens < 1:  # the earliest instant the bucket has a token again
            at += (1 - tokens) / FLOOD_RATE_PER_SECOND
            tokens = 1.0
        if at <= now:
            self.tokens, self.tokens_at = tokens - 1, at
            return self.OK
        if self.flooding_since is None or now - self.refused_at > FLOOD_FORGET_SECONDS:
            self.flooding_since = now
        self.refused_at = now
        if now - self.flooding_since >= FLOOD_CLOSE_SECONDS:
            return self.CLOSE
        return self.REFUSE


class CleanSocket:
    """Mixed into every AsyncWebsocketConsumer of the product, before it.

    - Nothing is sent once the socket has begun closing, and a send that finds the connection gone
      ends the socket quietly.
    - ``disconnect`` runs exactly once, even when the consumer ends by an error.
    - ``refused_as_flood()`` applies the one flood limit to each message a client sends, counted
      at the earliest instant the client can have sent it (``_sent_after``).
    - ``join_user_group()`` makes the socket close (4401) when its user's sign-in ends
      (``user_sockets_end``)."""

    closing = False
    _accepted = False
    _disconnected = False
    _user_group: str | None = None
    _flood: FloodLimit | None = None
    # The earliest instant the client can have sent the message being handled (monotonic).
    _sent_after: float | None = None

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, self._noting_when_sent(receive), send)
        finally:
            self.closing = True
            await self._disconnect_once(CLOSE_ABNORMAL)

    def _noting_when_sent(self, receive):
        """The server's ``receive`` (the client's messages), noting for each message the earliest
        instant its client can have sent it. The socket reads its next message once it has
        handled the last. If it had to wait for it, the message came while the socket was read:
        now, unless the event loop stood still meanwhile, in which case it may have come any time
        since the loop stopped (``LoopStalls``). If the message was there already, it came while
        the socket was busy (or the loop stood still), after the one before it: no later instant
        is sure, and that one's holds."""
        LoopStalls.here()  # watching the loop from now on

        async def receive_noting_when_sent():
            ready_at = monotonic()
            waited = False

            def note_the_wait():
                nonlocal waited
                waited = True

            # Runs only if ``receive`` waits: a message already queued is returned without
            # giving the loop a turn.
            look = asyncio.get_running_loop().call_soon(note_the_wait)
            message = await receive()
            look.cancel()
            if waited:
                now = monotonic()
                still_since = LoopStalls.here().still_since(ready_at, now)
                self._sent_after = now if still_since is None else still_since
            elif self._sent_after is None:
                self._sent_after = ready_at
            return message

        return receive_noting_when_sent

    # Channels reads the consumer's channel through ``self.channel_receive``, which its __call__
    # sets: read through ``_receive_patiently``, a broken channel layer (Redis restarting) is
    # waited out, as the match hub waits it out, instead of ending the socket with 1011.
    @property
    def channel_receive(self):
        return self._receive_patiently

    @channel_receive.setter
    def channel_receive(self, receive):
        self._channel_receive = receive

    async def _receive_patiently(self):
        broken = False
        while True:
            try:
                if broken and self._user_group is not None:
                    # The groups went with Redis: this socket's membership too.
                    await self.channel_layer.group_add(self._user_group, self.channel_name)
                return await self._channel_receive()
            except asyncio.CancelledError:
                raise
            except Exception:
                if not broken:
                    log.warning("a socket could not read its channel; retrying")
                broken = True
                await asyncio.sleep(RETRY_READ_SECONDS)

    async def websocket_disconnect(self, message):
        # As Channels' own, without its close_old_connections: it runs on the process's one shared
        # sync thread, and a class's games ending together closed dozens of sockets a second, each
        # queued there behind the moves' database work (docs/capacity.md). The consumers reach the
        # database through database_sync_to_async, which closes old connections itself.
        self.closing = True
        await self._disconnect_once(message.get("code", CLOSE_ABNORMAL))
        raise StopConsumer()

    async def _disconnect_once(self, code) -> None:
        if self._disconnected:
            return
        self._disconnected = True
        try:
            await self.disconnect(code)
        finally:
            if self._user_group is not None:
                try:
                    await within_the_layer_wait(
                        self.channel_layer.group_discard(self._user_group, self.channel_name)
                    )
                except Exception:
                    # Redis is away; the membership expires with the group (channels_redis).
                    log.warning("a closed socket could not leave its user's group")

    async def send(self, text_data=None, bytes_data=None, close=False):
        if self.closing:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Exception:
            # The connection closed under the send (the client went away; its disconnect is on its
            # way): nothing more can reach it.
            if not self._connection_gone():
                raise
            self.closing = True
            log.debug("a socket's client went away while it was being answered")

    async def close(self, code=None, reason=None):
        if self.closing:
            return
        self.closing = True
        try:
            await super().close(code=code, reason=reason)
        except Exception:
            if not self._connection_gone():
                raise

    def _connection_gone(self) -> bool:
        # What an ASGI server's send raises on a closed connection is its own (Daphne's comes from
        # autobahn); any failure of a send that was accepted before is the connection's.
        return self._accepted

    async def accept(self, subprotocol=None, headers=None):
        await super().accept(subprotocol=subprotocol, headers=headers)
        self._accepted = True

    async def refused_as_flood(self) -> bool:
        """True when this message is not to be read: the socket is closing, or the client sends
        too fast (it is told so, or closed with CLOSE_FLOOD when it keeps on)."""
        if self.closing:
            return True
        now = monotonic()
        if self._flood is None:
            self._flood = FloodLimit(now)
        sent_after = now if self._sent_after is None else min(self._sent_after, now)
        verdict = self._flood.take(sent_after=sent_after, now=now)
        if verdict == FloodLimit.OK:
            return False
        if verdict == FloodLimit.CLOSE:
            await self.close(code=CLOSE_FLOOD)
        else:
            await self.send_error("flood", "too many messages; slow down")
        return True

    async def send_error(self, code: str, message: str, **extra) -> None:
        payload = {"type": "error", "code": code, "message": message, **extra}
        await self.send(text_data=json.dumps(payload))

    async def join_user_group(self, user) -> None:
        if self.channel_layer is None:
            return
        self._user_group = user_group(user.pk)
        try:
            await within_the_layer_wait(
                self.channel_layer.group_add(self._user_group, self.channel_name)
            )
        except OUTAGES as outage:
            # Redis is away or hung: the socket plays on (its match's news comes through the
            # hub), and joins the group when its channel is read again on the Redis that comes
            # back.
            log.warning("a socket joined without its user's group (%s)", type(outage).__name__)

    async def user_signed_out(self, message):
        await self.close(code=CLOSE_UNAUTHENTICATED)
