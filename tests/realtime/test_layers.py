"""The site's channel layer, channels_redis's own, against the real Redis: what live play relies on
(group news reaching every member on every process once and in order, a blocking read outliving
redis-py's timeout), and the watch that notices a Redis which lost its groups."""

import asyncio
import uuid

import pytest
from channels_redis.core import RedisChannelLayer

from realtime.layers import MembershipWatch, memberships_lost

TIMEOUT = 5


@pytest.fixture
def make_layer(services):
    """Layers sharing one Redis and one prefix, as the server processes of one site do."""
    prefix = f"test-layers-{uuid.uuid4().hex[:8]}"
    hosts = [{"address": services.REDIS_URL, "socket_timeout": 15}]
    yield lambda: RedisChannelLayer(hosts=hosts, prefix=prefix)
    asyncio.run(RedisChannelLayer(hosts=hosts, prefix=prefix).flush())


async def receive(layer, channel):
    return await asyncio.wait_for(layer.receive(channel), TIMEOUT)


async def test_group_news_reaches_every_member_on_every_process_once(make_layer):
    one, two = make_layer(), make_layer()
    ana, ben = await one.new_channel(), await one.new_channel()
    carla = await two.new_channel()
    for layer, channel in ((one, ana), (one, ben), (two, carla)):
        await layer.group_add("match.7", channel)

    for version in (1, 2, 3):
        await one.group_send("match.7", {"type": "match.changed", "version": version})

    for layer, channel in ((one, ana), (one, ben), (two, carla)):
        got = [await receive(layer, channel) for _ in range(3)]
        assert [m["version"] for m in got] == [1, 2, 3]
    # Nothing more for anyone: each message was delivered once.
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(one.receive(ana), 0.3)


@pytest.mark.timeout(60)
async def test_a_process_with_no_news_for_longer_than_a_blocking_read_keeps_listening(services):
    """The site's layer settings: a read that blocks in Redis for its whole timeout (5 s) returns
    "nothing" and reads again, instead of redis-py giving up on the socket first."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel()
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.sleep(layer.brpop_timeout + 1.5)
    assert not waiting.done(), waiting.exception()
    await layer.send(channel, {"type": "late.news"})
    assert (await asyncio.wait_for(waiting, TIMEOUT))["type"] == "late.news"


async def test_a_redis_that_lost_its_data_is_noticed_once_its_mark_is_gone(make_layer):
    layer = make_layer()
    assert await memberships_lost(layer, "watcher")  # the first look makes the mark
    assert not await memberships_lost(layer, "watcher")
    await layer.flush()  # as a restart without persistence, or FLUSHALL, leaves it
    assert await memberships_lost(layer, "watcher")
    assert not await memberships_lost(layer, "watcher")


async def test_the_watch_tells_each_watched_socket_its_groups_were_lost(make_layer, monkeypatch):
    monkeypatch.setattr(MembershipWatch, "BEAT_SECONDS", 0.05)
    layer = make_layer()
    channel = await layer.new_channel()
    watch = MembershipWatch.of(layer)
    watch.watch(channel)
    await asyncio.sleep(0.2)  # marked
    await layer.flush()
    assert (await receive(layer, channel))["type"] == "groups.lost"
    watch.unwatch(channel)


async def test_an_in_memory_layer_is_not_watched():
    from channels.layers import InMemoryChannelLayer

    assert MembershipWatch.of(InMemoryChannelLayer()) is None
