"""realtime.layers.BatchingRedisChannelLayer against the real Redis: group news reaches every member
on every process once and in order, expired members and messages are dropped, capacity holds, and
batched receiving hands every message to its own channel."""

import asyncio
import time
import uuid

import pytest
import redis.asyncio

from realtime.layers import BatchingRedisChannelLayer

TIMEOUT = 5


@pytest.fixture
def make_layer(services):
    """Layers sharing one Redis and one prefix, as the server processes of one site do."""
    prefix = f"test-layers-{uuid.uuid4().hex[:8]}"
    made = []

    def make(**config):
        layer = BatchingRedisChannelLayer(
            hosts=[{"address": services.REDIS_URL, "socket_timeout": 15}], prefix=prefix, **config
        )
        made.append(layer)
        return layer

    yield make
    if made:
        asyncio.run(BatchingRedisChannelLayer(hosts=made[0].hosts, prefix=prefix).flush())


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
        assert all("__asgi_channel__" not in m for m in got)
    # Nothing more for anyone: each message was delivered once.
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(one.receive(ana), 0.3)


async def test_a_group_without_members_costs_nothing_and_raises_nothing(make_layer):
    layer = make_layer()
    await layer.group_send("match.nobody", {"type": "match.changed", "version": 1})


async def test_members_older_than_the_group_expiry_are_dropped_not_sent_to(make_layer):
    layer = make_layer(group_expiry=60)
    fresh, stale = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("match.8", fresh)
    await layer.group_add("match.8", stale)
    connection = layer.connection(layer.consistent_hash("match.8"))
    await connection.zadd(layer.group_key("match.8"), {stale: int(time.time()) - 3600})

    await layer.group_send("match.8", {"type": "match.changed", "version": 1})

    assert (await receive(layer, fresh))["version"] == 1
    members = await connection.zrange(layer.group_key("match.8"), 0, -1)
    assert members == [fresh.encode()]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(stale), 0.3)


async def test_news_of_a_group_whose_only_other_member_is_skipped_costs_one_command(
    make_layer, monkeypatch
):
    """Routed by match, a server's hub is almost always the only member of its match's group:
    relaying each move's news to the other processes must then be one Redis command (the
    member read, with the expired members' removal), not a pipeline (docs/capacity.md)."""
    layer = make_layer()
    hub, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("match.13", hub)
    sent = []
    execute_command = redis.asyncio.Redis.execute_command
    pipeline = redis.asyncio.Redis.pipeline

    async def counted_command(self, *args, **options):
        sent.append(args[0])
        return await execute_command(self, *args, **options)

    def counted_pipeline(self, *args, **options):
        sent.append("a pipeline")
        return pipeline(self, *args, **options)

    monkeypatch.setattr(redis.asyncio.Redis, "execute_command", counted_command)
    monkeypatch.setattr(redis.asyncio.Redis, "pipeline", counted_pipeline)
    others = await layer.group_send_except("match.13", {"type": "match.changed", "version": 1}, hub)
    assert len(sent) == 1 and sent != ["a pipeline"], sent
    assert others == 0  # the hub then keeps the match's next news at home (games/delivery.py)

    # With another member, the news goes to it in one more command, and to the skipped not at all.
    await layer.group_add("match.13", other)
    sent.clear()
    others = await layer.group_send_except("match.13", {"type": "match.changed", "version": 2}, hub)
    assert len(sent) == 2 and "a pipeline" not in sent, sent
    assert others == 1
    assert (await receive(layer, other))["version"] == 2
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(hub), 0.3)


async def test_a_full_channel_drops_news_beyond_its_capacity(make_layer):
    layer = make_layer(capacity=2)
    channel = await layer.new_channel()
    await layer.group_add("match.9", channel)
    for version in (1, 2, 3, 4):
        await layer.group_send("match.9", {"type": "match.changed", "version": version})
    got = [(await receive(layer, channel))["version"] for _ in range(2)]
    assert got == [1, 2]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.3)


