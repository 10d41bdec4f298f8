"""The Redis channel layer, receiving each server process's news in batches and sending a group's
news in two round trips, written on the public API of redis-py and of channels_redis.

channels_redis keeps every message for a server process in one sorted set and reads it one message
at a time, with four sequential Redis round trips per message (a clean-up script, BZPOPMIN, a
backup copy, its removal) and one reader at a time. On a busy event loop each round trip waits its
turn, so a process with hundreds of sockets falls behind its news long before its CPU is spent
(docs/capacity.md has the load test's figures).

This layer reads whatever has queued up with one ZPOPMIN (up to ``receive_batch`` messages) and
blocks with BZPOPMIN only when nothing has, filing each message under its channels for their
receivers. There is no backup copy: the layer delivers at most once (docs/architecture.md), and
what the backup protected against, a reader cancelled after its pop, is handled by letting the
pop finish and file its messages.

A group send drops expired members, reads the members, drops expired messages and adds the
message to each member's set within its capacity, as channels_redis's does, in two commands
instead of four: one script drops and reads the members, another sends (which also sends to one
process channel in one command). Each round trip waits for its turn on a busy event loop;
routed by match, a server's hub is almost always its match's only member, the first command
finds nobody else, and the hub then keeps the match's news at home (games/delivery.py,
``MatchHub.publish``). The keys, the messages' format, their
serialisation, capacity and expiry are channels_redis's, and no private member of Channels or
channels_redis is read (its pools, ``new_channel`` and ``flush`` are inherited).

Both layers here add ``group_send_except``: a server process hands its own news to its own sockets
and sends it through the layer to the others only (games/delivery.py). It returns how many others
there were, so a process that found none can leave the next news of the match at home.

A Redis that restarts (or is flushed) forgets every group's members, while the sockets that had
joined them stay open and hear nothing more. ``MembershipWatch`` notices, once a second for a
whole process, and tells each socket it watches to join its groups again (the match sockets have
the hub's heartbeat instead).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import uuid
import weakref

import channels.exceptions
import channels.layers
from channels_redis.core import RedisChannelLayer

from realtime.sockets import OUTAGES

log = logging.getLogger(__name__)

# KEYS: the group's key. ARGV: the score below which a member has expired. The members left.
_GROUP_MEMBERS_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1])
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""

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
    """channels_redis's layer with its own sends, groups and process-channel reads, on the public
    API of redis-py and of the parent (``connection``, ``consistent_hash``, ``serialize``,
    ``deserialize``, Channels' ``non_local_name`` and ``get_capacity``): no private member of
    channels_redis is read. What stays the parent's: connection pools, ``new_channel``, ``flush``
    and the reading of general (not process-specific) channels, which live play never uses.

    Storage is channels_redis's: a channel's messages in a sorted set scored by time at
    ``prefix + <channel up to its "!">``, each process-specific message carrying its target
    channels in ``__asgi_channel__``; a group is a sorted set of its members scored by the time
    they joined, at ``group_key(group)``."""

    receive_batch = 100

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Per event loop (Redis connections belong to one loop), its process channels' inbox.
        self._inboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox] = (
            weakref.WeakKeyDictionary()
        )

    # -- keys -----------------------------------------------------------------------------------

    def group_key(self, group: str) -> bytes:
        return f"{self.prefix}:group:{group}".encode()

    def channel_key(self, channel: str) -> str:
        """The sorted set holding ``channel``'s messages: one per process for its channels."""
        return self.prefix + self.non_local_name(channel)

    def shard(self, channel: str) -> int:
        """The Redis of a process-specific channel: all of a process's channels share one."""
        return self.consistent_hash(self.non_local_name(channel))

    # -- sending --------------------------------------------------------------------------------

    async def send(self, channel, message):
        assert isinstance(message, dict), "message is not a dict"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert "__asgi_channel__" not in message
        if "!" not in channel:  # a general channel: channels_redis's own sharding and reading
            return await super().send(channel, message)
        key = self.channel_key(channel)
        over_capacity = await self.connection(self.shard(channel)).eval(
            _GROUP_SEND_SCRIPT,
            1,
            key,
            self.serialize({**message, "__asgi_channel__": channel}),
            self.get_capacity(channel),
            *self._times(),
        )
        if over_capacity:
            raise channels.exceptions.ChannelFull()

    def _times(self) -> tuple[float, int, int]:
        """The sending script's last three arguments: now, a key's expiry, the stale score."""
        now = time.time()
        return now, self.expiry, int(now) - int(self.expiry)

    async def group_add(self, group, channel):
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        key = self.group_key(group)
        pipe = self.connection(self.consistent_hash(group)).pipeline(transaction=False)
        pipe.zadd(key, {channel: time.time()})
        pipe.expire(key, self.group_expiry)
        await pipe.execute()

    async def group_discard(self, group, channel):
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        await self.connection(self.consistent_hash(group)).zrem(self.group_key(group), channel)

    async def group_send(self, group, message):
        await self.group_send_except(group, message, None)

    async def group_send_except(self, group, message, skipped_channel) -> int:
        """``group_send`` to every member but ``skipped_channel`` (games/delivery.py: a process
        hands its own news to its own sockets), and how many members that was."""
        assert self.require_valid_group_name(group), "Group name not valid"
        members = await self.connection(self.consistent_hash(group)).eval(
            _GROUP_MEMBERS_SCRIPT,
            1,
            self.group_key(group),
            int(time.time()) - self.group_expiry,
        )
        channel_names = [member.decode("utf8") for member in members]
        channel_names = [name for name in channel_names if name != skipped_channel]
        if not channel_names:
            return 0
        for index, keys in self._by_connection(channel_names, message).items():
            over_capacity = await self.connection(index).eval(
                _GROUP_SEND_SCRIPT,
                len(keys),
                *keys,
                *(content for content, _capacity in keys.values()),
                *(capacity for _content, capacity in keys.values()),
                *self._times(),
            )
            if over_capacity > 0:
                log.info(
                    "%s of %s channels over capacity in group %s",
                    over_capacity,
                    len(channel_names),
                    group,
                )
        return len(channel_names)

    def _by_connection(
        self, channel_names: list[str], message: dict
    ) -> dict[int, dict[str, tuple[bytes, int]]]:
        """Per Redis, per channel key: the message to add (once for all of a process's channels
        in the group, naming them) and the key's capacity."""
        targets: dict[str, list[str]] = collections.defaultdict(list)
        for channel in channel_names:
            targets[self.channel_key(channel)].append(channel)
        by_connection: dict[int, dict[str, tuple[bytes, int]]] = collections.defaultdict(dict)
        for key, channels_of_key in targets.items():
            index = self.shard(channels_of_key[0])
            content = self.serialize({**message, "__asgi_channel__": channels_of_key})
            by_connection[index][key] = (content, self.get_capacity(channels_of_key[0]))
        return by_connection

    # -- receiving ------------------------------------------------------------------------------

    async def receive(self, channel):
        if "!" not in channel:  # a general channel: read as channels_redis reads it
            return await super().receive(channel)
        loop = asyncio.get_running_loop()
        inbox = self._inboxes.get(loop)
        if inbox is None:
            inbox = self._inboxes[loop] = _Inbox(self, channel)
        return await inbox.receive(channel)

    async def pop(self, channel: str) -> list[dict]:
        """What has queued up for ``channel``'s process (up to ``receive_batch`` messages), or
        else what comes within one blocking read; [] if nothing came."""
        connection = self.connection(self.shard(channel))
        key = self.channel_key(channel)
        popped = await connection.zpopmin(key, self.receive_batch)
        if popped:
            contents = [member for member, _score in popped]
        else:
            found = await connection.bzpopmin(key, timeout=self.brpop_timeout)
            contents = [] if found is None else [found[1]]
        return [self.deserialize(content) for content in contents]

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


class _Inbox:
    """One event loop's process channels: one reader pops their messages in batches while any of
    them waits, files each under its channels, and wakes only the receivers that got one (a
    process holds hundreds of sockets, each always waiting on its channel)."""

    def __init__(self, layer: BatchingRedisChannelLayer, channel: str):
        self.layer = layer
        self.channel = channel  # any channel of the process: they share one key
        self.messages: dict[str, collections.deque] = {}
        self.waiting: dict[str, asyncio.Future] = {}
        self.reader: asyncio.Task | None = None

    async def receive(self, channel: str) -> dict:
        """The channel's next message. One receiver a channel, as Channels' consumers read."""
        loop = asyncio.get_running_loop()
        while True:
            queued = self.messages.get(channel)
            if queued:
                message = queued.popleft()
                if not queued:
                    del self.messages[channel]
                return message
            woken = self.waiting[channel] = loop.create_future()
            if self.reader is None or self.reader.done():
                self.reader = loop.create_task(self._read())
            try:
                await woken  # a reader's outage is raised here
            finally:
                if self.waiting.get(channel) is woken:
                    del self.waiting[channel]

    async def _read(self) -> None:
        """Pops while a receiver waits. A receiver cancelled meanwhile leaves the pop to finish:
        what it read is filed for the channel's next receiver."""
        while self.waiting:
            try:
                messages = await self.layer.pop(self.channel)
            except asyncio.CancelledError:
                for woken in self.waiting.values():
                    woken.cancel()
                raise
            except Exception as outage:
                for woken in self.waiting.values():
                    if not woken.done():
                        woken.set_exception(outage)
                return  # the next receive starts a reader again
            for message in messages:
                targets = message.pop("__asgi_channel__", self.channel)
                for target in targets if isinstance(targets, list) else [targets]:
                    queued = self.messages.get(target)
                    if queued is None:
                        queued = self.messages[target] = collections.deque(
                            maxlen=self.layer.capacity
                        )
                    queued.append(message)
                    woken = self.waiting.get(target)
                    if woken is not None and not woken.done():
                        woken.set_result(None)


class InMemoryChannelLayer(channels.layers.InMemoryChannelLayer):
    """Channels' in-memory layer (the embedded site) with ``group_send_except``."""

    async def group_send_except(self, group, message, skipped_channel) -> int:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        # Members past the group expiry are dropped by Channels on every receive.
        others = [channel for channel in self.groups.get(group, {}) if channel != skipped_channel]
        for channel in others:
            try:
                await self.send(channel, message)
            except channels.exceptions.ChannelFull:
                log.info("channel %s over capacity in group %s", channel, group)
        return len(others)


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
