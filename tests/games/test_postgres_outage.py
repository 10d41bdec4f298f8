"""PostgreSQL refusing connections, and hanging, under a real Daphne process whose database is
reached through a proxy of the test's own (tests/pg_proxy.py): a move is answered ``try_again``
on a socket that stays open and works once PostgreSQL is back; a handshake is closed with 4503;
a hung database is waited for no longer than ``DATABASE_WAIT_S``; ``/readyz`` says 503 within
its check time however the database hangs (docs/live-play.md, "Outages")."""

import asyncio
import json
import time
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

import pytest
import websockets

from games.models import Match, MoveRecord
from tests.games.test_redis_outage import (
    CLOSE_TRY_AGAIN,
    a_table,
    assert_no_traceback,
    student_socket_answer,
)
from tests.games.test_two_daphnes import a_move
from tests.pg_proxy import PostgresProxy
from tools.loadtest.servers import DaphneFleet, database_url, match_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

WAIT_S = 10
CHECK_TIMEOUT_S = 3  # config/health.py
DATABASE_WAIT_S = 3  # realtime/database_waits.py: how long a socket waits for PostgreSQL
ANSWERED_WITHIN_S = DATABASE_WAIT_S + 2
PAGE_RESENDS_AFTER_S = (1, 2)  # static/js/play/moves.js RESEND_AFTER_MS


def through(proxy: PostgresProxy) -> str:
    parts = urlsplit(database_url())
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{proxy.port}"
    return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{host}" if len(netloc) > 1 else host))


def readiness(base: str, timeout: float) -> tuple[int, dict]:
    url = base.replace("ws://", "http://") + "/readyz"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def answer_to(ws, client_id: str) -> dict:
    """The first state or error that answers ``client_id``."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
        if message.get("client_id") == client_id and message["type"] in {"state", "error"}:
            return message


@pytest.mark.timeout(120)
def test_a_move_while_postgresql_refuses_is_answered_try_again_and_works_once_it_is_back(
    services,
):
    match, cookie = a_table()

    async def play(base, proxy):
        async with match_socket(base, match.pk, cookie, open_timeout=WAIT_S) as ws:
            view = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["view"]
            move = {"type": "move", "move": a_move(view), "client_id": "during"}
            proxy.refuse()
            await ws.send(json.dumps(move))
            started = time.monotonic()
            answer = await answer_to(ws, "during")
            assert answer["type"] == "error" and answer["code"] == "try_again", answer
            assert time.monotonic() - started < 5, "a child waits no longer than that"
            # The socket stays open and answers.
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), WAIT_S)) == {"type": "pong"}
            proxy.forward()
            # The page sends its pending move again, as it does after try_again: at once, then
            # after each of its waits (static/js/play/moves.js RESEND_AFTER_MS) while the server
            # still answers try_again (its pool may take a moment to reconnect on a busy machine).
            for wait_s in (0, *PAGE_RESENDS_AFTER_S):
                await asyncio.sleep(wait_s)
                await ws.send(json.dumps(move))
                answer = await answer_to(ws, "during")
                if answer.get("code") != "try_again":
                    break
            assert answer["type"] == "state", answer
            assert answer["version"] == view["version"] + 1

    with PostgresProxy() as proxy, DaphneFleet(1, env={"DATABASE_URL": through(proxy)}) as fleet:
        try:
            asyncio.run(play(fleet.urls[0], proxy))
        except BaseException:
            print(fleet.log_tail())
            raise
        assert_no_traceback(fleet)


async def match_handshake_answer(base: str, match_id: int, cookie: str) -> str:
    """What a match socket's handshake is answered: "state" (accepted), or "closed <code>"."""
    async with match_socket(base, match_id, cookie, open_timeout=WAIT_S) as ws:
        try:
            return json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["type"]
        except websockets.ConnectionClosed as closed:
            return f"closed {closed.rcvd.code if closed.rcvd else 1006}"


async def timed(awaitable) -> tuple[object, float]:
    started = time.monotonic()
    result = await awaitable
    return result, time.monotonic() - started


