"""A match's news, from the commit that made it to every socket of the match.

A write of a match (games/services/writes.py) tells of what it committed through one of three
functions here: ``match_changed`` (new versions), ``match_clock`` (paused, resumed, more time) and
``match_stopped``. Each works wherever the write ran, and the caller need not say where
(realtime/news.py): on a server's event loop the news is queued at once behind what this process
has already queued for the match; from a sync thread of a server it is handed to that loop; from
anywhere else (a Celery worker, a shell) it is sent through the channel layer from there.

On the server's loop the news goes to the process's ``MatchHub``, the one member of a match's
group for all its sockets of that match. Channels gives every consumer a channel of its own, so a
move's news went through Redis once per socket: serialised, stored and popped three times for a
table of three, and each time woken in its consumer by Channels' per-consumer receive machinery
(a task and a wait per message), and the mover's own socket, in the very process that applied
the move, waited for two Redis round trips and a blocking read. Through the hub:

- news made in this process (a move applied by one of its sockets, a bot or timer it woke, a
  teacher's page it served) reaches its own sockets at once, and then goes through the channel
  layer to the match's group for the other processes, if any has the match's sockets
  (``MatchHub.publish``);
- news from anywhere else (another process, a Celery task, a shell) comes through the hub's
  channel and is handed to each socket of the match.

Every kind of a match's news (``match.changed``, ``match.clock``, ``match.stopped``) leaves on
that one path, in the order its changes were committed (``_enqueue``), and each carries the
match's version: a hub hands it out in version order (``MatchHub._hand_out``). A socket joins its
match's group before it reads the match (games/consumers.py): news committed after that read
reaches it, and what the read already had it drops by version. The teaching layer
hears ``games.signals.match_changed`` after the players' news: on the server's loop when there is
one (``on_server_loop=True``), else from here.

The message carries the new engine state, not a view: every socket computes its own seat's view,
so nothing one seat may not see is ever put in another seat's message.

Delivery is at most once (docs/architecture.md): the state itself lives in the database, and a
socket that misses news sees a gap in the versions and asks for ``sync``. News that never arrives
at all (Redis restarted between two moves, and the groups it kept went with it) is caught by the
heartbeat: every ``GAMES_HEARTBEAT_SECONDS`` (a setting) the hub reads the current version of
each of its matches in one query and hands it to the match's sockets as ``match.version``; a
socket still behind it a beat later syncs itself. Where the hub itself missed a match's news, it
joins the match's group again.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import weakref
from collections.abc import Sequence
from typing import Protocol

from channels.layers import get_channel_layer
from django.conf import settings

from games import selectors, signals, trace
from realtime import news
from realtime.sockets import CHANNEL_LAYER_OUTAGES, OUTAGES, within_the_layer_wait

log = logging.getLogger(__name__)

# A broken channel layer (Redis restarting) is retried after this long, not in a tight loop.
RETRY_READ_SECONDS = 1.0
# News of a version that came before the version ahead of it waits this long for it (``_hand_out``).
REORDER_WAIT_SECONDS = 0.1


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


# --- what a write tells ---------------------------------------------------------------------------


def match_changed(match_id: int, changes: Sequence, wake_at_ms: int | None) -> None:
    """New versions of the match (``games.services.Change``, in commit order): to its sockets,
    then to the teaching layer (teaching displays must never delay a move)."""
    messages = [
        {
            "type": "match.changed",
            "match_id": match_id,
            "version": change.version,
            "state": change.state,
            "events": change.events,
            "actor_seat": change.actor_seat,
            "client_id": change.client_id,
            "wake_at_ms": wake_at_ms,
        }
        for change in changes
    ]
    _publish(match_id, messages, changes)


def match_clock(
    match_id: int,
    *,
    version: int,
    paused_at_ms: int | None,
    clock_offset_ms: int,
    wake_at_ms: int | None,
) -> None:
    """The match's clock was paused, resumed or given more time at ``version`` (a clock's change
    makes no new version): its sockets tell their pages and schedule the next wake-up."""
    message = {
        "type": "match.clock",
        "match_id": match_id,
        "version": version,
        "paused_at_ms": paused_at_ms,
        "clock_offset_ms": clock_offset_ms,
        "wake_at_ms": wake_at_ms,
    }
    _publish(match_id, [message], ())


def match_stopped(match_id: int, version: int, state: dict) -> None:
    message = {"type": "match.stopped", "match_id": match_id, "version": version, "state": state}
    _publish(match_id, [message], ())


# --- from wherever the write committed ------------------------------------------------------------


def _publish(match_id: int, messages: list[dict], changes: Sequence) -> None:
    """On the server's event loop (a write on the loop's own connections): the news is queued at
    once, then the teaching layer is told. In a sync thread of a server: this same call is handed
    to its loop. Elsewhere: sent from here."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        _publish_from_a_thread(match_id, messages, changes)
        return
    layer = get_channel_layer()
    if layer is not None:
        for message in messages:
            _enqueue(loop, layer, match_id, message)
    if changes:
        _tell_on_loop(loop, match_id, changes)


