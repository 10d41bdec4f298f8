"""The sessions' sockets through the whole ASGI application (origin check, session auth, routing):
the student socket (/ws/student/) and the teacher's live monitor (/ws/session/<id>/)."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from classroom.sessions import consumers, push, selectors, services
from config.asgi import application
from games.services import submit_move
from realtime import sockets
from tests.classroom.sessions_helpers import (
    a_class,
    any_move,
    record_attempts,
    seat_of,
    started_session,
    wrong_claim,
)
from tests.factories import close_code_after_accept, make_session, make_teacher, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


async def connect(path, user=None):
    headers = [(b"origin", b"http://127.0.0.1:8000")]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie_for)(user)
        headers.append((b"cookie", cookie.encode()))
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await ws.connect()
    return ws, connected, code


def live_part(teacher, session, tables=None, answered=()):
    """The teacher's page's live part as its script fetches it (only these tables' parts and these
    seats' rows)."""
    from django.test import Client
    from django.urls import reverse

    client = Client()
    client.force_login(teacher)
    url = reverse("classroom:sessions_live", args=[session.pk])
    if tables is not None:
        url += "?tables=" + ",".join(str(t) for t in tables) + "&answered=" + ",".join(answered)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


async def next_of(ws, kind, timeout=3):
    """The next message of a type, skipping others."""
    while True:
        message = await ws.receive_json_from(timeout=timeout)
        if message["type"] == kind:
            return message


# --- the monitor: who may connect ----------------------------------------------------------------


@database_sync_to_async
def a_started_session(size=2, **kwargs):
    classroom, students, session = started_session(size, **kwargs)
    return classroom, students, session


async def test_the_classes_teacher_gets_a_snapshot_at_once():
    classroom, _students, session = await a_started_session(2, table_size=3)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, connected, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    assert connected
    snapshot = await ws.receive_json_from(timeout=3)
    assert snapshot == {
        "type": "monitor",
        "session": {"id": session.pk, "status": "playing", "paused": False, "next_round": None},
        "tables": None,  # on connect: look at everything
        "answered": [],
    }
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.send_json_to({"type": "move"})
    assert (await ws.receive_json_from())["code"] == "unknown_type"
    await ws.disconnect()


async def test_the_old_rounds_monitor_names_the_next_round_at_once():
    """ "Play another round": the old round's screens (the projector on its podium) hear where the
    new round is, and every later message says it again (a lost one is caught up)."""
    classroom, _students, session = await a_started_session(2, table_size=2)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    await database_sync_to_async(services.session_end)(session=session)
    ws, connected, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    assert connected
    assert (await next_of(ws, "monitor"))["session"]["next_round"] is None
    following = await database_sync_to_async(services.session_next_round)(session=session)
    told = (await next_of(ws, "monitor"))["session"]["next_round"]

    @database_sync_to_async
    def matches():
        return (
            session.tables.get(number=1).match_id,
            following.tables.get(number=1).match_id,
        )

    old_match, new_match = await matches()
    assert told == {
        "projector": f"/teacher/sessions/{following.pk}/projector/",
        "monitor": f"/teacher/sessions/{following.pk}/",
        "watch": {str(old_match): f"/play/{new_match}/watch/"},
    }
    await ws.disconnect()
    again, _, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    assert (await next_of(again, "monitor"))["session"]["next_round"] == told
    await again.disconnect()


async def test_a_closed_lobby_is_listed_as_locked_to_the_student_socket():
    classroom, students = await database_sync_to_async(a_class)(1)
    session = await database_sync_to_async(make_session)(classroom, table_size=2)
    ws, connected, _ = await connect("/ws/student/", students[0])
    assert connected
    assert (await next_of(ws, "sessions"))["sessions"][0]["locked"] is False
    await database_sync_to_async(services.session_lock)(session=session, locked=True)
    listed = (await next_of(ws, "sessions"))["sessions"][0]
    assert listed["locked"] is True and listed["joined"] is False
    await ws.disconnect()


@pytest.mark.parametrize(("who", "code"), [("nobody", 4401), ("student", 4403), ("other", 4403)])
async def test_nobody_else_may_watch_the_monitor(who, code):
    _classroom, students, session = await a_started_session(2, table_size=2)
    user = {
        "nobody": None,
        "student": students[0],
        "other": await database_sync_to_async(make_teacher)(),
    }[who]
    ws, connected, _code = await connect(f"/ws/session/{session.pk}/", user)
    assert connected and await close_code_after_accept(ws) == code


async def test_an_unknown_session_is_refused():
    classroom, _students, session = await a_started_session(1, table_size=2)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, connected, _code = await connect(f"/ws/session/{session.pk + 100}/", teacher)
    assert connected and await close_code_after_accept(ws) == 4403


# --- the monitor: live -------------------------------------------------------------------------


async def test_the_lobby_shows_who_joins_live():
    classroom, (_ana, ben) = await database_sync_to_async(a_class)(2)
    session = await database_sync_to_async(make_session)(classroom)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, _, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    first = await ws.receive_json_from(timeout=3)
    assert first["session"]["status"] == "lobby"
    await database_sync_to_async(services.session_join)(session=session, student=ben)
    snapshot = await next_of(ws, "monitor")
    assert snapshot["tables"] is None  # the session itself changed: the page looks again
    live = await database_sync_to_async(live_part)(teacher, session)
    assert "1 student in the lobby" in live and "Student 02" in live
    await ws.disconnect()


async def test_the_monitor_updates_after_a_move():
    classroom, (ana, _ben), session = await a_started_session(2, table_size=3)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, _, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    first = await ws.receive_json_from(timeout=3)
    assert first["tables"] is None

    @database_sync_to_async
    def ana_claims_wrong():
        match, seat = seat_of(session, ana)
        submit_move(match_id=match.pk, user=ana, move=wrong_claim(match, seat), client_id="a1")
        return match

    match = await ana_claims_wrong()
    snapshot = await next_of(ws, "monitor")
    assert snapshot["tables"] == [match.pk]  # only Ana's table moved
    # The figures themselves are on the page the news makes the teacher's screen fetch again.
    row = await database_sync_to_async(
        lambda: {s["name"]: s for s in selectors.session_monitor(session=session)["students"]}
    )()
    assert (row["Student 01"]["attempts"], row["Student 01"]["correct"]) == (1, 0)
    assert row["Student 02"]["attempts"] == 0
    await ws.disconnect()


async def test_needs_help_flags_reach_the_teacher_as_students_play():
    classroom, (ana, _ben), session = await a_started_session(2, table_size=3)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, _, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    await ws.receive_json_from(timeout=3)

    @database_sync_to_async
    def ana_struggles():
        match, seat = seat_of(session, ana)
        record_attempts(match, ana, seat, [("add.within20", False, 4000)] * 4)
        # The fifth attempt is a real move: its news is what wakes the monitor up.
        submit_move(match_id=match.pk, user=ana, move=wrong_claim(match, seat), client_id="a5")

    await ana_struggles()
    snapshot = await next_of(ws, "monitor")
    # The page asks for the tables that moved and the seats that answered: Ana's row comes back
    # flagged.
    match, seat = await database_sync_to_async(seat_of)(session, ana)
    assert snapshot["answered"] == [f"{match.pk}:{seat}"]
    parts = await database_sync_to_async(live_part)(
        teacher, session, snapshot["tables"], snapshot["answered"]
    )
    row = parts.split(f'data-part="student-{ana.pk}"', 2)[2].split("</tr>")[0]
    assert "data-needs-help" in row and "Low accuracy (0%)" in row
    assert "wrong in a row:" in row
    await ws.disconnect()


async def test_other_sessions_matches_do_not_wake_this_monitor():
    classroom, (_ana, _ben), session = await a_started_session(2, table_size=3)
    _other_class, (carla, _dan), other = await a_started_session(2, table_size=3)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, _, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    await ws.receive_json_from(timeout=3)

    @database_sync_to_async
    def carla_plays():
        match, seat = seat_of(other, carla)
        submit_move(match_id=match.pk, user=carla, move=wrong_claim(match, seat), client_id="c1")

    await carla_plays()
    assert await ws.receive_nothing(timeout=1)
    await ws.disconnect()


async def test_a_burst_of_news_gives_at_most_two_snapshots_a_second():
    classroom, _students, session = await a_started_session(2, table_size=3)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, _, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    await ws.receive_json_from(timeout=3)
    layer = get_channel_layer()
    for _ in range(30):
        await layer.group_send(push.session_group(session.pk), {"type": "sessions.changed"})
        await asyncio.sleep(0.02)
    received = 0
    while not await ws.receive_nothing(timeout=0.8):
        await ws.receive_json_from()
        received += 1
    # 30 pieces of news over ~0.6 s (plus the quiet wait) fit in two or three snapshots.
    assert 1 <= received <= 3
    await ws.disconnect()


async def test_the_tick_names_the_tables_that_have_been_quiet(monkeypatch):
    """Stalls grow without any event: the tick has the page look again at the quiet tables (their
    "no move for ..."), not at the busy ones, whose moves bring their own news."""
    monkeypatch.setattr(consumers, "MONITOR_TICK_SECONDS", 0.3)
    monkeypatch.setattr(consumers, "IDLE_SECONDS", 5.0)
    classroom, (ana, ben, _carla, _dan), session = await a_started_session(4, table_size=2)
    teacher = await database_sync_to_async(lambda: classroom.teacher)()
    ws, _, _ = await connect(f"/ws/session/{session.pk}/", teacher)
    assert (await ws.receive_json_from(timeout=3))["tables"] is None
    assert await ws.receive_nothing(timeout=0.8)  # nobody quiet for 5 s yet: ticks say nothing

    @database_sync_to_async
    def ana_moves():
        match, seat = seat_of(session, ana)
        submit_move(match_id=match.pk, user=ana, move=any_move(match, seat))
        return match.pk, seat_of(session, ben)[0].pk

    ana_table, ben_table = await ana_moves()
    assert ana_table != ben_table
    assert (await ws.receive_json_from(timeout=3))["tables"] == [ana_table]
    monkeypatch.setattr(consumers, "IDLE_SECONDS", 0.5)
    quiet = await ws.receive_json_from(timeout=3)
    assert ben_table in quiet["tables"]
    await ws.disconnect()


# --- the student socket --------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "code"), [("nobody", 4401), ("teacher", 4403)])
async def test_the_student_socket_is_for_students(who, code):
    user = None if who == "nobody" else await database_sync_to_async(make_teacher)()
    ws, connected, _code = await connect("/ws/student/", user)
    assert connected and await close_code_after_accept(ws) == code


@pytest.mark.parametrize(
    ("extra_headers", "title"),
    [
        ([(b"accept-language", b"es-ES,es;q=0.9,en;q=0.5")], "¡Mía! · Canadá 47"),
        ([(b"accept-language", b"en-GB,en;q=0.9")], "¡Mía! · Canada 47"),
        # The site's language menu (the cookie) wins over the browser's language, as on a page.
        ([(b"accept-language", b"en")], "¡Mía! · Canadá 47"),
    ],
)
async def test_the_student_socket_speaks_the_childs_language(extra_headers, title):
    """A socket runs no LocaleMiddleware: the titles it sends were in the server's default
    language, so a Spanish child's home page turned English at the first push."""
    classroom, (ana,) = await database_sync_to_async(a_class)(1)
    await database_sync_to_async(make_session)(classroom, table_size=3)
    cookie = await database_sync_to_async(session_cookie_for)(ana)
    if title.endswith("Canadá 47") and extra_headers[0][1] == b"en":
        cookie += "; django_language=es"
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode()), *extra_headers]
    ws = WebsocketCommunicator(application, "/ws/student/", headers=headers)
    connected, _code = await ws.connect()
    assert connected
    (item,) = (await next_of(ws, "sessions"))["sessions"]
    assert item["title"] == title
    await ws.disconnect()


