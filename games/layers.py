"""The Redis channel layer, receiving each server process's news in batches.

channels_redis keeps every message for a server process in one sorted set and reads it one message
at a time, with four sequential Redis round trips per message (a clean-up script, BZPOPMIN, a
backup copy, its removal) and one reader at a time. On a busy event loop each round trip waits its
turn, so a process with hundreds of sockets falls behind its news long before its CPU is spent:
in the load test (docs/capacity.md) that was the p99 of move-to-broadcast latency, 120 ms at
180 moves/s where this class keeps it under 50 ms.

This class reads whatever has queued up with one ZPOPMIN (up to ``receive_batch`` messages) and
blocks with BZPOPMIN only when nothing has. The backup copy goes: the layer delivers at most once
(DESIGN.md), and what the backup protected against, a reader cancelled after its pop, is handled
here by letting the pop finish and handing its messages to the next reader. Groups, sending,
capacity and expiry are channels_redis's own.
"""

from __future__ import annotations

import asyncio
import weakref

from channels_redis.core import RedisChannelLayer


class BatchingRedisChannelLayer(RedisChannelLayer):
    receive_batch = 100

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The pop in flight, per event loop (Redis connections belong to one loop).
        self._popping: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Future] = (
            weakref.WeakKeyDictionary()
        )

    async def receive_single(self, channel):
        if "!" not in channel:  # a shared (not process-specific) channel: read as channels_redis
            return await super().receive_single(channel)
        # channels_redis's receive() lets one reader at a time in here and delivers what this
        # returns; the messages popped with it are delivered here, before it, in their order.
        loop = asyncio.get_running_loop()
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
        connection = self.connection(self.consistent_hash(channel))
        key = self.prefix + channel
        while True:
            popped = await connection.zpopmin(key, self.receive_batch)
            if popped:
                return [member for member, _score in popped]
            found = await connection.bzpopmin(key, timeout=self.brpop_timeout)
            if found is not None:
                return [found[1]]
