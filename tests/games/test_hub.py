"""games.delivery.MatchHub: each process hears a match's news once and hands it to its own sockets;
its own news reaches its own sockets without the channel layer and the other processes through
it, once each. Two hubs on one layer stand for two server processes."""

import asyncio
import uuid

import pytest
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

from games.delivery import MatchHub, match_group

TIMEOUT = 5


class Socket:
    def __init__(self):
        self.heard = []
        self.kinds = []
        self.news = asyncio.Event()

    async def hear(self, message):
        self.heard.append(message["version"])
        self.kinds.append(message["type"])
        self.news.set()

    async def wait_for(self, count):
        async with asyncio.timeout(TIMEOUT):
            while len(self.heard) < count:
                self.news.clear()
                await self.news.wait()


class Spying(InMemoryChannelLayer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.sent = []

    async def group_send(self, group, message):
        self.sent.append((group, message.get("version", message["type"]), message.get("origin")))
        return await super().group_send(group, message)


@pytest.fixture(params=["in-memory", pytest.param("redis", marks=pytest.mark.services)])
def layers(request):
    """A function giving the layer of each 'process': one shared in-memory layer, or one Redis
    layer per process on one Redis, as the site's server processes have."""
    if request.param == "in-memory":
        shared = InMemoryChannelLayer()
        yield lambda: shared
        return
    services = request.getfixturevalue("services")
    prefix = f"test-hub-{uuid.uuid4().hex[:8]}"
    hosts = [{"address": services.REDIS_URL, "socket_timeout": 15}]
    yield lambda: RedisChannelLayer(hosts=hosts, prefix=prefix)
    asyncio.run(RedisChannelLayer(hosts=hosts, prefix=prefix).flush())


def news(version):
    return {"type": "match.changed", "match_id": 7, "version": version}


async def test_own_news_reaches_own_sockets_at_once_and_each_other_process_once(layers):
    here, there = MatchHub(layers()), MatchHub(layers())
    ana, ben, carla = Socket(), Socket(), Socket()
    await here.join(7, ana)
    await here.join(7, ben)
    await there.join(7, carla)

    for version in (1, 2, 3):
        await here.publish(7, news(version))
        # Handed out before publish returns: the mover's own socket does not wait for the layer.
        assert ana.heard[-1] == ben.heard[-1] == version

    await carla.wait_for(3)
    assert carla.heard == [1, 2, 3]
    await asyncio.sleep(0.3)  # nothing more comes: no echo of its own news to the first process
    assert ana.heard == ben.heard == carla.heard == [1, 2, 3]
    for hub, socket in ((here, ana), (here, ben), (there, carla)):
        await hub.leave(7, socket)


async def test_a_process_sends_its_news_to_the_layer_once_marked_as_its_own():
    layer = Spying()
    here, there = MatchHub(layer), MatchHub(layer)
    ana, carla = Socket(), Socket()
    await here.join(7, ana)
    await there.join(7, carla)
    layer.sent.clear()
    await here.publish(7, news(1))
    assert layer.sent == [("match.7", 1, here.channel)]
    await carla.wait_for(1)
    await here.leave(7, ana)
    await there.leave(7, carla)


async def test_news_from_outside_a_server_reaches_every_process(layers):
    """A Celery task or a shell sends to the group: every hub hears it once."""
    here, there = MatchHub(layers()), MatchHub(layers())
    ana, carla = Socket(), Socket()
    await here.join(7, ana)
    await there.join(7, carla)

    await layers().group_send(match_group(7), news(4))

    await ana.wait_for(1)
    await carla.wait_for(1)
    assert ana.heard == carla.heard == [4]
    await here.leave(7, ana)
    await there.leave(7, carla)


async def test_a_process_drops_its_own_news_that_comes_back_through_the_layer():
    layer = InMemoryChannelLayer()
    here, there = MatchHub(layer), MatchHub(layer)
    ana, carla = Socket(), Socket()
    await here.join(7, ana)
    await there.join(7, carla)

    await here.publish(7, news(1))

    await carla.wait_for(1)
    await asyncio.sleep(0.3)  # its own copy came back through the layer and was dropped
    assert ana.heard == carla.heard == [1]
    await here.leave(7, ana)
    await there.leave(7, carla)


async def test_the_last_socket_to_leave_takes_the_process_out_of_the_group():
    layer = InMemoryChannelLayer()
    hub = MatchHub(layer)
    ana, ben = Socket(), Socket()
    await hub.join(7, ana)
    await hub.join(7, ben)
    await hub.leave(7, ana)
    assert hub.channel in layer.groups["match.7"] and hub.listeners(7) == 1

    await hub.leave(7, ben)

    assert hub.channel not in layer.groups.get("match.7", {})
    assert hub.listeners(7) == 0 and hub._reader is None
    await hub.leave(7, ben)  # a second leave changes nothing


async def test_a_socket_that_fails_does_not_keep_news_from_the_others(caplog):
    class Broken(Socket):
        async def hear(self, message):
            raise RuntimeError("socket gone")

    hub = MatchHub(InMemoryChannelLayer())
    broken, ben = Broken(), Socket()
    await hub.join(7, broken)
    await hub.join(7, ben)

    await hub.publish(7, news(1))

    assert ben.heard == [1]
    assert "could not take its news" in caplog.text
    await hub.leave(7, broken)
    await hub.leave(7, ben)


async def test_news_for_another_match_or_without_a_match_reaches_nobody_here(caplog):
    layer = InMemoryChannelLayer()
    here, there = MatchHub(layer), MatchHub(layer)
    ana = Socket()
    await here.join(7, ana)
    await there.join(8, Socket())
    await there.publish(8, {"type": "match.changed", "match_id": 8, "version": 1})
    await layer.group_send(match_group(7), {"type": "match.changed", "version": 2})
    await layer.group_send(match_group(7), news(3))

    await ana.wait_for(1)
    assert ana.heard == [3]
    assert "without a match id" in caplog.text
    await here.leave(7, ana)


async def test_news_that_overtook_an_earlier_version_waits_for_it():
    """Two moves applied a millisecond apart in two processes: the later one's news can reach a
    third process first. The hub holds it back until the earlier one arrives, so every socket
    hears each version, events included, in order."""
    hub = MatchHub(InMemoryChannelLayer())
    socket = Socket()
    await hub.join(7, socket)
    try:
        hub.saw(7, 1)  # the socket's first state
        await hub._hand_out(7, news(3))
        await hub._hand_out(7, news(2))
        await socket.wait_for(2)
        assert socket.heard == [2, 3]
    finally:
        await hub.leave(7, socket)


async def test_news_whose_earlier_version_never_comes_is_handed_out_after_a_short_wait():
    hub = MatchHub(InMemoryChannelLayer())
    socket = Socket()
    await hub.join(7, socket)
    try:
        hub.saw(7, 1)
        await hub._hand_out(7, news(3))  # version 2's news was lost (at most once)
        assert socket.heard == []
        await socket.wait_for(1)
        assert socket.heard == [3]
        await hub._hand_out(7, news(4))  # and then the match's news flows on at once
        assert socket.heard == [3, 4]
    finally:
        await hub.leave(7, socket)


async def test_a_pause_that_overtook_the_move_it_follows_waits_for_it():
    """Every kind of a match's news carries the version it was made at: a pause made after move 2,
    arriving before move 2's news, is handed out after it, as it was committed."""
    hub = MatchHub(InMemoryChannelLayer())
    socket = Socket()
    await hub.join(7, socket)
    try:
        hub.saw(7, 1)
        await hub._hand_out(7, {"type": "match.clock", "match_id": 7, "version": 2})
        await hub._hand_out(7, news(2))
        await socket.wait_for(2)
        assert socket.heard == [2, 2]
        assert socket.kinds == ["match.changed", "match.clock"]
    finally:
        await hub.leave(7, socket)
