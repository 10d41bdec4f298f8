"""A child's name where the teacher hid it (issue 44): a child set to initials, or not shown, is
named so on every screen another child or the class sees (a table-mate's play page, its score
table and end-of-game podium, the teacher's big-screen Watch view, the projector and its live
part, the lobby pages, every socket message those screens get), through a whole lesson played to
its end through the services and the real sockets. The child's own screen and the teacher's own
pages keep the full name."""

from __future__ import annotations

import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

import engine
from classroom.models import ClassSession
from classroom.roster.services import student_accommodations_set
from classroom.sessions import services
from config.asgi import application
from games.models import Match
from games.services import submit_move
from tests.factories import make_class, make_session, make_student, make_teacher, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

# Words no other child and no shared screen may show: Carlota is set to initials, Evelina to "not
# shown". Ben Soto, their table-mate, is shown by name.
INITIALS_CHILD = "Carlota Zubiri"
HIDDEN_CHILD = "Evelina Thorsby"
HIDDEN_WORDS = ("Carlota", "Zubiri", "Evelina", "Thorsby")
GAME = {"game": "add_up", "variant": "no_jokers"}


def hidden_words_in(text: str) -> list[str]:
    return [word for word in HIDDEN_WORDS if word in text]


def page_config(html: str) -> dict:
    found = re.search(
        r'<script id="play-config" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, "the play page embeds its config"
    return json.loads(found.group(1))


def a_lesson(projector_names="full"):
    """Carlota (initials), Evelina (not shown) and Ben at one table of three, started."""
    teacher = make_teacher(name="Ms Rivera")
    classroom = make_class(teacher)
    carlota = make_student(classroom, INITIALS_CHILD, secret="1111")
    evelina = make_student(classroom, HIDDEN_CHILD, secret="2222")
    ben = make_student(classroom, "Ben Soto", secret="3333")
    student_accommodations_set(student=carlota, public_name="initials")
    student_accommodations_set(student=evelina, public_name="hidden")
    # The room's choice says full names: what hides the two names is each child's own setting.
    session = make_session(
        classroom, table_size=3, projector_names=projector_names, projector_top=0, **GAME
    )
    for student in (carlota, evelina, ben):
        services.session_join(session=session, student=student)
    services.session_start(session=session)
    match = Match.objects.get(session_table__session=session)
    return {
        "teacher": teacher,
        "session": session,
        "match": match,
        "carlota": carlota,
        "evelina": evelina,
        "ben": ben,
        "seat": {seat.user_id: seat.index for seat in match.seats.all()},
    }


def play_to_the_end(match: Match) -> None:
    """Every move through games.services, as the table's children would make them (easy bots'
    choices), until the engine says the game is over."""
    rules = engine.get_game(match.game)
    users = {seat.index: seat.user for seat in match.seats.all()}
    choose = random.Random(match.pk)
    for _ in range(2_000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return
        state = rules.load(match.state)
        seat = min(rules.active(state))
        submit_move(
            match_id=match.pk,
            user=users[seat],
            move=engine.bots.choose(rules, state, seat, "easy", choose),
        )
    raise AssertionError("the game did not end")


async def open_socket(path: str, user) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(session_cookie_for)(user)
    ws = WebsocketCommunicator(
        application,
        path,
        headers=[(b"origin", b"http://127.0.0.1:8000"), (b"cookie", cookie.encode())],
    )
    connected, code = await ws.connect(timeout=5)
    assert connected, (path, code)
    return ws


async def everything_sent(ws: WebsocketCommunicator, quiet: float = 1.0) -> list[dict]:
    """Every message the socket got until it has been quiet for ``quiet`` seconds."""
    messages = []
    for _ in range(10_000):
        # receive_nothing waits without cancelling the application (a timed-out receive would).
        if await ws.receive_nothing(timeout=quiet):
            return messages
        messages.append(await ws.receive_json_from(timeout=quiet))
    raise AssertionError("the socket never went quiet")


def page(user, url: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url, follow=True)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def shared_and_table_mates_pages(lesson) -> dict[str, str]:
    """What the table-mate and the class's screens get over HTTP once the game is over."""
    session, match = lesson["session"], lesson["match"]
    ben, teacher = lesson["ben"], lesson["teacher"]
    return {
        "table-mate's play page": page(ben, reverse("games:play", args=[match.pk])),
        "table-mate's lobby page": page(
            ben, reverse("classroom:sessions_lobby", args=[session.pk])
        ),
        "table-mate's home page": page(ben, reverse("classroom:student_home")),
        "teacher's Watch view": page(teacher, reverse("games:watch", args=[match.pk])),
        "teacher's spectator page": page(teacher, reverse("games:play", args=[match.pk])),
        "projector": page(teacher, reverse("classroom:sessions_projector", args=[session.pk])),
        "projector's live part": page(
            teacher, reverse("classroom:sessions_projector_live", args=[session.pk])
        ),
    }


async def test_no_other_child_and_no_shared_screen_shows_a_name_the_teacher_hid():
    lesson = await database_sync_to_async(a_lesson)()
    match, session = lesson["match"], lesson["session"]
    sockets = {
        "table-mate's match socket": await open_socket(f"/ws/match/{match.pk}/", lesson["ben"]),
        "table-mate's lesson socket": await open_socket("/ws/student/", lesson["ben"]),
        "Watch view's match socket": await open_socket(f"/ws/match/{match.pk}/", lesson["teacher"]),
        "projector's session socket": await open_socket(
            f"/ws/session/{session.pk}/", lesson["teacher"]
        ),
    }
    try:
        await database_sync_to_async(play_to_the_end)(match)
        sent = {name: await everything_sent(ws) for name, ws in sockets.items()}
    finally:
        for ws in sockets.values():
            await ws.disconnect()
    # The whole game went over the sockets, its end (the podium's outcome) included.
    assert any(
        message.get("type") == "state" and message["view"].get("outcome")
        for message in sent["table-mate's match socket"]
    )
    session = await database_sync_to_async(ClassSession.objects.get)(pk=session.pk)
    assert session.status == ClassSession.Status.ENDED
    pages = await database_sync_to_async(shared_and_table_mates_pages)(lesson)

    for name, messages in sent.items():
        assert messages, f"the {name} got nothing"
        assert hidden_words_in(json.dumps(messages, ensure_ascii=False)) == [], name
    for name, html in pages.items():
        assert hidden_words_in(html) == [], name

    seat = lesson["seat"]
    carlota, evelina, ben = (lesson[who].pk for who in ("carlota", "evelina", "ben"))
    for name in ("table-mate's play page", "teacher's Watch view", "teacher's spectator page"):
        shown = {s["seat"]: s["name"] for s in page_config(pages[name])["seats"]}
        assert shown[seat[carlota]] == "C. Z.", name
        # A child not shown is a numbered player, as the score table names an empty seat.
        assert shown[seat[evelina]] == f"Player {seat[evelina] + 1}", name
        assert shown[seat[ben]] == "Ben Soto", name
    # The projector's podium and leaderboard by the same names.
    assert "C. Z." in pages["projector's live part"]


async def test_the_childs_own_screen_and_the_teachers_own_pages_keep_the_full_name():
    lesson = await database_sync_to_async(a_lesson)()
    match, session = lesson["match"], lesson["session"]
    await database_sync_to_async(play_to_the_end)(match)
    own = await database_sync_to_async(page)(
        lesson["carlota"], reverse("games:play", args=[match.pk])
    )
    shown = {s["seat"]: s["name"] for s in page_config(own)["seats"]}
    assert shown[lesson["seat"][lesson["carlota"].pk]] == INITIALS_CHILD
    assert shown[lesson["seat"][lesson["ben"].pk]] == "Ben Soto"
    monitor = await database_sync_to_async(page)(
        lesson["teacher"], reverse("classroom:sessions_detail", args=[session.pk])
    )
    assert INITIALS_CHILD in monitor and HIDDEN_CHILD in monitor


async def test_the_watch_view_names_children_as_the_room_was_told_to():
    # The teacher chose first names for the room: the Watch view is the room's screen too.
    lesson = await database_sync_to_async(a_lesson)(projector_names="first")
    match = lesson["match"]
    watch = await database_sync_to_async(page)(
        lesson["teacher"], reverse("games:watch", args=[match.pk])
    )
    shown = {s["seat"]: s["name"] for s in page_config(watch)["seats"]}
    seat = lesson["seat"]
    assert shown[seat[lesson["ben"].pk]] == "Ben"
    assert shown[seat[lesson["carlota"].pk]] == "C. Z."  # her own choice says less
    # The children at the table read their table-mates by each child's own choice.
    mate = await database_sync_to_async(page)(
        lesson["carlota"], reverse("games:play", args=[match.pk])
    )
    assert {s["seat"]: s["name"] for s in page_config(mate)["seats"]}[
        seat[lesson["ben"].pk]
    ] == "Ben Soto"