async def test_a_signed_in_student_sees_a_session_open_at_once_and_is_sent_to_their_table():
    classroom, (ana, _ben) = await database_sync_to_async(a_class)(2)
    _other_class, (stranger,) = await database_sync_to_async(a_class)(1, name="Other")
    ana_ws, connected, _ = await connect("/ws/student/", ana)
    assert connected
    assert await ana_ws.receive_json_from(timeout=3) == {"type": "sessions", "sessions": []}
    stranger_ws, _, _ = await connect("/ws/student/", stranger)
    await stranger_ws.receive_json_from(timeout=3)

    session = await database_sync_to_async(make_session)(classroom, table_size=3)
    opened = await next_of(ana_ws, "sessions")
    (item,) = opened["sessions"]
    assert item["id"] == session.pk and item["status"] == "lobby" and not item["joined"]
    assert item["join_url"] == f"/me/sessions/{session.pk}/join/"
    assert item["play_url"] is None and "Canada 47" in item["title"]
    assert await stranger_ws.receive_nothing(timeout=0.5)  # another class's session

    await database_sync_to_async(services.session_join)(session=session, student=ana)
    joined = await next_of(ana_ws, "sessions")
    assert joined["sessions"][0]["joined"]

    await database_sync_to_async(services.session_start)(session=session)
    seated = await next_of(ana_ws, "seated")
    match, _seat = await database_sync_to_async(seat_of)(session, ana)
    assert seated == {
        "type": "seated",
        "session_id": session.pk,
        "match_id": match.pk,
        "play_url": f"/play/{match.pk}/",
    }
    listed = await next_of(ana_ws, "sessions")
    assert listed["sessions"][0]["play_url"] == f"/play/{match.pk}/"

    await database_sync_to_async(services.session_end)(session=session)
    ended = await next_of(ana_ws, "sessions")
    assert ended["sessions"] == []
    await ana_ws.disconnect()
    await stranger_ws.disconnect()


