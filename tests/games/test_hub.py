"""games.delivery.MatchHub: each process hears a match's news once and hands it to its own sockets;
its own news reaches its own sockets without the channel layer and the other processes through
it, once each. Two hubs on one layer stand for two server processes."""

import asyncio
import uuid

import channels.layers
import pytest

from games.delivery import MatchHub, match_group
from realtime.layers import BatchingRedisChannelLayer, InMemoryChannelLayer

TIMEOUT = 5


class Socket:
    def __init__(self):
        self.heard = []
        self.news = asyncio.Event()

    async def hear(self, message):
        self.heard.append(message["version"])
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

    async def group_send_except(self, group, message, skipped_channel):
        self.sent.append((group, message.get("version", message["type"]), skipped_channel))
        return await super().group_send_except(group, message, skipped_channel)


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
    yield lambda: BatchingRedisChannelLayer(hosts=hosts, prefix=prefix)
    asyncio.run(BatchingRedisChannelLayer(hosts=hosts, prefix=prefix).flush())


def news(version):
    return {"type": "match.changed", "match_id": 7, "version": version}


async def heard_join(hub, match_id=7):
    """Until ``hub``, which joined the match's group first, has heard that another process
    joined it (``match.joined``): till then it keeps the match's news at home."""
    async with asyncio.timeout(TIMEOUT):
        while hub._is_alone(match_id):
            await asyncio.sleep(0.01)


async def test_own_news_reaches_own_sockets_at_once_and_each_other_process_once(layers):
    here, there = MatchHub(layers()), MatchHub(layers())
    ana, ben, carla = Socket(), Socket(), Socket()
    await here.join(7, ana)
    await here.join(7, ben)
    await there.join(7, carla)
    await heard_join(here)

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


async def test_a_process_sends_its_news_to_the_layer_for_the_others_only():
    layer = Spying()
    here, there = MatchHub(layer), MatchHub(layer)
    ana, carla = Socket(), Socket()
    await here.join(7, ana)
    await there.join(7, carla)
    await heard_join(here)
    layer.sent.clear()
    await here.publish(7, news(1))
    assert layer.sent == [("match.7", 1, here.channel)]
    await carla.wait_for(1)
    await here.leave(7, ana)
    await there.leave(7, carla)


async def test_a_process_alone_with_a_match_keeps_its_news_at_home():
    """Routed by match, no other process has the match's sockets: its news goes to nobody
    through the layer, not even to ask the group who is in it."""
    layer = Spying()
    here = MatchHub(layer)
    ana = Socket()
    await here.join(7, ana)
    assert layer.sent == [("match.7", "match.joined", here.channel)]  # nobody to tell

    for version in (1, 2, 3):
        await here.publish(7, news(version))

    assert ana.heard == [1, 2, 3]
    assert layer.sent == [("match.7", "match.joined", here.channel)]
    await here.leave(7, ana)


async def test_a_process_that_joins_gets_the_news_kept_at_home_and_all_that_follows(layers):
    """The process that kept a match's news at home sends it to the one that says it joined
    (whose socket read the match before joining, and may lack it), and its next news to the
    group."""
    here, there = MatchHub(layers()), MatchHub(layers())
    ana, carla = Socket(), Socket()
    await here.join(7, ana)
    await here.publish(7, news(1))  # alone: kept at home

    await there.join(7, carla)
    await carla.wait_for(1)
    await here.publish(7, news(2))
    await carla.wait_for(2)

    assert ana.heard == carla.heard == [1, 2]
    await here.leave(7, ana)
    await there.leave(7, carla)


async def test_news_whose_send_found_nobody_is_kept_for_a_process_joining_just_after(layers):
    """A socket reads the match, then its process joins the group: news committed in between
    and sent to the group before the join reached nobody, yet that socket lacks it."""
    here, there = MatchHub(layers()), MatchHub(layers())
    ana, carla = Socket(), Socket()
    await here.join(7, ana)
    here._alone.clear()  # as if its own join had found a member that left since
    await here.publish(7, news(1))  # its send finds nobody

    await there.join(7, carla)
    await carla.wait_for(1)

    assert carla.heard == [1]
    await here.leave(7, ana)
    await there.leave(7, carla)


async def test_a_join_heard_while_asking_the_group_keeps_the_process_sending():
    """Another process said it joined while this one's question to the group was on its way:
    the empty answer is out of date, and the next news goes to the group again."""

    class JoinCrossing(Spying):
        hub = None

        async def group_send_except(self, group, message, skipped_channel):
            others = await super().group_send_except(group, message, skipped_channel)
            if message["type"] == "match.changed":
                await self.hub._joined_elsewhere(7)
            return others

    layer = JoinCrossing()
    here = JoinCrossing.hub = MatchHub(layer)
    ana = Socket()
    await here.join(7, ana)
    here._alone.clear()  # as if its own join had found a member that left since
    await here.publish(7, news(1))
    await here.publish(7, news(2))

    assert [version for _group, version, _channel in layer.sent] == ["match.joined", 1, 2]
    await here.leave(7, ana)


async def test_a_process_alone_asks_the_group_again_after_a_while(monkeypatch):
    """A notice of a join can be lost (Redis restarted, a channel full): a process alone with a
    match asks the group again after ``ALONE_SECONDS``."""
    monkeypatch.setattr("games.delivery.ALONE_SECONDS", 0.05)
    layer = Spying()
    here = MatchHub(layer)
    ana = Socket()
    await here.join(7, ana)
    await here.publish(7, news(1))
    await asyncio.sleep(0.1)
    await here.publish(7, news(2))
    await here.publish(7, news(3))

    assert [version for _group, version, _channel in layer.sent] == ["match.joined", 2]
    await here.leave(7, ana)


async def test_a_process_that_finds_another_after_a_while_keeps_no_news_at_home(monkeypatch):
    """Another process joined unheard (its notice lost): once the first asks the group again and
    finds it, each piece of news goes to it, and none is kept at home any more."""
    monkeypatch.setattr("games.delivery.ALONE_SECONDS", 0.05)
    layer = Spying()
    here = MatchHub(layer)
    ana = Socket()
    await here.join(7, ana)
    await here.publish(7, news(1))  # alone: kept at home
    unheard = await layer.new_channel()
    await layer.group_add(match_group(7), unheard)  # joined without a word
    await asyncio.sleep(0.1)

    await here.publish(7, news(2))  # asks the group again, and finds it
    await here.publish(7, news(3))

    async with asyncio.timeout(TIMEOUT):
        assert [(await layer.receive(unheard))["version"] for _ in range(2)] == [2, 3]
    assert here._kept_home.get(7) is None
    await here.leave(7, ana)


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


async def test_a_layer_without_group_send_except_still_delivers_once():
    layer = channels.layers.InMemoryChannelLayer()
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