async def test_a_full_process_channel_refuses_a_direct_send(make_layer):
    from channels.exceptions import ChannelFull

    layer = make_layer(capacity=2)
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "groups.lost"})
    await layer.send(channel, {"type": "groups.lost"})
    with pytest.raises(ChannelFull):
        await layer.send(channel, {"type": "groups.lost"})
    assert (await receive(layer, channel))["type"] == "groups.lost"


async def test_a_receiver_cancelled_while_its_read_is_in_redis_loses_nothing(make_layer):
    """A socket's receive is cancelled when it closes (or times out): the read already sent to
    Redis goes on and files what it pops, so the next receiver of each channel gets it."""
    sender, layer = make_layer(), make_layer()
    ana, ben = await layer.new_channel(), await layer.new_channel()
    for channel in (ana, ben):
        await layer.group_add("match.12", channel)
    waiting = asyncio.ensure_future(layer.receive(ana))
    await asyncio.sleep(0.2)  # the read now blocks in Redis (BZPOPMIN): nothing has queued
    waiting.cancel()
    await sender.group_send("match.12", {"type": "match.changed", "version": 1})
    await sender.group_send("match.12", {"type": "match.changed", "version": 2})
    assert [(await receive(layer, ana))["version"] for _ in range(2)] == [1, 2]
    assert [(await receive(layer, ben))["version"] for _ in range(2)] == [1, 2]


async def test_expired_messages_are_cleared_when_news_is_sent(make_layer):
    layer = make_layer(expiry=10)
    channel = await layer.new_channel()
    await layer.group_add("match.10", channel)
    key = layer.prefix + channel[: channel.index("!") + 1]
    connection = layer.connection(layer.consistent_hash(channel))
    await connection.zadd(key, {b"an old message nobody read": time.time() - 3600})

    await layer.group_send("match.10", {"type": "match.changed", "version": 1})

    assert await connection.zcard(key) == 1  # the old one is gone, the new one waits
    assert (await receive(layer, channel))["version"] == 1


async def test_a_batch_read_hands_each_message_to_its_own_channel_in_order(make_layer):
    layer = make_layer()
    channels = [await layer.new_channel() for _ in range(5)]
    for index, channel in enumerate(channels):
        await layer.group_add(f"match.{100 + index}", channel)
    for version in range(1, 21):
        for index in range(5):
            await layer.group_send(f"match.{100 + index}", {"type": "x", "version": version})
    # Every message is queued before the first read: it comes back in one ZPOPMIN.
    for channel in channels:
        assert [(await receive(layer, channel))["version"] for _ in range(20)] == list(range(1, 21))


@pytest.mark.slow
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


async def test_one_read_in_redis_serves_every_waiting_channel_of_a_process(make_layer):
    """A process's sockets each wait on their channel; one reader pops for all of them (not one
    blocking read per socket) and wakes only the receiver whose message came."""
    sender, layer = make_layer(), make_layer()
    channels = [await layer.new_channel() for _ in range(50)]
    in_redis, most_in_redis, pops = 0, 0, 0
    pop = layer.pop

    async def counted_pop(channel):
        nonlocal in_redis, most_in_redis, pops
        in_redis += 1
        pops += 1
        most_in_redis = max(most_in_redis, in_redis)
        try:
            return await pop(channel)
        finally:
            in_redis -= 1

    layer.pop = counted_pop
    waiting = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
    await asyncio.sleep(0.2)
    await sender.send(channels[7], {"type": "groups.lost"})
    assert (await asyncio.wait_for(waiting[7], TIMEOUT))["type"] == "groups.lost"
    await asyncio.sleep(0.1)
    assert [i for i, receiving in enumerate(waiting) if receiving.done()] == [7]
    assert most_in_redis == 1
    assert pops <= 3  # the blocking read that got the message, and the next one
    for receiving in waiting:
        receiving.cancel()
