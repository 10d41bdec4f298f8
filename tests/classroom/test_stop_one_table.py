"""Stopping one table (issue "The lesson, third pass", "The projector and the teacher's page during
play"): "End the session" stopped every table at once; a teacher also stops one, after a
confirmation, and its match stops exactly as "End the session" stops each (``match_abandon``), so
its children's sockets are told and their pages read "The teacher stopped this game." The other
tables play on; stopping the last one still playing ends the lesson, as a last table's end does."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from classroom.models import ClassSession, SessionTable
from classroom.sessions import selectors, services
from config.asgi import application
from games.models import Match
from tests.classroom.sessions_helpers import joined_session, seat_of, started_session
from tests.factories import make_teacher, session_cookie_for

GAME = {"game": "add_up", "variant": "no_jokers"}


def sign_in(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def table_match(session, number) -> Match:
    return Match.objects.get(session_table__session=session, session_table__number=number)


# --- the service ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_stopping_one_table_stops_its_match_as_the_end_does_and_leaves_the_others_playing():
    _classroom, _students, session = started_session(6, table_size=2, **GAME)
    services.session_stop_table(session=session, table_number=2)
    stopped = table_match(session, 2)
    assert stopped.status == Match.Status.ABANDONED and stopped.finished_at is not None
    assert stopped.wake_at_ms is None and stopped.bot_plan == {}
    assert {table_match(session, n).status for n in (1, 3)} == {Match.Status.PLAYING}
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PLAYING
    # The teacher's page says so at a glance.
    states = {t["number"]: t["state"] for t in selectors.session_monitor(session=session)["tables"]}
    assert states == {1: "playing", 2: "stopped", 3: "playing"}


@pytest.mark.django_db
def test_stopping_the_last_table_playing_ends_the_lesson():
    _classroom, students, session = started_session(4, table_size=2, **GAME)
    services.session_stop_table(session=session, table_number=1)
    session.refresh_from_db()
    assert session.status == ClassSession.Status.PLAYING
    services.session_stop_table(session=session, table_number=2)
    session.refresh_from_db()
    assert session.status == ClassSession.Status.ENDED and session.ended_at is not None
    assert selectors.student_open_sessions(student=students[0]) == []


@pytest.mark.django_db
def test_a_table_that_is_not_playing_is_not_stopped():
    _classroom, _students, session = started_session(4, table_size=2, **GAME)
    services.session_stop_table(session=session, table_number=1)
    for number in (1, 3, -1):  # stopped already, no such table
        with pytest.raises(services.SessionError) as refused:
            services.session_stop_table(session=session, table_number=number)
        assert refused.value.code == "not_playing"
    lobby = joined_session(2, table_size=2, **GAME)[2]
    with pytest.raises(services.SessionError) as refused:
        services.session_stop_table(session=lobby, table_number=1)
    assert refused.value.code == "not_playing"


# --- the pages -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_teacher_is_asked_first_then_the_table_stops(client):
    _classroom, students, session = started_session(4, table_size=2, **GAME)
    sign_in(client, session.classroom.teacher)
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    url = reverse("classroom:sessions_stop_table", args=[session.pk, 2])
    assert f'href="{url}"' in detail  # each playing table offers it

    ask = client.get(url)
    assert ask.status_code == 200
    page = ask.content.decode()
    assert "Stop Table 2?" in page
    at_table_2 = [
        s.display_name for s in students if seat_of(session, s)[0] == table_match(session, 2)
    ]
    assert all(name in page for name in at_table_2)
    assert "The teacher stopped this game." in page  # what their screens will say
    assert table_match(session, 2).status == Match.Status.PLAYING  # asking stops nothing

    done = client.post(url, follow=True)
    assert "Table 2 is stopped." in done.content.decode()
    assert table_match(session, 2).status == Match.Status.ABANDONED
    assert table_match(session, 1).status == Match.Status.PLAYING

    # Asked again (a second tab): said, nothing changes; the page no longer offers it.
    again = client.post(url, follow=True).content.decode()
    assert "That table is not playing." in again
    assert client.get(url).status_code == 302
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert f'href="{url}"' not in detail


@pytest.mark.django_db
def test_the_confirmation_speaks_spanish(client):
    _classroom, _students, session = started_session(4, table_size=2, **GAME)
    sign_in(client, session.classroom.teacher)
    url = reverse("classroom:sessions_stop_table", args=[session.pk, 1])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "¿Detener la Mesa 1?" in page and "Sí, detener la Mesa 1" in page


@pytest.mark.django_db
def test_only_the_classes_teacher_stops_a_table(client):
    _classroom, _students, session = started_session(4, table_size=2, **GAME)
    url = reverse("classroom:sessions_stop_table", args=[session.pk, 1])
    sign_in(client, make_teacher())
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    assert table_match(session, 1).status == Match.Status.PLAYING


# --- the children's sockets ----------------------------------------------------------------------


async def match_socket(match_id, user):
    cookie = await database_sync_to_async(session_cookie_for)(user)
    ws = WebsocketCommunicator(
        application,
        f"/ws/match/{match_id}/",
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())],
    )
    connected, _code = await ws.connect()
    assert connected
    first = await ws.receive_json_from(timeout=3)
    assert first["type"] == "state" and not first.get("stopped")
    return ws


@pytest.mark.django_db(transaction=True)
async def test_the_stopped_tables_children_are_told_and_the_others_are_not():
    _classroom, students, session = await database_sync_to_async(started_session)(
        4, table_size=2, **GAME
    )
    seats = [await database_sync_to_async(seat_of)(session, s) for s in students]
    number_of = await database_sync_to_async(
        lambda: dict(SessionTable.objects.filter(session=session).values_list("match_id", "number"))
    )()
    stopped_kids = [
        (s, m) for s, (m, _seat) in zip(students, seats, strict=True) if number_of[m.pk] == 1
    ]
    playing_kids = [
        (s, m) for s, (m, _seat) in zip(students, seats, strict=True) if number_of[m.pk] == 2
    ]
    assert len(stopped_kids) == len(playing_kids) == 2
    stopped_ws = [await match_socket(m.pk, s) for s, m in stopped_kids]
    playing_ws = [await match_socket(m.pk, s) for s, m in playing_kids]

    def teacher_stops_table_1():
        client = sign_in(Client(), session.classroom.teacher)
        response = client.post(reverse("classroom:sessions_stop_table", args=[session.pk, 1]))
        assert response.status_code == 302

    await database_sync_to_async(teacher_stops_table_1)()

    for ws in stopped_ws:
        told = await ws.receive_json_from(timeout=3)
        assert told["type"] == "error" and told["code"] == "match_stopped"
        last = await ws.receive_json_from(timeout=3)
        # The same "stopped" state as when the whole lesson ends (docs/live-play.md).
        assert last["type"] == "state" and last["stopped"] is True
    for ws in playing_ws:
        assert await ws.receive_nothing(timeout=0.5)
        await ws.send_json_to({"type": "sync"})
        state = await ws.receive_json_from(timeout=3)
        assert state["type"] == "state" and not state.get("stopped")
    for ws in stopped_ws + playing_ws:
        await ws.disconnect()
