"""Each server process hears a match's news once and hands it to its own sockets of that match.

Channels gives every consumer a channel of its own, so a move's news went through Redis once per
socket: serialised, stored and popped three times for a table of three, and each time woken in
its consumer by Channels' per-consumer receive machinery (a task and a wait per message), about a
third of a server process's CPU under load. The mover's own socket, in the very process that
applied the move, waited for two Redis round trips and a blocking read (docs/capacity.md).

Here the process's ``MatchHub`` is the one member of a match's group for all its sockets of that
match:

- news made in this process (a move applied by one of its sockets, a bot or timer it woke, a
  teacher's page it served) reaches its own sockets at once, and through the channel layer only
  the other processes;
- news from anywhere else (another process, a Celery task, a shell) comes through the hub's
  channel and is handed to each socket of the match.

Delivery stays at most once, as with Channels (docs/architecture.md): a socket that misses news
sees a gap in the versions and asks for ``sync``. News that never arrives at all (Redis
restarted between two moves, and the groups it kept went with it) is caught by the heartbeat: every
``HEARTBEAT_SECONDS`` the hub reads the current version of each of its matches in one query and
hands it to the match's sockets as ``match.version``; a socket still behind it a beat later syncs
itself. Where the hub itself missed a match's news, it joins the match's group again.
"""

from __future__ import annotations

import asyncio
import logging
import os
import weakref
from typing import Protocol

from channels.layers import get_channel_layer

from accounts.sockets import OUTAGES
from games import selectors

log = logging.getLogger(__name__)

# A broken channel layer (Redis restarting) is retried after this long, not in a tight loop.
RETRY_READ_SECONDS = 1.0
# One query per process this often, whatever its number of sockets (0: no heartbeat).
HEARTBEAT_SECONDS = float(os.environ.get("GAMES_HEARTBEAT_SECONDS", "1.0"))
# News of a version that came before the version ahead of it waits this long for it (``_hand_out``).
REORDER_WAIT_SECONDS = 0.1


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


# The event loop that serves this process's sockets, and the process it was recorded in (a fork
# inherits the record, not the loop).
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
            serving_here()
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
        # News that overtook an earlier version's, per match and version, and the task that hands
        # it out anyway if the earlier one never comes.
        self._early: dict[int, dict[int, dict]] = {}
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
            if HEARTBEAT_SECONDS > 0 and (self._heartbeat is None or self._heartbeat.done()):
                self._heartbeat = asyncio.get_running_loop().create_task(self._beat())
            # Every join renews the membership, whose expiry (a day in channels_redis) would
            # otherwise end a long-lived hub's news.
            await self._join_group(match_id)

    async def _join_group(self, match_id: int) -> None:
        """Join the match's group. With Redis down the socket still plays (its moves need only
        the database, and its own process's news comes straight from here); the heartbeat
        brings the other processes' news and joins again until it works."""
        try:
            await self.layer.group_add(match_group(match_id), self.channel)
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
                await self.layer.group_discard(match_group(match_id), self.channel)
            except OUTAGES as outage:
                # The membership expires by itself; news that still comes is dropped.
                log.warning("could not leave match %s's group (%s)", match_id, outage)

    async def publish(self, match_id: int, message: dict) -> None:
        """Hand ``message`` to this process's sockets of the match, then send it to the others."""
        await self._hand_out(match_id, message)
        group = match_group(match_id)
        if self.channel is None:
            await self.layer.group_send(group, message)
        elif hasattr(self.layer, "group_send_except"):
            await self.layer.group_send_except(group, message, self.channel)
        else:
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
                continue  # its own news, already handed out (a layer without group_send_except)
            match_id = message.get("match_id")
            if not isinstance(match_id, int):
                log.warning("match news without a match id: %s", message.get("type"))
                continue
            await self._hand_out(match_id, message)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
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
        """Hand ``message`` to the match's sockets here, in version order: two moves applied a
        millisecond apart in two processes (a socket that landed on another process, the sweep)
        can have their news cross on the way here, and a socket drops news older than what it
        has shown, events and all. News that overtook its predecessor's waits for it, at most
        ``REORDER_WAIT_SECONDS`` (news is at most once: the predecessor may never come)."""
        version = message.get("version")
        if message.get("type") == "match.changed" and isinstance(version, int):
            heard = self._heard.get(match_id)
            if heard is not None and version > heard + 1 and match_id in self._listeners:
                self._early.setdefault(match_id, {})[version] = message
                if match_id not in self._early_timers:
                    self._early_timers[match_id] = asyncio.get_running_loop().create_task(
                        self._hand_out_early_after_a_wait(match_id)
                    )
                return
        await self._deliver(match_id, message)
        early = self._early.get(match_id)
        while early and (self._heard.get(match_id, -1) + 1) in early:
            await self._deliver(match_id, early.pop(self._heard[match_id] + 1))
        if not early:
            self._forget_early(match_id)

    async def _hand_out_early_after_a_wait(self, match_id: int) -> None:
        await asyncio.sleep(REORDER_WAIT_SECONDS)
        self._early_timers.pop(match_id, None)
        early = self._early.pop(match_id, {})
        for version in sorted(early):
            await self._deliver(match_id, early[version])

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
