"""Past saturation the queue of moves is bounded by time: a player's move that has waited longer
than ``GAMES_MOVE_WAIT_LIMIT_MS`` for its match's turn and a connection, while other writes were
done, is answered ``try_again`` before any database work (``games.services.MoveWaitedTooLong``),
and the page sends it again (docs/live-play.md, "Outages"). A move that waited while nothing was
written (the database away) is played once it can be. Runs on both paths: SQLite's thread and
PostgreSQL's connections on the event loop."""

import asyncio
import time

import pytest
from channels.db import database_sync_to_async

from games import services
from games.models import Match, MoveRecord
from games.services.runner import _turn_of
from tests.games.test_consumers import a_table, connect, receive_state

pytestmark = pytest.mark.django_db(transaction=True)

LIMIT_MS = 50


@pytest.fixture
def wait_limit(settings):
    settings.GAMES_MOVE_WAIT_LIMIT_MS = LIMIT_MS


def versions_and_moves(match_id):
    return Match.objects.get(pk=match_id).version, MoveRecord.objects.filter(
        match_id=match_id
    ).count()


async def another_tables_move():
    """A move at another table of the same process, written while the first one waits."""
    other = await a_table()
    user = await database_sync_to_async(lambda: other["match"].seats.get(index=0).user)()
    await services.submit_move_async(
        match_id=other["match"].pk, user=user, move={"type": "pass"}, client_id="elsewhere"
    )


async def test_a_move_held_past_the_limit_is_answered_try_again_and_applied_once_sent_again(
    wait_limit,
):
    t = await a_table()
    match_id = t["match"].pk
    ana, _, _ = await connect(match_id, t["ana"])
    await receive_state(ana)
    turn = _turn_of(match_id)
    async with turn:  # another write of this match holds its turn for four times the limit
        await ana.send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "p-1"})
        await asyncio.sleep(4 * LIMIT_MS / 1000)
        await another_tables_move()
    answer = await receive_state(ana, timeout=10)
    assert answer["type"] == "error" and answer["code"] == "try_again", answer
    assert answer["client_id"] == "p-1"
    assert await database_sync_to_async(versions_and_moves)(match_id) == (0, 0)
    await ana.send_json_to({"type": "ping"})
    assert await ana.receive_json_from(timeout=5) == {"type": "pong"}
    await ana.send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "p-1"})
    applied = await receive_state(ana, timeout=10)
    assert applied["type"] == "state" and applied["client_id"] == "p-1"
    assert await database_sync_to_async(versions_and_moves)(match_id) == (1, 1)
    await ana.disconnect()


async def test_the_service_refuses_a_stale_move_and_plays_a_fresh_one(wait_limit):
    t = await a_table()
    match = t["match"]
    ana = await database_sync_to_async(lambda: match.seats.get(index=0).user)()
    stale = time.monotonic_ns() - 2 * LIMIT_MS * 1_000_000
    await another_tables_move()
    with pytest.raises(services.MoveWaitedTooLong):
        await services.submit_move_async(
            match_id=match.pk, user=ana, move={"type": "pass"}, client_id="a", arrived_ns=stale
        )
    assert await database_sync_to_async(versions_and_moves)(match.pk) == (0, 0)
    played = await services.submit_move_async(
        match_id=match.pk,
        user=ana,
        move={"type": "pass"},
        client_id="a",
        arrived_ns=time.monotonic_ns(),
    )
    assert played.version == 1 and not played.duplicate
    # Celery, the teaching layer and tests write without an arrival time: never refused.
    late = await database_sync_to_async(services.submit_move)(
        match_id=match.pk, user=ana, move={"type": "pass"}, client_id="a"
    )
    assert late.duplicate


async def test_a_move_that_waited_while_nothing_was_written_is_played(wait_limit):
    """The database away, its connections being made again: the move waited behind nobody."""
    t = await a_table()
    match = t["match"]
    ana = await database_sync_to_async(lambda: match.seats.get(index=0).user)()
    await another_tables_move()
    arrived = time.monotonic_ns()
    await asyncio.sleep(4 * LIMIT_MS / 1000)  # nothing is written meanwhile
    played = await services.submit_move_async(
        match_id=match.pk, user=ana, move={"type": "pass"}, client_id="a", arrived_ns=arrived
    )
    assert played.version == 1 and not played.duplicate