def _publish_from_a_thread(match_id: int, messages: list[dict], changes: Sequence) -> None:
    loop = news.serving_loop()
    if loop is not None:
        if news.handed(loop, functools.partial(_publish, match_id, messages, changes)):
            return
        changes = ()  # that loop has closed, and its monitors with it: nobody is left to tell
    for message in messages:
        news.send_from_here(match_group(match_id), message)
    _tell_from_here(match_id, changes)


# --- the teaching layer ---------------------------------------------------------------------------

# The teaching layer's tasks, kept until done (the event loop keeps only weak references).
_telling: set[asyncio.Task] = set()


def _tell_on_loop(loop: asyncio.AbstractEventLoop, match_id: int, changes: Sequence) -> None:
    # The receivers are coroutines, run on the server's loop, never awaited from a thread:
    # waiting for the loop (as ``Signal.send`` does for them) held the shared thread, and so every
    # database call of the process, for as long as the loop was busy, and for ever when it
    # stopped before it ran them.
    telling = loop.create_task(_tell_the_teaching_layer_on_loop(match_id, changes))
    _telling.add(telling)
    telling.add_done_callback(_told)


async def _tell_the_teaching_layer_on_loop(match_id: int, changes: Sequence) -> None:
    # Receivers that are coroutines run on the loop (the teaching layer's is one); a plain
    # function would go to a thread, one per move.
    for change in changes:
        await signals.match_changed.asend(**_signal_arguments(match_id, change, on_loop=True))


def _tell_from_here(match_id: int, changes: Sequence) -> None:
    # No server's loop is involved: a loop of its own runs the receivers here.
    for change in changes:
        signals.match_changed.send(**_signal_arguments(match_id, change, on_loop=False))


def _signal_arguments(match_id: int, change, *, on_loop: bool) -> dict:
    return {
        "sender": None,
        "match_id": match_id,
        "version": change.version,
        "events": change.events,
        "finished": change.finished,
        "actor_seat": change.actor_seat,
        "on_server_loop": on_loop,
    }


def _enqueue(loop: asyncio.AbstractEventLoop, layer, match_id: int, message: dict) -> None:
    """One match's news leaves in the order its changes were committed; other matches' news is
    not held up."""
    news.in_order(loop, match_group(match_id), functools.partial(_send, layer, loop, message))


@trace.spanned("news", last=True)  # a move's timeline ends with its news out (games/trace.py)
async def _send(layer, loop: asyncio.AbstractEventLoop, message: dict) -> None:
    group = match_group(message["match_id"])
    try:
        hub = MatchHub.of(loop)
        if hub is None:  # no socket of any match in this process yet
            await layer.group_send(group, message)
        else:
            await hub.publish(message["match_id"], message)
    except CHANNEL_LAYER_OUTAGES as outage:
        # Redis away is expected: one line, no traceback. The sockets here have had the news
        # (``MatchHub.publish`` hands it out first); the other processes' heartbeat brings it.
        log.warning("could not broadcast to %s (%s: %s)", group, type(outage).__name__, outage)
    except Exception:
        log.exception("could not broadcast to %s", group)


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


# --- the hub: each process hears a match's news once ----------------------------------------------


class Listener(Protocol):
    async def hear(self, message: dict) -> None:
        """Take one piece of news. It must wait for nothing but its own socket: the hub hands
        each piece of news to every socket of the match in turn."""