@pytest.mark.timeout(120)
def test_handshakes_while_postgresql_refuses_are_closed_with_4503_and_work_once_it_is_back(
    services,
):
    match, cookie = a_table()

    async def connect(base, proxy):
        assert await student_socket_answer(base, cookie) == "sessions"
        proxy.refuse()
        for _ in range(2):  # the second finds the pools' connections gone too
            answer, took = await timed(student_socket_answer(base, cookie))
            assert answer == f"closed {CLOSE_TRY_AGAIN}", answer
            assert took < ANSWERED_WITHIN_S, f"answered in {took:.1f} s"
            answer, took = await timed(match_handshake_answer(base, match.pk, cookie))
            assert answer == f"closed {CLOSE_TRY_AGAIN}", answer
            assert took < ANSWERED_WITHIN_S, f"answered in {took:.1f} s"
        proxy.forward()
        assert await student_socket_answer(base, cookie) == "sessions"
        assert await match_handshake_answer(base, match.pk, cookie) == "state"

    with PostgresProxy() as proxy, DaphneFleet(1, env={"DATABASE_URL": through(proxy)}) as fleet:
        try:
            asyncio.run(connect(fleet.urls[0], proxy))
        except BaseException:
            print(fleet.log_tail())
            raise
        assert_no_traceback(fleet)


@pytest.mark.timeout(150)
def test_while_postgresql_hangs_sockets_are_answered_within_the_wait_and_heal_once_it_answers(
    services,
):
    """A hung PostgreSQL accepts connections and answers nothing: no client-side wait ended, so a
    move and a handshake waited for ever."""
    match, cookie = a_table()

    async def play(base, proxy):
        async with match_socket(base, match.pk, cookie, open_timeout=WAIT_S) as ws:
            view = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["view"]
            move = {"type": "move", "move": a_move(view), "client_id": "hung"}
            proxy.hang()
            await ws.send(json.dumps(move))
            answer, took = await timed(answer_to(ws, "hung"))
            assert answer["type"] == "error" and answer["code"] == "try_again", answer
            assert took < ANSWERED_WITHIN_S, f"answered in {took:.1f} s"
            await ws.send(json.dumps({"type": "ping"}))
            assert json.loads(await asyncio.wait_for(ws.recv(), WAIT_S)) == {"type": "pong"}
            # Handshakes: the student's sessions socket (its session and user are read on the
            # thread Channels shares, which a hung query would hold for every socket after it)
            # and a match socket (on the moves' own connections).
            for _ in range(2):
                answer, took = await timed(student_socket_answer(base, cookie))
                assert answer == f"closed {CLOSE_TRY_AGAIN}", answer
                assert took < ANSWERED_WITHIN_S, f"answered in {took:.1f} s"
                answer, took = await timed(match_handshake_answer(base, match.pk, cookie))
                assert answer == f"closed {CLOSE_TRY_AGAIN}", answer
                assert took < ANSWERED_WITHIN_S, f"answered in {took:.1f} s"
            proxy.forward()
            # The page sends its pending move again after try_again.
            await ws.send(json.dumps(move))
            answer = await answer_to(ws, "hung")
            assert answer["type"] == "state", answer
            assert answer["version"] == view["version"] + 1
            assert await student_socket_answer(base, cookie) == "sessions"
            return view["version"]

    with PostgresProxy() as proxy, DaphneFleet(1, env={"DATABASE_URL": through(proxy)}) as fleet:
        try:
            version_before = asyncio.run(play(fleet.urls[0], proxy))
        except BaseException:
            print(fleet.log_tail())
            raise
        assert_no_traceback(fleet)
    # Applied once: the first sending, held by the hung database, and the second did not both
    # apply it.
    assert Match.objects.get(pk=match.pk).version == version_before + 1
    assert MoveRecord.objects.filter(match=match, client_id="hung").count() == 1


@pytest.mark.timeout(120)
def test_readiness_says_503_within_its_check_time_while_postgresql_hangs(services):
    with PostgresProxy() as proxy, DaphneFleet(1, env={"DATABASE_URL": through(proxy)}) as fleet:
        base = fleet.urls[0]
        status, body = readiness(base, WAIT_S)
        assert status == 200, body
        proxy.hang()
        # Twice: a probe still hung from the first must not hold up the second.
        for _ in range(2):
            started = time.monotonic()
            status, body = readiness(base, CHECK_TIMEOUT_S + 2)
            took = time.monotonic() - started
            assert status == 503 and body["database"] == "down: TimeoutError", body
            assert took < CHECK_TIMEOUT_S + 1, f"answered in {took:.1f} s"
        proxy.forward()
        deadline = time.monotonic() + WAIT_S
        while readiness(base, CHECK_TIMEOUT_S + 2)[0] != 200:
            assert time.monotonic() < deadline, "ready again once PostgreSQL answers"
            time.sleep(0.2)
