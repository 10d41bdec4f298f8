"""The Redis channel layer, receiving each server process's news in batches and sending a group's
news in two round trips.

channels_redis keeps every message for a server process in one sorted set and reads it one message
at a time, with four sequential Redis round trips per message (a clean-up script, BZPOPMIN, a
backup copy, its removal) and one reader at a time. On a busy event loop each round trip waits its
turn, so a process with hundreds of sockets falls behind its news long before its CPU is spent
(docs/capacity.md has the load test's figures).

This class reads whatever has queued up with one ZPOPMIN (up to ``receive_batch`` messages) and
blocks with BZPOPMIN only when nothing has. The backup copy goes: the layer delivers at most once
(docs/architecture.md), and what the backup protected against, a reader cancelled after its pop,
is handled here by letting the pop finish and handing its messages to the next reader.

``group_send`` does what channels_redis's does (drop expired members, read the members, drop
expired messages, add the message to each member's set within its capacity) in two round trips
instead of four: the first two commands go in one pipeline and the clean-up of expired messages
runs inside the sending script. Every move sends one group message, and each round trip waits
for its turn on a busy event loop. Groups, serialisation, capacity and expiry are channels_redis's
own.

Both layers here add ``group_send_except``: a server process hands its own news to its own sockets
and sends it through the layer to the others only (games/delivery.py).

A Redis that restarts (or is flushed) forgets every group's members, while the sockets that had
joined them stay open and hear nothing more. ``MembershipWatch`` notices, once a second for a
whole process, and tells each socket it watches to join its groups again (the match sockets have
the hub's heartbeat instead).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
import weakref

import channels.exceptions
import channels.layers
from channels_redis.core import RedisChannelLayer

from accounts.sockets import OUTAGES

log = logging.getLogger(__name__)

# KEYS: the members' channel keys. ARGV: one message per key, then one capacity per key, then
# the time now, the expiry (s) of a key, and the score below which a message has expired.
_GROUP_SEND_SCRIPT = """
local count = #KEYS
local now = ARGV[2 * count + 1]
local expiry = ARGV[2 * count + 2]
local stale = ARGV[2 * count + 3]
local over_capacity = 0
for i = 1, count do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, stale)
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[count + i]) then
        redis.call('ZADD', KEYS[i], now, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return over_capacity
"""


class BatchingRedisChannelLayer(RedisChannelLayer):
    receive_batch = 100

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The pop in flight, per event loop (Redis connections belong to one loop).
        self._popping: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Future] = (
            weakref.WeakKeyDictionary()
        )

    async def group_send(self, group, message):
        await self.group_send_except(group, message, None)

    async def group_send_except(self, group, message, skipped_channel):
        """``group_send`` to every member but ``skipped_channel`` (games/delivery.py: a process
        hands its own news to its own sockets)."""
        assert self.require_valid_group_name(group), "Group name not valid"
        key = self._group_key(group)
        now = time.time()
        pipe = self.connection(self.consistent_hash(group)).pipeline(transaction=False)
        pipe.zremrangebyscore(key, min=0, max=int(now) - self.group_expiry)
        pipe.zrange(key, 0, -1)
        _removed, members = await pipe.execute()
        if not members:
            return
        channel_names = [member.decode("utf8") for member in members]
        channel_names = [name for name in channel_names if name != skipped_channel]
        if not channel_names:
            return
        by_connection, message_of, capacity_of = self._map_channel_keys_to_connection(
            channel_names, message
        )
        for index, channel_keys in by_connection.items():
            over_capacity = await self.connection(index).eval(
                _GROUP_SEND_SCRIPT,
                len(channel_keys),
                *channel_keys,
                *(message_of[channel_key] for channel_key in channel_keys),
                *(capacity_of[channel_key] for channel_key in channel_keys),
                now,
                self.expiry,
                int(now) - int(self.expiry),
            )
            if over_capacity > 0:
                log.info(
                    "%s of %s channels over capacity in group %s",
                    over_capacity,
                    len(channel_names),
                    group,
                )

    async def memberships_lost(self, watcher: str) -> bool:
        """Whether a Redis of this layer lost its data (restarted, flushed) since ``watcher``
        last asked: each Redis keeps a mark of the watcher's, which goes with its data."""
        key = f"{self.prefix}membership-watch:{watcher}"
        lost = False
        for index in range(self.ring_size):
            pipe = self.connection(index).pipeline(transaction=False)
            pipe.exists(key)
            pipe.set(key, 1, ex=MembershipWatch.MARK_EXPIRY_SECONDS)
            existed, _set = await pipe.execute()
            lost = lost or not existed
        return lost

    async def receive_single(self, channel):
        if "!" not in channel:  # a shared (not process-specific) channel: read as channels_redis
            return await super().receive_single(channel)
        # channels_redis's receive() lets one reader at a time in here and delivers what this
        # returns; the messages popped with it are delivered here, before it, in their order.
        loop = asyncio.get_running_loop()
        contents: list[bytes] = []
        while not contents:
            popping = self._popping.get(loop)
            if popping is None:
                popping = self._popping[loop] = loop.create_task(self._pop(channel))
            try:
                contents = await asyncio.shield(popping)
            except asyncio.CancelledError:
                raise  # the pop goes on; the next reader delivers its messages
            except BaseException:
                self._forget(popping)
                raise
            self._forget(popping)
        *earlier, last = [self.deserialize(content) for content in contents]
        for message in earlier:
            targets = message.pop("__asgi_channel__", channel)
            for target in targets if isinstance(targets, list) else [targets]:
                self.receive_buffer[target].put_nowait(message)
        return last.pop("__asgi_channel__", channel), last

    def _forget(self, popping: asyncio.Future) -> None:
        loop = asyncio.get_running_loop()
        if self._popping.get(loop) is popping:
            del self._popping[loop]

    async def _pop(self, channel) -> list[bytes]:
        """What has queued up, or else what comes within one blocking read; [] if nothing came.
        One pass only: a pop nobody waits for any more ends with its read."""
        connection = self.connection(self.consistent_hash(channel))
        key = self.prefix + channel
        popped = await connection.zpopmin(key, self.receive_batch)
        if popped:
            return [member for member, _score in popped]
        found = await connection.bzpopmin(key, timeout=self.brpop_timeout)
        return [] if found is None else [found[1]]


class InMemoryChannelLayer(channels.layers.InMemoryChannelLayer):
    """Channels' in-memory layer (the embedded site) with ``group_send_except``."""

    async def group_send_except(self, group, message, skipped_channel):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            if channel == skipped_channel:
                continue
            try:
                await self.send(channel, message)
            except channels.exceptions.ChannelFull:
                log.info("channel %s over capacity in group %s", channel, group)


class MembershipWatch:
    """The channels of a process's sockets whose groups must outlive a Redis restart. When the
    layer says its memberships were lost, each is sent ``{"type": "groups.lost"}``, and its
    consumer joins its groups again (and catches up on what it missed)."""

    BEAT_SECONDS = 1.0
    # A mark outlives many beats; one a dead process left goes by itself.
    MARK_EXPIRY_SECONDS = 60

    _watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, MembershipWatch]] = (
        weakref.WeakKeyDictionary()
    )

    @classmethod
    def of(cls, layer) -> MembershipWatch | None:
        """This event loop's watch of ``layer``; None for a layer that cannot lose its groups
        while the process lives (in memory)."""
        if not hasattr(layer, "memberships_lost"):
            return None
        watches = cls._watches.setdefault(asyncio.get_running_loop(), {})
        watch = watches.get(id(layer))
        if watch is None or watch.layer is not layer:
            watch = watches[id(layer)] = cls(layer)
        return watch

    def __init__(self, layer):
        self.layer = layer
        self.name = uuid.uuid4().hex
        self.channels: set[str] = set()
        self._beating: asyncio.Task | None = None

    def watch(self, channel: str) -> None:
        self.channels.add(channel)
        if self._beating is None or self._beating.done():
            self._beating = asyncio.get_running_loop().create_task(self._beat())

    def unwatch(self, channel: str) -> None:
        self.channels.discard(channel)

    async def _beat(self) -> None:
        marked = False
        while self.channels:
            try:
                lost = await self.layer.memberships_lost(self.name)
            except OUTAGES as outage:
                log.info("memberships unchecked (%s: %s)", type(outage).__name__, outage)
            else:
                if lost and marked:
                    await self._tell_lost()
                marked = True  # the first mark is made, not found
            await asyncio.sleep(self.BEAT_SECONDS)

    async def _tell_lost(self) -> None:
        log.warning(
            "channel layer lost its groups: %s sockets join theirs again", len(self.channels)
        )
        for channel in list(self.channels):
            try:
                await self.layer.send(channel, {"type": "groups.lost"})
            except OUTAGES as outage:
                log.info("%s not told its groups were lost (%s)", channel, outage)
                return  # Redis is out again: the next mark found missing tells them again
            except channels.exceptions.ChannelFull:
                log.info("%s not told its groups were lost: over capacity", channel)
