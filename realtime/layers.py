"""The channel layers are the stock ones (config/settings.py): channels_redis's
``RedisChannelLayer`` with the services, Channels' ``InMemoryChannelLayer`` embedded. What is here
watches for a Redis that lost its groups.

A Redis that restarts (or is flushed) forgets every group's members, while the sockets that had
joined them stay open and hear nothing more. ``MembershipWatch`` notices, once a second for a
whole process, and tells each socket it watches to join its groups again (the match sockets have
the hub's heartbeat instead, games/delivery.py). It keeps a mark of its own on each Redis of the
layer, under a key of its own, through the layer's public ``connection``.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref

import channels.exceptions

from realtime.sockets import OUTAGES

log = logging.getLogger(__name__)


async def memberships_lost(layer, watcher: str) -> bool:
    """Whether a Redis of ``layer`` lost its data (restarted, flushed) since ``watcher`` last
    asked: each Redis keeps a mark of the watcher's, which goes with its data."""
    key = f"{layer.prefix}membership-watch:{watcher}"
    lost = False
    for index in range(layer.ring_size):
        pipe = layer.connection(index).pipeline(transaction=False)
        pipe.exists(key)
        pipe.set(key, 1, ex=MembershipWatch.MARK_EXPIRY_SECONDS)
        existed, _set = await pipe.execute()
        lost = lost or not existed
    return lost


class MembershipWatch:
    """The channels of a process's sockets whose groups must outlive a Redis restart. When the
    layer's Redis lost its memberships, each is sent ``{"type": "groups.lost"}``, and its consumer
    joins its groups again (and catches up on what it missed)."""

    BEAT_SECONDS = 1.0
    # A mark outlives many beats; one a dead process left goes by itself.
    MARK_EXPIRY_SECONDS = 60

    _watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, MembershipWatch]] = (
        weakref.WeakKeyDictionary()
    )

    @classmethod
    def of(cls, layer) -> MembershipWatch | None:
        """This event loop's watch of ``layer``; None for a layer that cannot lose its groups
        while the process lives (in memory: it has no Redis connections)."""
        if not hasattr(layer, "connection"):
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
                lost = await memberships_lost(self.layer, self.name)
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
