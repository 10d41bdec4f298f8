"""Refusing a websocket so that the page can tell why, and answering outages without a crash.

A socket closed before its handshake completes is answered with HTTP 403 and nothing more: the
browser reports close code 1006 whatever the reason, and the pages, which stop reconnecting only
on 4401 (signed out) and 4403 (not allowed), retried every few seconds forever. So a refusal
accepts the socket, then closes it with its code.

A database or Redis that is down, restarting or hung is not the client's fault and passes:
``OutageAnswers`` turns it into a clear answer instead of an exception (which Daphne turned into
HTTP 500 at the handshake, or a close with 1011, with a traceback in the log). A handshake is
closed with 4503 (like HTTP 503: unavailable for now; a server may only send 1000 or 3000-4999,
so not RFC 6455's 1013), after which the page reconnects as after any other close; a
message is answered ``{"type": "error", "code": "try_again"}`` and the socket stays open
(docs/live-play.md, "Outages").
"""

from __future__ import annotations

import json
import logging

import psycopg
import redis.exceptions
from channels.auth import AuthMiddleware, CookieMiddleware, SessionMiddleware
from channels.exceptions import StopConsumer
from django.contrib import auth
from django.db import InterfaceError, OperationalError

from accounts.database_waits import bounded_database_sync_to_async

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
TRY_AGAIN_MESSAGE = "the server is busy or restarting; try again in a moment"


async def refuse(consumer, code: int) -> None:
    await consumer.accept()
    await consumer.close(code=code)


class OutageAnswers:
    """For an ``AsyncWebsocketConsumer``: an outage at the handshake closes the socket with
    ``CLOSE_TRY_AGAIN``; one while handling a message answers ``try_again``."""

    _accepted = False

    async def accept(self, *args, **kwargs):
        await super().accept(*args, **kwargs)
        self._accepted = True

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


class _SessionOnly:
    """What ``django.contrib.auth.get_user`` reads of a request: its session."""

    def __init__(self, session):
        self.session = session


def _user_of(scope):
    return auth.get_user(_SessionOnly(scope["session"]))


_user_within_the_wait = bounded_database_sync_to_async(_user_of)


class _AuthAnsweringOutages(AuthMiddleware):
    """Channels' ``AuthMiddleware``, whose reading of the session and the user is bounded like
    every database wait of a socket, and whose outage closes the handshake with 4503: it came
    before any consumer, so Daphne answered HTTP 500 with a traceback (and waited for ever on a
    hung database, holding the thread every socket's database calls share)."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await _user_within_the_wait(scope)

    async def __call__(self, scope, receive, send):
        scope = dict(scope)
        self.populate_scope(scope)
        try:
            await self.resolve_scope(scope)
        except OUTAGES as outage:
            log.warning(
                "%s: socket told to try again, its user unread (%s: %s)",
                scope.get("path"),
                type(outage).__name__,
                outage,
            )
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
            return None
        return await self.inner(scope, receive, send)


def AuthMiddlewareStack(inner):
    """Channels' ``AuthMiddlewareStack`` with ``_AuthAnsweringOutages``."""
    return CookieMiddleware(SessionMiddleware(_AuthAnsweringOutages(inner)))
