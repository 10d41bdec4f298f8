"""Redis hung (it accepts connections and answers nothing), and Redis away while news is sent
(issue 43, point 7).

A command on the channel layer waits for redis-py's socket timeout (15 s, config/settings.py),
longer than Daphne's handshake timeout (5 s): a new socket's handshake, waiting to join its
groups, was dropped without a close code, and the page could not tell why. Now a handshake waits
on the channel layer at most ``CHANNEL_LAYER_WAIT_S`` for each of its joins, then is closed with
4503 ("try again", the student and monitor sockets, which need their groups) or plays on without
them (the match socket, whose moves need only the database). And news that could not be sent
because Redis is away is logged as one line, without a traceback: the outage is expected.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from urllib.parse import urlsplit

import pytest
import websockets
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from realtime.sockets import CLOSE_TRY_AGAIN
from tests.factories import (
    make_class,
    make_match,
    make_session,
    make_student,
    session_cookie_for,
)
from tests.games.test_two_daphnes import a_move
from tests.pg_proxy import PostgresProxy
from tools.loadtest.servers import DaphneFleet, free_port, match_socket, origin_for

WAIT_S = 10
# Daphne drops a handshake not answered within 5 s; a hung Redis must be answered well before.
ANSWERED_WITHIN_S = 4.0


def a_class_at_play():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(
        game="add_up", variant="no_jokers", players=[ana, ben], options={"first_player": "seat0"}
    )
    session = make_session(classroom)
    return {
        "match": match,
        "session": session,
        "ana": session_cookie_for(ana),
        "teacher": session_cookie_for(classroom.teacher),
    }


async def handshake_answer(base: str, path: str, cookie: str) -> tuple[str, float]:
    """What a new socket on ``path`` is answered, and how long it took: its first message's type,
    "closed <code>", or "dropped" (the connection ended without a close frame: Daphne's handshake
    timeout)."""
    started = time.monotonic()
    try:
        async with websockets.connect(
            f"{base}{path}",
            origin=origin_for(base),
            additional_headers={"Cookie": cookie},
            proxy=None,
            open_timeout=WAIT_S,
        ) as ws:
            try:
                answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["type"]
            except websockets.ConnectionClosed as closed:
                answer = f"closed {closed.rcvd.code}" if closed.rcvd else "dropped"
    except (websockets.InvalidHandshake, OSError, TimeoutError):
        answer = "dropped"
    return answer, time.monotonic() - started


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
@pytest.mark.timeout(120)
def test_while_redis_hangs_every_handshake_is_answered_in_time_and_heals_once_it_answers(
    services,
):
    t = a_class_at_play()
    redis_address = urlsplit(services.REDIS_URL)
    paths = {
        "student": ("/ws/student/", t["ana"]),
        "monitor": (f"/ws/session/{t['session'].pk}/", t["teacher"]),
        "match": (f"/ws/match/{t['match'].pk}/", t["ana"]),
    }

    async def connect(base: str, proxy: PostgresProxy):
        answers = {name: await handshake_answer(base, *where) for name, where in paths.items()}
        assert {name: answer for name, (answer, _took) in answers.items()} == {
            "student": "sessions",
            "monitor": "monitor",
            "match": "state",
        }
        proxy.hang()
        for _ in range(2):  # the second finds the pools' connections hung too
            answers = {name: await handshake_answer(base, *where) for name, where in paths.items()}
            assert {name: answer for name, (answer, _took) in answers.items()} == {
                # They need their groups: told to try again, and their pages reconnect.
                "student": f"closed {CLOSE_TRY_AGAIN}",
                "monitor": f"closed {CLOSE_TRY_AGAIN}",
                # Its moves need only the database: it plays.
                "match": "state",
            }
            slow = {name: took for name, (_answer, took) in answers.items()}
            assert max(slow.values()) < ANSWERED_WITHIN_S, slow
        async with match_socket(base, t["match"].pk, t["ana"], open_timeout=WAIT_S) as ws:
            view = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["view"]
            await ws.send(json.dumps({"type": "move", "move": a_move(view), "client_id": "hung"}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
            assert answer["type"] == "state" and answer.get("client_id") == "hung", answer
        proxy.forward()
        answers = {name: await handshake_answer(base, *where) for name, where in paths.items()}
        assert {name: answer for name, (answer, _took) in answers.items()} == {
            "student": "sessions",
            "monitor": "monitor",
            "match": "state",
        }

    upstream = (redis_address.hostname, redis_address.port or 6379)
    with PostgresProxy(upstream=upstream) as proxy:
        through = f"redis://127.0.0.1:{proxy.port}{redis_address.path or '/0'}"
        with DaphneFleet(1, env={"REDIS_URL": through}) as fleet:
            try:
                asyncio.run(connect(fleet.urls[0], proxy))
            except BaseException:
                print(fleet.log_tail())
                raise
            tail = fleet.log_tail(20_000)
            assert "Traceback" not in tail, tail


# --- news that cannot be sent ---------------------------------------------------------------------


@pytest.fixture(params=["stopped", "hung"])
def redis_away(request, settings):
    """The channel layer on a Redis that is stopped (nothing listens on its port) or hung (a
    listener that accepts and answers nothing)."""
    if request.param == "stopped":
        proxy = None
        port = free_port()
    else:
        proxy = PostgresProxy(upstream=("127.0.0.1", free_port()))
        proxy.hang()
        port = proxy.port
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": f"redis://127.0.0.1:{port}/0", "socket_timeout": 1}],
                "prefix": f"asgi-away-{port}",
            },
        }
    }
    yield request.param
    if proxy is not None:
        proxy.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_news_that_cannot_be_sent_while_redis_is_away_is_logged_as_one_line(
    redis_away, caplog
):
    t = await database_sync_to_async(a_class_at_play)()
    caplog.set_level(logging.WARNING)
    ws = WebsocketCommunicator(
        application,
        f"/ws/match/{t['match'].pk}/",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"cookie", t["ana"].encode())],
    )
    connected, _code = await ws.connect(timeout=WAIT_S)
    assert connected
    view = (await ws.receive_json_from(timeout=WAIT_S))["view"]
    await ws.send_json_to({"type": "move", "move": a_move(view), "client_id": "away"})
    answer = await ws.receive_json_from(timeout=WAIT_S)
    assert answer["type"] == "state" and answer["client_id"] == "away", answer

    deadline = time.monotonic() + WAIT_S
    while not (lines := [r for r in caplog.records if "could not broadcast" in r.getMessage()]):
        assert time.monotonic() < deadline, "the news was never tried"
        await asyncio.sleep(0.1)
    await ws.disconnect()
    assert [(line.levelno, line.exc_info) for line in lines] == [(logging.WARNING, None)]
    # The line says why.
    assert ("Timeout" if redis_away == "hung" else "Connection") in lines[0].getMessage()