async def test_students_who_did_not_join_are_not_seated():
    classroom, (ana, ben) = await database_sync_to_async(a_class)(2)
    session = await database_sync_to_async(make_session)(classroom, table_size=2)
    await database_sync_to_async(services.session_join)(session=session, student=ana)
    ben_ws, _, _ = await connect("/ws/student/", ben)
    await ben_ws.receive_json_from(timeout=3)
    await database_sync_to_async(services.session_start)(session=session)
    listed = await ben_ws.receive_json_from(timeout=3)
    assert listed["type"] == "sessions"  # the session plays now; Ben may still join late
    assert listed["sessions"][0]["status"] == "playing"
    assert listed["sessions"][0]["play_url"] is None and not listed["sessions"][0]["joined"]
    assert await ben_ws.receive_nothing(timeout=0.5)  # and no "seated"
    await ben_ws.disconnect()


async def test_news_of_many_moves_is_gathered_into_one_message_per_session():
    """A Redis round trip per move was most of what a busy session's monitor cost the players."""
    from classroom.sessions.receivers import tell_the_session_monitor

    _classroom, students, session = await a_started_session(4, table_size=2)
    tables = await database_sync_to_async(
        lambda: sorted({seat_of(session, student)[0].pk for student in students})
    )()
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(push.session_group(session.pk), listener)
    answer = {"type": "attempt", "seat": 1}
    moves = [
        tell_the_session_monitor(None, match_id=tables[0], version=1, events=[], actor_seat=0),
        tell_the_session_monitor(None, match_id=tables[1], version=1, events=[answer]),
        tell_the_session_monitor(None, match_id=tables[1], version=2, events=[], actor_seat=None),
    ]
    await asyncio.wait_for(asyncio.gather(*moves), timeout=5)
    message = await asyncio.wait_for(layer.receive(listener), timeout=2)
    assert message == {
        "type": "sessions.changed",
        "match_ids": tables,
        "answered": [[tables[0], 0], [tables[1], 1]],
    }
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(listener), timeout=0.3)


