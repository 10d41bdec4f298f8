"""Where live play leans on Channels' internals, fenced; and that it reads no private member of
Channels, channels_redis or asgiref.

``games.consumers.MatchConsumer`` overrides Channels' ``dispatch`` and every socket
(``realtime.sockets.CleanSocket``) its ``websocket_disconnect``, without their
``close_old_connections``; CleanSocket also reads its channel through ``channel_receive``. What
they copy or call is pinned here by its source: a new release that changes any of it fails this
test, and docs/live-play.md ("Upgrading Channels or channels_redis") says what to re-read.

``realtime/layers.py`` needs no pin: it subclasses channels_redis's layer for its connection pools
and uses only public methods (its own keys are channels_redis's documented storage).
"""

from __future__ import annotations

import hashlib
import inspect

import channels.layers
import pytest
from channels.consumer import AsyncConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels_redis.core import RedisChannelLayer

from games import consumers
from realtime import sockets

UPGRADE_NOTE = "docs/live-play.md, 'Upgrading Channels or channels_redis'"

# (owner, attribute): the first 16 hex digits of its source's SHA-256, as last read.
READ_AND_RELIED_ON = {
    (AsyncConsumer, "dispatch"): "39f34e7d4fb0f655",
    # realtime.sockets.CleanSocket reads the socket's channel through ``channel_receive``, which
    # this sets, to wait out a Redis restart instead of ending the socket.
    (AsyncConsumer, "__call__"): "e52238720872dbc3",
    (AsyncWebsocketConsumer, "websocket_disconnect"): "10f38aa55fd51ff5",
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
    assert consumers.MatchConsumer.dispatch is consumers.LoopDispatch.dispatch
    assert consumers.MatchConsumer.__mro__[1] is consumers.LoopDispatch
    # Every socket's disconnect skips close_old_connections (realtime.sockets.CleanSocket).
    assert "websocket_disconnect" in vars(sockets.CleanSocket)
    assert issubclass(consumers.MatchConsumer, sockets.CleanSocket)
    assert "self.channel_receive" in inspect.getsource(AsyncConsumer.__call__)
    # What dispatch skips on purpose is still what Channels does there.
    assert "aclose_old_connections" in inspect.getsource(AsyncConsumer.dispatch)


def _library_privates() -> set[str]:
    """The private members of the layers, consumers and sync helpers live play builds on: their
    classes' and a fresh instance's names with one leading underscore."""
    from asgiref.sync import AsyncToSync, SyncToAsync

    owners = [
        RedisChannelLayer,
        RedisChannelLayer(),
        channels.layers.InMemoryChannelLayer,
        channels.layers.InMemoryChannelLayer(),
        channels.layers.BaseChannelLayer,
        AsyncConsumer,
        AsyncWebsocketConsumer,
        SyncToAsync,
        AsyncToSync,
    ]
    names = set()
    for owner in owners:
        names |= set(dir(owner)) | set(getattr(owner, "__dict__", {}))
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def test_no_private_member_of_channels_channels_redis_or_asgiref_is_read():
    """The layer reads and writes Redis through redis-py's public API and its parent's public
    methods; a private member of theirs read anywhere in the project is named here."""
    import ast
    from pathlib import Path

    privates = _library_privates()
    assert {"_group_key", "_map_channel_keys_to_connection", "_clean_expired"} <= privates
    root = Path(__file__).resolve().parents[2]
    found = []
    for package in ("accounts", "classroom", "config", "engine", "games", "realtime"):
        for path in (root / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Attribute) and node.attr in privates:
                    found.append(f"{path.relative_to(root)}:{node.lineno} {node.attr}")
    assert not found, found
