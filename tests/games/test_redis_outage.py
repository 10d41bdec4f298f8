"""Redis stopped, and Redis restarted, under a real Daphne process: every socket handshake gets a
clear answer (accepted, or closed with 4503, "try again"), never HTTP 500 with a traceback,
and a restart heals at once (docs/live-play.md, "Outages")."""

import asyncio
import contextlib
import json
import time

import pytest
import websockets
from channels_redis.core import RedisChannelLayer
from django.conf import settings

from classroom.sessions.push import student_group
from tests.factories import make_class, make_match, make_student, session_cookie_for
from tests.games.test_redis_restart import OwnRedis
from tests.games.test_two_daphnes import a_move
from tools.loadtest.servers import DaphneFleet, match_socket, origin_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

WAIT_S = 10
CLOSE_TRY_AGAIN = 4503
HEARD_AGAIN_WITHIN_S = 6  # the sockets' membership check every second, and Redis's retries


async def student_socket_answer(base: str, cookie: str) -> str:
    """What the student's sessions socket (``/ws/student/``) answers a new handshake: "sessions"
    (accepted, its first message), "closed <code>", or "HTTP <status>"."""
    try:
        async with websockets.connect(
            f"{base}/ws/student/",
            origin=origin_for(base),
            additional_headers={"Cookie": cookie},
            proxy=None,
            open_timeout=WAIT_S,
        ) as ws:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
            except websockets.ConnectionClosed as closed:
                return f"closed {closed.rcvd.code if closed.rcvd else 1006}"
            return message["type"]
    except websockets.InvalidStatus as refused:
        return f"HTTP {refused.response.status_code}"


def a_table():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(
        game="add_up", variant="no_jokers", players=[ana, ben], options={"first_player": "seat0"}
    )
    return match, session_cookie_for(ana)


def assert_no_traceback(fleet):
    tail = fleet.log_tail(20_000)
    assert "Traceback" not in tail, tail


@pytest.mark.timeout(90)
def test_a_stopped_redis_gets_handshakes_a_clear_answer_and_live_play_goes_on(services, tmp_path):
    match, cookie = a_table()
    redis = OwnRedis(tmp_path)
    redis.start()

    async def while_redis_is_down(base):
        assert await student_socket_answer(base, cookie) == "sessions"
        redis.kill()
        # The class's news needs Redis: the page is told to come back.
        assert await student_socket_answer(base, cookie) == f"closed {CLOSE_TRY_AGAIN}"
        # A match socket needs only the database: it is accepted and its moves are applied.
        async with match_socket(base, match.pk, cookie, open_timeout=WAIT_S) as ws:
            view = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["view"]
            move = {"type": "move", "move": a_move(view), "client_id": "while-down"}
            await ws.send(json.dumps(move))
            answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
            assert answer["type"] == "state" and answer["client_id"] == "while-down", answer
            assert answer["version"] == view["version"] + 1
        redis.start()
        assert await student_socket_answer(base, cookie) == "sessions"

    try:
        with DaphneFleet(1, env={"REDIS_URL": redis.url}) as fleet:
            try:
                asyncio.run(while_redis_is_down(fleet.urls[0]))
            except BaseException:
                print(fleet.log_tail())
                raise
            assert_no_traceback(fleet)
    finally:
        redis.kill()


@pytest.mark.timeout(90)
def test_a_restarted_redis_is_healed_at_once_for_every_handshake(services, tmp_path):
    """The connections a process's pools kept from before the restart are stale: each failed
    the one handshake that drew it, long after the restart."""
    _match, cookie = a_table()
    redis = OwnRedis(tmp_path)
    redis.start()
    together = 30

    async def across_a_restart(base):
        # Many handshakes at once leave as many connections in the pools.
        first = await asyncio.gather(
            *(student_socket_answer(base, cookie) for _ in range(together))
        )
        assert first == ["sessions"] * together
        redis.kill()
        redis.start()
        after = await asyncio.gather(
            *(student_socket_answer(base, cookie) for _ in range(together))
        )
        after += [await student_socket_answer(base, cookie) for _ in range(together)]
        return after

    try:
        with DaphneFleet(1, env={"REDIS_URL": redis.url}) as fleet:
            started = time.monotonic()
            try:
                answers = asyncio.run(across_a_restart(fleet.urls[0]))
            except BaseException:
                print(fleet.log_tail())
                raise
            failed = [answer for answer in answers if answer != "sessions"]
            assert failed == [], f"{len(failed)} of {len(answers)}: {failed}"
            assert_no_traceback(fleet)
            print(
                f"{len(answers)} handshakes across the restart: {time.monotonic() - started:.1f} s"
            )
    finally:
        redis.kill()


def a_layer_on(redis, fleet) -> RedisChannelLayer:
    """A channel layer of the test's own on ``redis``, as the ``fleet``'s servers'."""
    config = dict(settings.CHANNEL_LAYERS["default"]["CONFIG"])
    config["hosts"] = [{**config["hosts"][0], "address": redis.url}]
    config["prefix"] = fleet.env["CHANNEL_LAYER_PREFIX"]
    return RedisChannelLayer(**config)


@pytest.mark.timeout(120)
def test_a_student_socket_open_across_a_redis_restart_hears_its_pushes_again(services, tmp_path):
    """A restarted Redis has lost every group's members: the student's socket, still open, heard
    nothing more of its class or of its seat until its page was reloaded."""
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    cookie = session_cookie_for(ana)
    redis = OwnRedis(tmp_path)
    redis.start()
    seated = {"type": "sessions.seated", "session_id": 1, "match_id": 1}

    async def seated_heard_within(ws, layer, seconds: float) -> float:
        """The teacher seats Ana, again and again until her socket hears of it: how long it
        took."""
        started = time.monotonic()
        while True:
            took = time.monotonic() - started
            assert took < seconds, "the socket never heard its pushes"
            await layer.group_send(student_group(ana.pk), seated)
            with contextlib.suppress(TimeoutError):
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    if message["type"] == "seated":
                        return time.monotonic() - started

    async def across_a_restart(base, layer):
        async with websockets.connect(
            f"{base}/ws/student/",
            origin=origin_for(base),
            additional_headers={"Cookie": cookie},
            proxy=None,
            open_timeout=WAIT_S,
        ) as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["type"] == "sessions"
            await seated_heard_within(ws, layer, WAIT_S)  # the test's layer is the servers'
            redis.kill()
            redis.start()
            took = await seated_heard_within(ws, layer, HEARD_AGAIN_WITHIN_S)
            print(f"heard again {took:.1f} s after the restart")
        await layer.close_pools()

    try:
        with DaphneFleet(1, env={"REDIS_URL": redis.url}) as fleet:
            try:
                asyncio.run(across_a_restart(fleet.urls[0], a_layer_on(redis, fleet)))
            except BaseException:
                print(fleet.log_tail())
                raise
            assert_no_traceback(fleet)
    finally:
        redis.kill()
