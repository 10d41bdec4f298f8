"""A move made outside a server's event loop (a Celery worker, a shell, seeding the demo) tells the
session's monitors at once: there each move's news runs on a loop of its own, with no other move's
news to gather it with, so waiting to gather only held the caller (seeding the demo spent 34 of its
42 seconds so)."""

import threading

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from classroom.sessions import push, receivers
from games.services import submit_move
from tests.classroom.sessions_helpers import seat_of, started_session, wrong_claim

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_move_made_outside_a_server_is_news_at_once(monkeypatch):
    # Longer than the join below waits: a move that waited to gather cannot pass.
    monkeypatch.setattr(receivers, "NEWS_GATHER_SECONDS", 30)
    _classroom, (ana, _ben), session = started_session(2, table_size=3)
    match, seat = seat_of(session, ana)
    move = wrong_claim(match, seat)
    layer = get_channel_layer()
    listener = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(push.session_group(session.pk), listener)

    # In a thread of its own with no server's loop, as a worker's move runs; waited for 10 s.
    mover = threading.Thread(
        target=submit_move,
        kwargs={"match_id": match.pk, "user": ana, "move": move, "client_id": "a1"},
        daemon=True,
    )
    mover.start()
    mover.join(timeout=10)
    assert not mover.is_alive(), "the move waited to gather news that had nothing to gather"
    message = async_to_sync(_receive_within)(layer, listener, 5)
    assert message["type"] == "sessions.changed"
    assert message["match_ids"] == [match.pk]
    assert message["answered"] == [[match.pk, seat]]


async def _receive_within(layer, channel, seconds):
    import asyncio

    return await asyncio.wait_for(layer.receive(channel), timeout=seconds)
