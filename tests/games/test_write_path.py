"""Live play has one write path: a player's move, a timer, a bot, the teacher's pause, resume,
added time and stop each lock the match with the same statement, decide, write and commit, and
send their news after the commit (games.services). On a server with PostgreSQL the moves and the
wake-ups for timers and bots run on the event loop itself (games.async_db)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from games import async_db, services
from games.clock import MatchClock
from games.models import Match
from games.services import sql
from tests.factories import make_class, make_match, make_student

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000


@pytest.fixture
def players():
    classroom = make_class()
    return make_student(classroom, "Ana"), make_student(classroom, "Ben")


def _first_read_of_the_match(queries) -> str:
    return next(q["sql"] for q in queries if "games_match" in q["sql"])


def _the_lock_statement() -> str:
    statement = sql._LockStatement.get(connection).sql
    return statement.split(" WHERE ")[0]  # its parameters differ from write to write


def test_every_write_of_a_match_begins_with_the_one_lock_statement(players, monkeypatch):
    ana, ben = players
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    rules = engine.get_game("mia")
    clock = {"now": T0 + 1_000}
    for module in (services, services.writes):  # its readers, and the writes
        monkeypatch.setattr(module, "now_ms", lambda: clock["now"])

    def a_move():
        state = rules.load(Match.objects.get(pk=match.pk).state)
        move = rules.hint(state, 0) or rules.legal_moves(state, 0)[0]
        return lambda: services.submit_move(match_id=match.pk, user=ana, move=move)

    def a_timer():
        clock["now"] = T0 + 60_000  # long past the pass timeout
        return lambda: services.match_wake(match_id=match.pk)

    writes = {  # each made just before it is written
        "move": a_move,
        "timer": a_timer,
        "pause": lambda: lambda: services.match_pause(match_id=match.pk),
        "resume": lambda: lambda: services.match_resume(match_id=match.pk),
        "added time": lambda: lambda: services.match_add_time(match_id=match.pk, seconds=30),
        "stop": lambda: lambda: services.match_abandon(match_id=match.pk),
    }
    lock = _the_lock_statement()
    for name, make_write in writes.items():
        before = Match.objects.get(pk=match.pk)
        write = make_write()
        with CaptureQueriesContext(connection) as queries:
            write()
        assert _first_read_of_the_match(queries.captured_queries).startswith(lock), name
        after = Match.objects.get(pk=match.pk)
        assert (after.version, after.paused_at_ms, after.clock_offset_ms, after.status) != (
            before.version,
            before.paused_at_ms,
            before.clock_offset_ms,
            before.status,
        ), f"the {name} changed nothing"
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABANDONED


def test_a_stopped_match_takes_no_more_writes(players):
    ana, ben = players
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    services.match_abandon(match_id=match.pk)
    assert services.match_pause(match_id=match.pk) is False
    assert services.match_add_time(match_id=match.pk, seconds=30) is False
    assert services.match_wake(match_id=match.pk) is None
    with pytest.raises(services.MatchError) as refused:
        services.match_pause(match_id=10**9)
    assert refused.value.code == "no_match"


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("services")
def test_a_wake_up_on_a_server_decides_on_its_event_loop(players):
    """On PostgreSQL a clock's wake-up is a transaction on the event loop's own connection, as a
    player's move is: no thread, no second way to write."""
    from asgiref.sync import async_to_sync

    assert async_db.enabled()
    ana, ben = players
    # Made long ago: its pass timeout is due at once.
    match = make_match(players=[ana, ben], seed=7, at_ms=T0)
    rules = engine.get_game("mia")
    tick = rules.tick
    deciding_threads = set()

    def tick_and_say_where(*args, **kwargs):
        deciding_threads.add(threading.get_ident())
        return tick(*args, **kwargs)

    async def wake_as_a_server_does():
        clock = MatchClock(asyncio.get_running_loop())
        clock.watch(match.pk)
        try:
            await asyncio.wait_for(clock._wake(match.pk), timeout=10)
            return threading.get_ident()
        finally:
            clock.unwatch(match.pk)
            await async_db.close_pool()

    with pytest.MonkeyPatch.context() as monkey:
        monkey.setattr(rules, "tick", tick_and_say_where)
        loop_thread = async_to_sync(wake_as_a_server_does)()
    match.refresh_from_db()
    assert match.version > 0  # the timer fired
    assert deciding_threads == {loop_thread}
