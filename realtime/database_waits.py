"""A socket waits for the database no longer than ``DATABASE_WAIT_S``.

A PostgreSQL that hangs (its host accepts the TCP connection and answers nothing; its kernel even
acknowledges what is sent, so neither TCP keepalives nor ``tcp_user_timeout`` see anything wrong)
held a move or a handshake for ever: neither libpq nor psycopg ends a wait for a query's answer.
Cancelling the waiting coroutine does not help either: psycopg then sends PostgreSQL a cancel
request and waits up to ten seconds more for it (which a hung server never answers), and a
thread cannot be cancelled at all; Channels' database calls share one thread, so a hung query
there held every socket's handshake after it.

So at the deadline the connection's socket is shut down (``cut``): the wait ends at once with
psycopg's ``OperationalError`` ("server closed the connection"), the connection is marked broken
and its pool drops it instead of handing it out mid-transaction, and the socket is answered as in
any outage (``realtime.sockets.OutageAnswers``: try_again, or 4503 at a handshake). The socket is
shut down, not closed: its descriptor stays the connection's until psycopg closes it itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import OperationalError, connections

# Well past a healthy round trip, even on a loaded machine, and short enough for a child.
DATABASE_WAIT_S = float(getattr(settings, "DATABASE_WAIT_S", 3))


class DatabaseTimeout(OperationalError):
    """The database did not answer within ``DATABASE_WAIT_S``."""


def cut(fileno: int) -> None:
    """Shut down the connection whose socket is ``fileno``, so that every wait on it ends."""
    with contextlib.suppress(OSError):
        duplicate = socket.socket(fileno=os.dup(fileno))
        try:
            duplicate.shutdown(socket.SHUT_RDWR)
        finally:
            duplicate.close()


class _OnThread:
    """The connection a call on the database thread is waiting on, for the event loop to cut."""

    def __init__(self):
        self._lock = threading.Lock()
        self._fileno: int | None = None
        self.abandoned = False

    def waiting_on(self, fileno: int | None) -> None:
        with self._lock:
            if self.abandoned:
                raise DatabaseTimeout("abandoned: the socket was answered already")
            self._fileno = fileno

    def abandon(self) -> None:
        with self._lock:
            self.abandoned = True
            if self._fileno is not None:
                cut(self._fileno)


def bounded_database_sync_to_async(function: Callable[..., Any]) -> Callable[..., Any]:
    """``channels.db.database_sync_to_async``, answered within ``DATABASE_WAIT_S``: past it,
    ``DatabaseTimeout`` is raised and the query still waiting on the thread is cut, which frees
    the thread (and a call still queued for it does not run)."""

    def on_thread(on: _OnThread, *args, **kwargs):
        on.waiting_on(None)  # abandoned while queued behind another call: nothing to do
        connection = connections["default"]

        def watched(execute, sql, params, many, context):
            raw = connection.connection
            on.waiting_on(raw.fileno() if connection.vendor == "postgresql" else None)
            try:
                return execute(sql, params, many, context)
            finally:
                on.waiting_on(None)

        with connection.execute_wrapper(watched):
            return function(*args, **kwargs)

    call = database_sync_to_async(on_thread)

    async def bounded(*args, **kwargs):
        on = _OnThread()
        try:
            async with asyncio.timeout(DATABASE_WAIT_S):
                return await call(on, *args, **kwargs)
        except TimeoutError:
            on.abandon()
            raise DatabaseTimeout(
                f"no answer from the database within {DATABASE_WAIT_S:g} s"
            ) from None

    return bounded
