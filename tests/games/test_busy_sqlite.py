"""The embedded box's database busy (SQLite, one writer at a time): a move that cannot get the
write lock is answered ``try_again`` and the socket stays open; sent again once the lock is free,
it is applied once (docs/live-play.md, "Outages"). The lock is a real one, taken by another
connection to the same database, as a report or a second process would."""

import sqlite3

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.models import MoveRecord
from tests.games.test_consumers import a_table, connect, receive_state

# The services pass of `make test` leaves it out (-m "not embedded"): PostgreSQL has no such lock.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.embedded]


def a_competing_writer() -> sqlite3.Connection:
    """Another connection to the test database, holding its write lock until rolled back."""
    assert connection.vendor == "sqlite", "the embedded database: run without DATABASE_URL"
    name = connection.settings_dict["NAME"]
    uri = str(name).startswith("file:")
    holder = sqlite3.connect(
        name, uri=uri, isolation_level=None, timeout=0.1, check_same_thread=False
    )
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE games_match SET label = label")
    return holder


async def test_a_move_while_another_writer_holds_sqlite_answers_try_again_and_keeps_the_socket():
    # (The test database is SQLite's shared in-memory one, whose lock is refused at once; a file's
    # is waited for up to the busy timeout first, 20 s.)
    t = await a_table()
    ana, _, _ = await connect(t["match"].pk, t["ana"])
    await receive_state(ana)
    holder = a_competing_writer()
    try:
        await ana.send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "p-1"})
        answer = await receive_state(ana, timeout=10)
        assert answer["type"] == "error" and answer["code"] == "try_again", answer
        assert answer["client_id"] == "p-1"
        await ana.send_json_to({"type": "ping"})
        assert await ana.receive_json_from(timeout=5) == {"type": "pong"}
    finally:
        holder.rollback()
        holder.close()
    await ana.send_json_to({"type": "move", "move": {"type": "pass"}, "client_id": "p-1"})
    applied = await receive_state(ana, timeout=10)
    assert applied["type"] == "state" and applied["client_id"] == "p-1"
    assert await database_sync_to_async(MoveRecord.objects.count)() == 1
    await ana.disconnect()
