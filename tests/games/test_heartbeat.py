"""A socket whose news was lost (Redis restarted between two moves, say) notices within about
two seconds, without any further move, and syncs itself (games/delivery.py, the heartbeat)."""

import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

import engine
from config.asgi import application
from games import delivery
from games.services import submit_move
from tests.factories import make_class, make_match, make_student, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def a_table():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(
        game="add_up", variant="no_jokers", players=[ana, ben], options={"first_player": "seat0"}
    )
    return match, ana, session_cookie_for(ben)


@database_sync_to_async
def a_move_whose_news_is_lost(match, ana, monkeypatch):
    monkeypatch.setattr(delivery, "match_changed", lambda *args, **kwargs: None)
    rules = engine.get_game(match.game)
    match.refresh_from_db()
    state = rules.load(match.state)
    move = rules.hint(state, 0) or rules.legal_moves(state, 0)[0]
    return submit_move(match_id=match.pk, user=ana, move=move).version


@pytest.mark.timeout(60)
async def test_a_socket_that_missed_a_move_syncs_itself_within_two_seconds(monkeypatch):
    match, ana, ben_cookie = await a_table()
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"cookie", ben_cookie.encode())]
    ws = WebsocketCommunicator(application, f"/ws/match/{match.pk}/", headers=headers)
    assert (await ws.connect(timeout=5))[0]
    try:
        assert (await ws.receive_json_from(timeout=5))["version"] == 0
        version = await a_move_whose_news_is_lost(match, ana, monkeypatch)
        lost_at = time.monotonic()
        state = await ws.receive_json_from(timeout=2 * settings.GAMES_HEARTBEAT_SECONDS + 1)
        caught_up_after = time.monotonic() - lost_at
        assert state["type"] == "state" and state["version"] == version == 1
        assert caught_up_after <= 2 * settings.GAMES_HEARTBEAT_SECONDS + 0.5
        # Up to date: the heartbeat sends nothing more.
        quiet = 2.5 * settings.GAMES_HEARTBEAT_SECONDS
        assert await ws.receive_nothing(timeout=quiet, interval=0.05)
    finally:
        await ws.disconnect()
