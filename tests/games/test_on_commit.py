"""A change's on-commit work (news for the sockets, news for the teaching layer) never makes the
thread that committed it wait for an event loop: a server's shared thread would otherwise hang
whenever its loop is busy or shutting down, and every later database call of the process with it
(it hung a CI run)."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from games import signals
from games.services import match_wake
from realtime import news
from tests.factories import make_class, make_match, make_session, make_student

pytestmark = pytest.mark.django_db(transaction=True)

T0 = 1_700_000_000_000


async def returns_while_the_event_loop_is_busy(work) -> bool:
    """Runs ``work`` on the thread Channels shares for database work while this event loop is
    blocked: whether it returned within 5 s."""
    news.serving_here()  # as a server's loop is recorded (config/asgi.py)
    started, go, done = threading.Event(), threading.Event(), threading.Event()

    def work_when_told():
        started.set()
        go.wait(10)
        work()
        done.set()

    running = asyncio.ensure_future(sync_to_async(work_when_told)())
    while not started.is_set():
        await asyncio.sleep(0.01)
    go.set()
    returned = done.wait(5)  # blocks the loop
    await asyncio.wait_for(running, 10)
    return returned


def a_match_whose_pass_timeout_is_due():
    classroom = make_class()
    players = [make_student(classroom, "Ana"), make_student(classroom, "Ben", secret="1111")]
    return make_match(players=players, seed=7, at_ms=T0)  # ¡Mía!'s pass timeout: T0 + 20 s


@pytest.mark.timeout(60)
async def test_a_wake_does_not_wait_for_a_busy_event_loop_and_its_news_still_arrives():
    match = await database_sync_to_async(a_match_whose_pass_timeout_is_due)()
    heard = asyncio.Queue()

    async def teaching_layer(sender, match_id, version, **kwargs):
        await heard.put((match_id, version))

    signals.match_changed.connect(teaching_layer, dispatch_uid="test.on_commit")
    try:
        assert await returns_while_the_event_loop_is_busy(
            lambda: match_wake(match_id=match.pk, at_ms=T0 + 20_000)
        )
        # The teaching layer hears of the change on the loop, once it is free.
        assert await asyncio.wait_for(heard.get(), 5) == (match.pk, 1)
    finally:
        signals.match_changed.disconnect(dispatch_uid="test.on_commit")


@pytest.mark.timeout(60)
async def test_a_session_opened_on_the_shared_thread_does_not_wait_for_a_busy_event_loop():
    classroom = await database_sync_to_async(make_class)()
    assert await returns_while_the_event_loop_is_busy(lambda: make_session(classroom))