class MatchHub:
    """The sockets of each match in one process (one event loop), and the channel they share."""

    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, MatchHub] = (
        weakref.WeakKeyDictionary()
    )

    @classmethod
    def here(cls) -> MatchHub:
        """The hub of the running event loop, made on first use."""
        loop = asyncio.get_running_loop()
        hub = cls._by_loop.get(loop)
        if hub is None:
            hub = cls._by_loop[loop] = cls(get_channel_layer())
            news.serving_here()
        return hub

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> MatchHub | None:
        return cls._by_loop.get(loop)

    def __init__(self, layer):
        self.layer = layer
        self.channel: str | None = None
        self._listeners: dict[int, set[Listener]] = {}
        # One membership change of a match at a time: a discard that overtook an add would leave
        # the hub out of a group while it still has sockets of that match.
        self._membership: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._reader: asyncio.Task | None = None
        self._heartbeat: asyncio.Task | None = None
        # The newest version of each match that news (or a socket's read) has brought here,
        # and the matches this process was behind at the last heartbeat, with their versions.
        self._heard: dict[int, int] = {}
        self._behind: dict[int, int] = {}
        # News that overtook the version it follows, per match, and the task that hands it out
        # anyway if that version's news never comes.
        self._early: dict[int, list[dict]] = {}
        self._early_timers: dict[int, asyncio.Task] = {}
        # Matches whose group this process could not join (Redis down): the heartbeat retries.
        self._unjoined: set[int] = set()

    async def join(self, match_id: int, listener: Listener) -> None:
        if self.channel is None:
            # The default kind of name: channels_redis reads all of a process's channels of one
            # prefix from one key, and a second key would wait behind the first one's reads.
            self.channel = await self.layer.new_channel()
        async with self._lock(match_id):
            self._listeners.setdefault(match_id, set()).add(listener)
            if self._reader is None or self._reader.done():
                self._reader = asyncio.get_running_loop().create_task(self._read())
            beating = self._heartbeat is not None and not self._heartbeat.done()
            if settings.GAMES_HEARTBEAT_SECONDS > 0 and not beating:
                self._heartbeat = asyncio.get_running_loop().create_task(self._beat())
            # Every join renews the membership, whose expiry (a day in channels_redis) would
            # otherwise end a long-lived hub's news.
            await self._join_group(match_id)

    async def _join_group(self, match_id: int) -> None:
        """Join the match's group. With Redis down the socket still plays (its moves need only the
        database, and its own process's news comes straight from here); the heartbeat brings the
        other processes' news and joins again until it works."""
        try:
            # Bounded: a hung Redis held a socket's handshake past Daphne's handshake timeout.
            await within_the_layer_wait(self.layer.group_add(match_group(match_id), self.channel))
        except OUTAGES as outage:
            self._unjoined.add(match_id)
            log.warning(
                "could not join match %s's group (%s); joining again later", match_id, outage
            )
        else:
            self._unjoined.discard(match_id)

    async def leave(self, match_id: int, listener: Listener) -> None:
        async with self._lock(match_id):
            listeners = self._listeners.get(match_id)
            if listeners is None or listener not in listeners:
                return
            listeners.discard(listener)
            if listeners:
                return
            del self._listeners[match_id]
            self._heard.pop(match_id, None)
            self._behind.pop(match_id, None)
            self._early.pop(match_id, None)
            timer = self._early_timers.pop(match_id, None)
            if timer is not None:
                timer.cancel()
            if not self._listeners:
                # Nobody here listens any more: stop reading, as Channels stops a closed
                # consumer's reader (a test's event loop can then close).
                for task in (self._reader, self._heartbeat):
                    if task is not None:
                        task.cancel()
                self._reader = self._heartbeat = None
            self._unjoined.discard(match_id)
            try:
                # Bounded: under the match's lock, a hung Redis held the next socket's join.
                await within_the_layer_wait(
                    self.layer.group_discard(match_group(match_id), self.channel)
                )
            except OUTAGES as outage:
                # The membership expires by itself; news that still comes is dropped.
                log.warning("could not leave match %s's group (%s)", match_id, outage)

    async def publish(self, match_id: int, message: dict) -> None:
        """Hand ``message`` to this process's sockets of the match, then send it through the
        layer to the match's group, for the other processes' hubs."""
        await self._hand_out(match_id, message)
        group = match_group(match_id)
        if self.channel is None:
            await self.layer.group_send(group, message)
        else:
            # Marked as this process's: its own copy comes back through the layer and is dropped.
            await self.layer.group_send(group, {**message, "origin": self.channel})

    def listeners(self, match_id: int) -> int:
        return len(self._listeners.get(match_id, ()))

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._membership.get(match_id)
        if lock is None:
            lock = self._membership[match_id] = asyncio.Lock()
        return lock

    async def _read(self) -> None:
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except OUTAGES as outage:
                log.warning("the match hub could not read its channel (%s); retrying", outage)
                await asyncio.sleep(RETRY_READ_SECONDS)
                continue
            except Exception:
                log.exception("the match hub could not read its channel; retrying")
                await asyncio.sleep(RETRY_READ_SECONDS)
                continue
            if message.get("origin") == self.channel:
                continue  # its own news, already handed out (``publish``)
            match_id = message.get("match_id")
            if not isinstance(match_id, int):
                log.warning("match news without a match id: %s", message.get("type"))
                continue
            await self._hand_out(match_id, message)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(settings.GAMES_HEARTBEAT_SECONDS)
            try:
                versions = await selectors.match_versions_async(match_ids=list(self._listeners))
            except asyncio.CancelledError:
                raise
            except OUTAGES as outage:
                log.warning("the match hub could not read its matches' versions (%s)", outage)
                continue
            except Exception:
                log.warning("the match hub could not read its matches' versions", exc_info=True)
                continue
            for match_id in list(self._unjoined):
                if match_id in self._listeners:
                    await self._join_group(match_id)
            # Only the matches whose news this process has not had yet: at rest, none, so a
            # beat costs one query and no work per socket.
            behind = {
                match_id: version
                for match_id, version in versions.items()
                if version > self._heard.get(match_id, -1)
            }
            for match_id, version in behind.items():
                lost = self._heard.get(match_id, -1) < self._behind.get(match_id, -1)
                if lost and self.channel is not None:
                    # Still without the news of the previous beat: this process's membership of
                    # the match's group may have gone with a Redis restart.
                    await self._join_group(match_id)
                await self._hand_out(match_id, {"type": "match.version", "version": version})
            self._behind = behind

    def saw(self, match_id: int, version: int) -> None:
        """A socket of the match read its state from the database (its first state, a sync):
        this process has had the match's news up to ``version``."""
        if match_id in self._listeners:
            self._heard[match_id] = max(version, self._heard.get(match_id, -1))

    async def _hand_out(self, match_id: int, message: dict) -> None:
        """Hand ``message`` to the match's sockets here, in version order: two writes a
        millisecond apart in two processes (a socket that landed on another process, the sweep)
        can have their news cross on the way here, and a socket drops news older than what it has
        shown, events and all. News that overtook the version it follows waits for it, at most
        ``REORDER_WAIT_SECONDS`` (news is at most once: that version's may never come)."""
        follows = _follows(message)
        heard = self._heard.get(match_id)
        if (
            follows is not None
            and heard is not None
            and follows > heard
            and match_id in self._listeners
        ):
            self._early.setdefault(match_id, []).append(message)
            if match_id not in self._early_timers:
                self._early_timers[match_id] = asyncio.get_running_loop().create_task(
                    self._hand_out_early_after_a_wait(match_id)
                )
            return
        await self._deliver(match_id, message)
        early = self._early.get(match_id)
        while early:
            ready = [m for m in early if _follows(m) <= self._heard.get(match_id, -1)]
            if not ready:
                break
            for waited in sorted(ready, key=_follows):
                early.remove(waited)
                await self._deliver(match_id, waited)
        if not early:
            self._forget_early(match_id)

    async def _hand_out_early_after_a_wait(self, match_id: int) -> None:
        await asyncio.sleep(REORDER_WAIT_SECONDS)
        self._early_timers.pop(match_id, None)
        for waited in sorted(self._early.pop(match_id, []), key=_follows):
            await self._deliver(match_id, waited)

    def _forget_early(self, match_id: int) -> None:
        self._early.pop(match_id, None)
        timer = self._early_timers.pop(match_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _deliver(self, match_id: int, message: dict) -> None:
        version = message.get("version")
        if isinstance(version, int) and message.get("type") != "match.version":
            self._heard[match_id] = max(version, self._heard.get(match_id, -1))
        for listener in list(self._listeners.get(match_id, ())):
            try:
                await listener.hear(message)
            except Exception:
                log.exception("a socket of match %s could not take its news", match_id)


def _follows(message: dict) -> int | None:
    """The version a hub must have handed out before ``message``: a change follows the version
    before its own; the clock's news and a stop, the version they were made at."""
    version = message.get("version")
    if not isinstance(version, int):
        return None
    kind = message.get("type")
    if kind == "match.changed":
        return version - 1
    if kind in ("match.clock", "match.stopped"):
        return version
    return None
