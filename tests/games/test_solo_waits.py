"""A solo homework game against bots waits for its child (issue "The live lesson, second pass",
"Every screen follows the teacher"): with the production timer sweep running, ¡Mía! rounds went
by, the bot scored and the child's hand changed while the child was on their home page. Now the
match stands still while no socket of its child is open (the sweep, run here directly, does
nothing), and its clock runs on from where it stood when they come back."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from classroom.homework.services import BotGamesSpec, work_start
from config.asgi import application
from games import services, tasks
from games.models import Match
from tests.factories import make_assignment, make_class, make_student, make_teacher
from tests.factories import session_cookie_for as cookie_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]

AWAY_MS = 120_000  # two minutes on the home page: many ¡Mía! timers and bot moves


@database_sync_to_async
def homework_match():
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    spec = BotGamesSpec(
        game="mia", variant="express", players=2, bot_level="easy", count=1, options={}
    )
    assignment = make_assignment(classroom, spec=spec)
    work = work_start(assignment=assignment, student=ana, item=0)
    return work.match_id, cookie_of(ana)


@database_sync_to_async
def row(match_id):
    return Match.objects.get(pk=match_id)


@database_sync_to_async
def sweep():
    return tasks.wake_overdue_matches()


async def open_socket(match_id, cookie):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())]
    ws = WebsocketCommunicator(application, f"/ws/match/{match_id}/", headers=headers)
    connected, _code = await ws.connect()
    assert connected
    state = await ws.receive_json_from(timeout=5)
    assert state["type"] == "state"
    return ws, state


def later(monkeypatch, ms):
    """The wall clock, ``ms`` from now (the services and the sweep read it through now_ms)."""
    real = services.now_ms
    for module in (services, services.writes):  # its readers, and the writes
        monkeypatch.setattr(module, "now_ms", lambda: real() + ms)


async def test_the_sweep_leaves_a_solo_game_alone_while_its_child_is_away(monkeypatch):
    match_id, cookie = await homework_match()
    made = await row(match_id)
    assert made.waits_for_players
    # Made, not yet opened: due nothing, however late.
    later(monkeypatch, AWAY_MS)
    assert await sweep() == 0
    monkeypatch.undo()

    ws, _state = await open_socket(match_id, cookie)
    await ws.disconnect()
    away = await row(match_id)
    assert away.players_connected == 0
    assert away.paused_at_ms is not None, "the last socket closed: the game stands still"
    wake_at = away.wake_at_ms
    assert wake_at is not None  # a timer or a bot was due: that is what must not happen

    later(monkeypatch, AWAY_MS)
    assert await sweep() == 0
    still = await row(match_id)
    assert (still.version, still.state, still.wake_at_ms) == (away.version, away.state, wake_at)

    # The child comes back (two minutes later): the clock runs on from where it stood.
    ws, state = await open_socket(match_id, cookie)
    back = await row(match_id)
    assert back.paused_at_ms is None and state["paused"] is False
    assert back.players_connected == 1
    held = back.clock_offset_ms - away.clock_offset_ms
    assert AWAY_MS <= held <= AWAY_MS + 30_000  # the time away, and the test's own seconds
    assert back.wake_at_ms == wake_at + held
    assert back.version == away.version
    # With the child there, what is due is done again (by the sweep too, were the server gone).
    later(monkeypatch, AWAY_MS + held + 60_000)
    assert await sweep() == 1
    assert (await row(match_id)).version > away.version
    await ws.disconnect()


async def test_a_second_tab_keeps_the_game_going_until_both_close(monkeypatch):
    match_id, cookie = await homework_match()
    first, _ = await open_socket(match_id, cookie)
    second, _ = await open_socket(match_id, cookie)
    assert (await row(match_id)).players_connected == 2
    await first.disconnect()
    assert (await row(match_id)).paused_at_ms is None
    await second.disconnect()
    assert (await row(match_id)).paused_at_ms is not None


async def test_a_lesson_table_does_not_wait(monkeypatch):
    """Only the solo game waits: a lesson's table (or a teacher's own) plays on as before."""
    teacher = await database_sync_to_async(make_teacher)()
    classroom = await database_sync_to_async(make_class)(teacher)
    ana = await database_sync_to_async(make_student)(classroom, "Ana")
    match = await database_sync_to_async(services.match_create)(
        game="mia",
        variant="express",
        seats=[
            services.SeatSpec(name="Ana", user=ana),
            services.SeatSpec(name="B", bot_level="easy"),
        ],
        created_by=teacher,
    )
    ws, _ = await open_socket(match.pk, await database_sync_to_async(cookie_of)(ana))
    await ws.disconnect()
    left = await row(match.pk)
    assert not left.waits_for_players and left.paused_at_ms is None
    later(monkeypatch, AWAY_MS)
    assert await sweep() == 1
