"""News to the sockets from wherever a write committed, sent without waiting, in the order sent.

A write tells its sockets after its commit, and may have committed anywhere:

- on a server's event loop (a move on the loop's own connections): the send is queued at once;
- in a sync thread of a server (SQLite's writes, a teacher's page): it is handed to the server's
  event loop (``serving_loop``) and the thread returns at once: waiting for Redis there would hold
  a thread that applies moves (or the one Channels shares for all database work) for round trips;
- elsewhere (a Celery worker, a shell), where the process has no sockets: it is sent through the
  channel layer from there.

Sends that name the same chain (``in_order``: a match's group, a teaching layer's news) leave one
after the other, in the order they were queued, while other chains' sends are not held up.
Delivery is at most once: the state lives in the database, and a display that missed news catches
up from it (docs/architecture.md, "Contracts").
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import weakref
from collections.abc import Awaitable, Callable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from realtime.sockets import log_send_failure

log = logging.getLogger(__name__)


# --- the event loop that serves this process's sockets --------------------------------------------

# The loop, and the process it was recorded in (a fork inherits the record, not the loop).
_serving: tuple[int, asyncio.AbstractEventLoop] | None = None


def serving_here() -> None:
    """Record the running event loop as this process's server (config/asgi.py on each connection,
    a match hub when it is made): news committed in a sync thread is handed to it."""
    global _serving
    loop = asyncio.get_running_loop()
    if _serving is None or _serving[1] is not loop:
        _serving = (os.getpid(), loop)


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop that serves this process's sockets, or None: a Celery worker, a
    shell, a test calling a service with no server running."""
    if _serving is None:
        return None
    pid, loop = _serving
    return loop if pid == os.getpid() and loop.is_running() else None


def handed(loop: asyncio.AbstractEventLoop, call: Callable[[], None]) -> bool:
    """``call()`` handed from a sync thread of a server to its event loop, and whether it was (not
    if that loop has closed). The thread returns at once. In a context of its own: the writing
    thread's (asgiref's "inside a sync thread" marks) would make the sockets' later database
    calls, such as a clock's wake-up scheduled while handing out news, refuse to run."""
    try:
        loop.call_soon_threadsafe(call, context=contextvars.Context())
    except RuntimeError:
        return False
    return True


def send_from_here(group: str, message: dict) -> None:
    """Elsewhere (a Celery worker, a shell) this process has no sockets: the layer takes the news
    to every process."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception as error:
        # The write is committed; a display that missed the news catches up (at most once).
        log_send_failure(log, message, group, error)


# --- sends in order -------------------------------------------------------------------------------

# Per event loop, the last send queued in each chain: the next one waits for it.
_chains: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Task]] = (
    weakref.WeakKeyDictionary()
)


def in_order(
    loop: asyncio.AbstractEventLoop, chain: str, send: Callable[[], Awaitable[None]]
) -> None:
    """``send()`` run on ``loop`` once every send queued before it in ``chain`` has finished.
    ``send`` handles its own errors: one that fails does not stop the chain."""
    chains = _chains.setdefault(loop, {})
    previous = chains.get(chain)
    task = loop.create_task(_after(previous, send))
    chains[chain] = task

    def forget(done: asyncio.Task) -> None:
        if chains.get(chain) is done:
            del chains[chain]

    task.add_done_callback(forget)


async def _after(previous: asyncio.Task | None, send: Callable[[], Awaitable[None]]) -> None:
    if previous is not None:
        await asyncio.wait([previous])
    await send()


# --- a group's news -------------------------------------------------------------------------------


async def send_now(group: str, message: dict) -> None:
    """``message`` to ``group`` before this returns, from the event loop. Errors are logged: the
    write is committed, and displays catch up on the next message or tick."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group, message)
    except Exception as error:
        log_send_failure(log, message, group, error)


def group_send_soon(group: str, message: dict, *, in_order_with: str | None = None) -> None:
    """``message`` to ``group`` through the channel layer, from any thread, without waiting for an
    event loop. Messages that name the same ``in_order_with`` leave in the order they were sent,
    whatever their groups."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = serving_loop()
        again = functools.partial(group_send_soon, group, message, in_order_with=in_order_with)
        if loop is None or not handed(loop, again):
            send_from_here(group, message)
        return
    in_order(loop, in_order_with or group, functools.partial(send_now, group, message))


def send_after_commit(group: str, message: dict, *, in_order_with: str) -> None:
    """``group_send_soon`` once the current transaction commits. Never waiting for an event loop
    (a view's commit runs on a server's shared thread), and in one order per ``in_order_with``."""
    transaction.on_commit(
        functools.partial(group_send_soon, group, message, in_order_with=in_order_with)
    )
