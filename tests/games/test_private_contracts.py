"""The two places live play leans on Channels' and channels_redis's internals, fenced.

``games/layers.py`` subclasses channels_redis's layer (batched reads, a group send in two round
trips, ``group_send_except``), ``games.consumers.MatchConsumer`` overrides Channels' ``dispatch``
and every socket (``accounts.sockets.CleanSocket``) its ``websocket_disconnect``, without their
``close_old_connections``; CleanSocket also reads its channel through ``channel_receive``. Both were
kept after routing a match's sockets to one process (docker/nginx.conf): a process's own news still
needs one look at the match's group, and the stock layer would send it back to its sender through
Redis: routed by match at 180 moves/s, the stock layer took the servers a quarter more CPU per move
and Redis four times as much (docs/capacity.md, "Design choices the figures support").

What they copy or call is pinned here by its source: a new release that changes any of it fails this
test, and docs/live-play.md ("Upgrading Channels or channels_redis") says what to re-read.
"""

from __future__ import annotations

import hashlib
import inspect

import channels.layers
import pytest
from channels.consumer import AsyncConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels_redis.core import RedisChannelLayer

from accounts import sockets
from games import consumers, layers

UPGRADE_NOTE = "docs/live-play.md, 'Upgrading Channels or channels_redis'"

# (owner, attribute): the first 16 hex digits of its source's SHA-256, as last read.
READ_AND_RELIED_ON = {
    (AsyncConsumer, "dispatch"): "39f34e7d4fb0f655",
    # accounts.sockets.CleanSocket reads the socket's channel through ``channel_receive``, which
    # this sets, to wait out a Redis restart instead of ending the socket.
    (AsyncConsumer, "__call__"): "e52238720872dbc3",
    (AsyncWebsocketConsumer, "websocket_disconnect"): "10f38aa55fd51ff5",
    (RedisChannelLayer, "group_send"): "c9623ea6ccfa7308",
    (RedisChannelLayer, "receive"): "158a09895d9a7c8e",
    (RedisChannelLayer, "receive_single"): "5a498bb3a2545bf1",
    (RedisChannelLayer, "_map_channel_keys_to_connection"): "789f9193b4536625",
    (RedisChannelLayer, "_group_key"): "7e89938e1cb20f26",
    (RedisChannelLayer, "consistent_hash"): "ba115e0235516e21",
    (RedisChannelLayer, "connection"): "d975ed8505cf7594",
    (channels.layers.InMemoryChannelLayer, "group_send"): "693c3172deb6431b",
}


def digest(owner, name: str) -> str:
    return hashlib.sha256(inspect.getsource(getattr(owner, name)).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("owner", "name"), list(READ_AND_RELIED_ON), ids=lambda x: getattr(x, "__name__", x)
)
def test_what_live_play_copies_or_calls_is_as_it_was_read(owner, name):
    assert digest(owner, name) == READ_AND_RELIED_ON[(owner, name)], (
        f"{owner.__module__}.{owner.__name__}.{name} changed: see {UPGRADE_NOTE}"
    )


def test_the_overrides_are_still_overrides_of_those():
    assert layers.BatchingRedisChannelLayer.__mro__[1] is RedisChannelLayer
    assert issubclass(layers.InMemoryChannelLayer, channels.layers.InMemoryChannelLayer)
    assert "dispatch" in vars(consumers.MatchConsumer)
    # Every socket's disconnect skips close_old_connections (accounts.sockets.CleanSocket).
    assert "websocket_disconnect" in vars(sockets.CleanSocket)
    assert issubclass(consumers.MatchConsumer, sockets.CleanSocket)
    assert "self.channel_receive" in inspect.getsource(AsyncConsumer.__call__)
    # receive() still reads through receive_single, which the batching layer replaces.
    assert "self.receive_single(" in inspect.getsource(RedisChannelLayer.receive)
    # What dispatch skips on purpose is still what Channels does there.
    assert "aclose_old_connections" in inspect.getsource(AsyncConsumer.dispatch)
