"""A child's home page (templates/classroom/student_home.html): "No game yet" is said only when
there is nothing there, not under the homework, the game sessions or the games it lists."""

import pytest
from django.urls import reverse

from classroom.sessions.services import session_join, session_start
from tests.factories import make_assignment, make_class, make_session, make_student

pytestmark = pytest.mark.django_db

NOTHING_YET = "No game yet. When your teacher starts a game or gives you homework"


def home(client, student, **headers):
    client.force_login(student)
    return client.get(reverse("classroom:student_home"), **headers).content.decode()


def test_nothing_there_says_so(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    page = home(client, ana)
    assert page.count(NOTHING_YET) == 1
    assert "Todavía no hay juegos" in home(client, ana, HTTP_ACCEPT_LANGUAGE="es")


def test_homework_listed_is_not_followed_by_no_game_yet(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    make_assignment(classroom, title="Puzzles for Friday")
    page = home(client, ana)
    assert "Puzzles for Friday" in page
    assert NOTHING_YET not in page
    assert "Todavía no hay juegos" not in home(client, ana, HTTP_ACCEPT_LANGUAGE="es")


def test_an_open_game_session_is_not_followed_by_no_game_yet(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    make_session(classroom, game="mia", variant="express")
    page = home(client, ana)
    assert "data-session-id" in page and NOTHING_YET not in page


def test_a_game_being_played_is_not_followed_by_no_game_yet(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    session = make_session(classroom, game="mia", variant="express")
    session_join(session=session, student=ana)
    session_start(session=session)
    page = home(client, ana)
    assert "Your games" in page and NOTHING_YET not in page
