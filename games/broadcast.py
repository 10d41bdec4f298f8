"""News of a match for its sockets: through the process's own hub to its own sockets, through the
channel layer to the other processes' (games/hub.py). At most once: the state itself lives in the
database, so a socket that misses news asks for ``sync``.

The message carries the new engine state, not a view: every socket computes its own seat's view,
so nothing one seat may not see is ever put in another seat's message.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import weakref

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from accounts.sockets import OUTAGES
from games import signals
from games.hub import MatchHub, match_group, serving_loop

log = logging.getLogger(__name__)


def _send(match_id: int, message: dict) -> None:
    message = {**message, "match_id": match_id}
    group = match_group(match_id)
    _send_soon(group, group, message, _through_hub(match_id, message))


def group_send_soon(group: str, message: dict, *, in_order_with: str | None = None) -> None:
    """``message`` to ``group`` through the channel layer, from any thread, without waiting for
    an event loop (the layers above use it for their own news, after a commit). Messages that
    name the same ``in_order_with`` leave in the order they were sent, whatever their groups."""

    async def send(layer, loop):
        await layer.group_send(group, message)

    _send_soon(in_order_with or group, group, message, send)


def _through_hub(match_id: int, message: dict):
    async def send(layer, loop):
        hub = MatchHub.of(loop)
        if hub is None:  # no socket of any match in this process yet
            await layer.group_send(match_group(match_id), message)
        else:
            await hub.publish(match_id, message)

    return send


def _send_soon(chain: str, group: str, message: dict, send) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = serving_loop()
    if loop is not None:
        # Inside a server (a consumer's sync_to_async thread): hand the news to the server's event
        # loop and return at once. Waiting for Redis here would hold a thread that applies moves
        # (or the one Channels shares for all database work) for round trips (docs/capacity.md).
        try:
            # In a context of its own: the writing thread's (asgiref's "inside a sync thread"
            # marks) would make the sockets' later database calls, such as a clock's wake-up
            # scheduled while handing out this news, refuse to run.
            loop.call_soon_threadsafe(
                _enqueue, loop, layer, chain, send, context=contextvars.Context()
            )
            return
        except RuntimeError:  # that loop has closed: send from here instead
            pass
    try:
        # Elsewhere (a Celery worker, a shell) this process has no sockets: the layer takes the
        # news to every process's hub.
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        # The move is committed; a socket that missed the news resyncs (news is at most once).
        log.exception("could not send %s to %s", message.get("type"), group)


# Per event loop, the last send queued in each chain (a match's group, say): the next one waits
# for it, so one match's news leaves in the order its changes were committed while other matches'
# news is not held up.
_chains: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Task]] = (
    weakref.WeakKeyDictionary()
)


def _enqueue(loop: asyncio.AbstractEventLoop, layer, chain: str, send) -> None:
    chains = _chains.setdefault(loop, {})
    task = loop.create_task(_send_after(chains.get(chain), layer, loop, chain, send))
    chains[chain] = task

    def forget(done: asyncio.Task) -> None:
        if chains.get(chain) is done:
            del chains[chain]

    task.add_done_callback(forget)


async def _send_after(
    previous: asyncio.Task | None, layer, loop: asyncio.AbstractEventLoop, chain: str, send
) -> None:
    if previous is not None:
        await asyncio.wait([previous])
    try:
        await send(layer, loop)
    except Exception:
        log.exception("could not broadcast to %s", chain)


def match_changed(match_id: int, changes, wake_at_ms: int | None) -> None:
    for change in changes:
        _send(match_id, _changed_message(change, wake_at_ms))
    # After the players' news: teaching displays must never delay a move.
    _tell_the_teaching_layer(match_id, changes)


def match_changed_from_loop(match_id: int, changes, wake_at_ms: int | None) -> None:
    """``match_changed`` for changes committed on this server's event loop
    (``services.submit_move_async``): their news is queued behind what this process has already
    queued for the match, and the teaching layer hears of them on the loop too, after them."""
    loop = asyncio.get_running_loop()
    layer = get_channel_layer()
    if layer is not None:
        for change in changes:
            message = {**_changed_message(change, wake_at_ms), "match_id": match_id}
            _enqueue(loop, layer, match_group(match_id), _through_hub(match_id, message))
    _tell_on_loop(loop, match_id, changes)


# The teaching layer's tasks, kept until done (the event loop keeps only weak references).
_telling: set[asyncio.Task] = set()


def _told(task: asyncio.Task) -> None:
    _telling.discard(task)
    if task.cancelled() or task.exception() is None:
        return
    if isinstance(task.exception(), OUTAGES):
        # Its database or Redis is out for now: one line, as for every outage; the teacher's
        # page catches up with the next news or its tick.
        log.warning("the teaching layer could not hear of a move (%s)", task.exception())
        return
    log.error("the teaching layer could not hear of a move", exc_info=task.exception())


def _changed_message(change, wake_at_ms: int | None) -> dict:
    return {
        "type": "match.changed",
        "version": change.version,
        "state": change.state,
        "events": change.events,
        "actor_seat": change.actor_seat,
        "client_id": change.client_id,
        "wake_at_ms": wake_at_ms,
    }


def _tell_the_teaching_layer(match_id: int, changes) -> None:
    loop = serving_loop()
    if loop is not None:
        # The receivers are coroutines: handed to the server's loop, never awaited from here.
        # Waiting for the loop (as ``Signal.send`` does for them) held the shared thread, and so
        # every database call of the process, for as long as the loop was busy, and for ever
        # when it stopped before it ran them.
        try:
            loop.call_soon_threadsafe(
                _tell_on_loop, loop, match_id, changes, context=contextvars.Context()
            )
            return
        except RuntimeError:  # that loop has closed: there are no monitors left to tell
            return
    # Elsewhere (a Celery worker, a shell) no server's loop is involved: a loop of its own runs
    # the receivers here.
    for change in changes:
        signals.match_changed.send(
            sender=None,
            match_id=match_id,
            version=change.version,
            events=change.events,
            finished=change.finished,
            actor_seat=change.actor_seat,
            on_server_loop=False,
        )


def _tell_on_loop(loop: asyncio.AbstractEventLoop, match_id: int, changes) -> None:
    telling = loop.create_task(_tell_the_teaching_layer_from_loop(match_id, changes))
    _telling.add(telling)
    telling.add_done_callback(_told)


async def _tell_the_teaching_layer_from_loop(match_id: int, changes) -> None:
    # Receivers that are coroutines run on the loop (the teaching layer's is one); a plain
    # function would go to a thread, one per move.
    for change in changes:
        await signals.match_changed.asend(
            sender=None,
            match_id=match_id,
            version=change.version,
            events=change.events,
            finished=change.finished,
            actor_seat=change.actor_seat,
            on_server_loop=True,
        )


def match_clock(
    match_id: int, *, paused_at_ms: int | None, clock_offset_ms: int, wake_at_ms: int | None
) -> None:
    """The match's clock was paused, resumed or given more time: its sockets tell their pages
    and schedule the next wake-up."""
    _send(
        match_id,
        {
            "type": "match.clock",
            "paused_at_ms": paused_at_ms,
            "clock_offset_ms": clock_offset_ms,
            "wake_at_ms": wake_at_ms,
        },
    )


def match_stopped(match_id: int, version: int, state: dict) -> None:
    _send(match_id, {"type": "match.stopped", "version": version, "state": state})