# --- the flood limit and bounded syncs (both sockets) --------------------------------------------


@pytest.fixture
def flood_clock(monkeypatch):
    """The flood limit's clock (realtime/sockets.py), moved by the test."""
    clock = {"now": 1000.0}
    monkeypatch.setattr(sockets, "monotonic", lambda: clock["now"], raising=False)
    return clock


@database_sync_to_async
def a_student_and_a_session():
    classroom, students, session = started_session(2)
    return students[0], classroom.teacher, session


async def test_a_sustained_flood_closes_either_socket_and_a_burst_does_not(flood_clock):
    student, teacher, session = await a_student_and_a_session()
    for path, user, first in (
        ("/ws/student/", student, "sessions"),
        (f"/ws/session/{session.pk}/", teacher, "monitor"),
    ):
        ws, connected, _ = await connect(path, user)
        assert connected
        assert (await ws.receive_json_from(timeout=3))["type"] == first
        # A burst read at once (a server that fell behind): refused in part, not closed.
        for _ in range(100):
            await ws.send_json_to({"type": "ping"})
        codes = [(await ws.receive_json_from(timeout=3)).get("code", "pong") for _ in range(100)]
        assert codes.count("pong") == sockets.FLOOD_BURST and set(codes) == {"pong", "flood"}
        # Twenty a second, for as long as it stays open: refused, then closed.
        for _ in range(200):
            flood_clock["now"] += 0.05
            await ws.send_json_to({"type": "ping"})
            output = await ws.receive_output(timeout=3)
            if output["type"] == "websocket.close":
                assert output["code"] == sockets.CLOSE_FLOOD, path
                break
        else:
            pytest.fail(f"{path}: a flood of twenty messages a second was never closed")
        assert await ws.receive_nothing(timeout=0.2)
        await ws.disconnect()


async def test_many_syncs_share_one_answer_a_second(monkeypatch):
    monkeypatch.setattr(consumers, "SYNC_MIN_INTERVAL", 2.0)
    student, teacher, session = await a_student_and_a_session()
    for path, user, answer in (
        ("/ws/student/", student, "sessions"),
        (f"/ws/session/{session.pk}/", teacher, "monitor"),
    ):
        ws, _, _ = await connect(path, user)
        assert (await ws.receive_json_from(timeout=3))["type"] == answer
        for _ in range(sockets.FLOOD_BURST):  # as many as the flood limit lets through
            await ws.send_json_to({"type": "sync"})
        # One answer at once, then one at the end of the interval for all the others.
        assert (await ws.receive_json_from(timeout=3))["type"] == answer
        assert await ws.receive_nothing(timeout=0.5), path
        assert (await ws.receive_json_from(timeout=5))["type"] == answer
        assert await ws.receive_nothing(timeout=2.5), path
        await ws.disconnect()
