"""A server that stalls does not make its clients a flood (issue 43).

A client sending 6 messages a second (the limit is 8) had 9 of 70 match messages and 10 of 70
student messages refused "flood" after a 5 s server stall: what it sent during the stall reached
the server at once, and the flood limit counted the instant it read them. The limit now budgets
each message by when it can have been sent (realtime/sockets.py, ``FloodLimit``): the server
knows when it last was surely reading the socket, whether its event loop stood still (here: its
process stopped with SIGSTOP, as a pause of the machine would) or the socket was busy with one
message while the next ones queued (here: a ``sync`` waiting on a table a transaction has locked).
A client that really sends faster than the limit is still refused.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time

import psycopg
import pytest
import websockets
from django.db import connection

from classroom.models import ClassSession
from games.models import Match
from realtime.sockets import CLOSE_FLOOD
from tests.factories import make_class, make_match, make_student, session_cookie_for
from tools.loadtest.servers import DaphneFleet, match_socket, origin_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

WAIT_S = 15  # for any one answer: longer than the stall
PER_SECOND = 6  # under the limit of 8
MESSAGES = 70
STALL_S = 5
STALL_AFTER_S = 2  # the client has been sending this long when the server stalls


def a_table():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(game="mia", variant="express", players=[ana, ben])
    return match, session_cookie_for(ana)


def student_socket(base: str, cookie: str):
    return websockets.connect(
        f"{base}/ws/student/",
        origin=origin_for(base),
        additional_headers={"Cookie": cookie},
        proxy=None,
        open_timeout=WAIT_S,
    )


async def paced(ws, *, count: int, per_second: float) -> tuple[list[str], int | None]:
    """Sends ``count`` pings at ``per_second`` (on a fixed schedule: a send the client's own loop
    made late does not make the next ones closer) while reading the answers. Returns the answers'
    codes ("pong" for a pong) and the close code if the server closed the socket."""
    codes: list[str] = []
    started = time.monotonic()

    async def send_all():
        for n in range(count):
            await asyncio.sleep(max(0.0, started + n / per_second - time.monotonic()))
            try:
                await ws.send('{"type": "ping"}')
            except websockets.ConnectionClosed:
                return

    sending = asyncio.create_task(send_all())
    try:
        while len(codes) < count:
            message = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
            if message["type"] in ("pong", "error"):
                codes.append(message.get("code", message["type"]))
    except websockets.ConnectionClosed as closed:
        return codes, closed.rcvd.code if closed.rcvd else 1006
    finally:
        sending.cancel()
    return codes, None


async def first_message(ws, kind: str) -> None:
    message = json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))
    assert message["type"] == kind, message


@pytest.mark.timeout(120)
def test_a_server_stopped_for_five_seconds_refuses_no_client_under_the_limit(services):
    match, cookie = a_table()

    async def across_a_stall(base: str, pid: int):
        async def stall():
            await asyncio.sleep(STALL_AFTER_S)
            os.kill(pid, signal.SIGSTOP)
            try:
                await asyncio.sleep(STALL_S)
            finally:
                os.kill(pid, signal.SIGCONT)

        async with (
            match_socket(base, match.pk, cookie, open_timeout=WAIT_S) as playing,
            student_socket(base, cookie) as waiting,
        ):
            await first_message(playing, "state")
            await first_message(waiting, "sessions")
            return await asyncio.gather(
                paced(playing, count=MESSAGES, per_second=PER_SECOND),
                paced(waiting, count=MESSAGES, per_second=PER_SECOND),
                stall(),
            )

    async def too_fast(base: str):
        async with match_socket(base, match.pk, cookie, open_timeout=WAIT_S) as ws:
            await first_message(ws, "state")
            return await paced(ws, count=120, per_second=20)

    with DaphneFleet(1) as fleet:
        try:
            (match_answers, match_closed), (student_answers, student_closed), _ = asyncio.run(
                across_a_stall(fleet.urls[0], fleet.pids[0])
            )
            fast_answers, fast_closed = asyncio.run(too_fast(fleet.urls[0]))
        except BaseException:
            print(fleet.log_tail())
            raise

    assert (match_closed, student_closed) == (None, None)
    assert match_answers == ["pong"] * MESSAGES, f"{match_answers.count('flood')} refused"
    assert student_answers == ["pong"] * MESSAGES, f"{student_answers.count('flood')} refused"
    # Twenty a second is a flood, stall or not: refused, then closed.
    assert "flood" in fast_answers
    assert fast_closed == CLOSE_FLOOD


@pytest.mark.timeout(120)
def test_a_socket_busy_for_five_seconds_refuses_no_client_under_the_limit(services):
    """The socket's event loop runs, but the socket waits 5 s on the database for a ``sync``
    (a transaction holds a lock on the table it reads) while the client's pings queue behind."""
    match, cookie = a_table()
    tables = {"match": Match._meta.db_table, "student": ClassSession._meta.db_table}
    database = connection.settings_dict

    def lock(table: str) -> psycopg.Connection:
        holder = psycopg.connect(
            host=database["HOST"] or "127.0.0.1",
            port=database["PORT"] or 5432,
            user=database["USER"],
            password=database["PASSWORD"] or None,
            dbname=database["NAME"],
        )
        holder.execute(f'LOCK TABLE "{table}" IN ACCESS EXCLUSIVE MODE')
        return holder

    async def busy(ws, table: str):
        holder = lock(table)
        try:
            await ws.send('{"type": "sync"}')  # read at once, and answered once the lock goes
            pinging = asyncio.create_task(paced(ws, count=MESSAGES, per_second=PER_SECOND))
            await asyncio.sleep(STALL_S)
        finally:
            holder.close()
        return await pinging

    async def while_busy(base: str):
        async with match_socket(base, match.pk, cookie, open_timeout=WAIT_S) as playing:
            await first_message(playing, "state")
            match_result = await busy(playing, tables["match"])
        async with student_socket(base, cookie) as waiting:
            await first_message(waiting, "sessions")
            student_result = await busy(waiting, tables["student"])
        return match_result, student_result

    # The socket waits for the database longer than the lock is held (3 s by default).
    with DaphneFleet(1, env={"DATABASE_WAIT_S": str(STALL_S + 5)}) as fleet:
        try:
            (match_answers, match_closed), (student_answers, student_closed) = asyncio.run(
                while_busy(fleet.urls[0])
            )
        except BaseException:
            print(fleet.log_tail())
            raise

    assert (match_closed, student_closed) == (None, None)
    assert match_answers == ["pong"] * MESSAGES, f"{match_answers.count('flood')} refused"
    assert student_answers == ["pong"] * MESSAGES, f"{student_answers.count('flood')} refused"
