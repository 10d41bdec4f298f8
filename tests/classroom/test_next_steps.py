"""Where the play page sends each reader once the game is over: back to the lesson for a child at
a session's table, back to the session for its teacher, back to the homework for homework."""

import pytest
from django.urls import reverse

from classroom.homework.services import work_next
from tests.classroom.sessions_helpers import seat_of, started_session
from tests.factories import make_assignment, make_class, make_student, make_teacher
from tests.games.test_pages import page_config

pytestmark = pytest.mark.django_db


def next_links(client, user, match_id, view="games:play"):
    """The links as (label, url), and the ones that are a form's button as (label, url, "post")."""
    client.force_login(user)
    return [
        {**link, "post": True} if link["post"] else {"label": link["label"], "url": link["url"]}
        for link in page_config(client.get(reverse(view, args=[match_id])))["next"]
    ]


def test_a_session_table_leads_back_to_the_lesson_and_the_session(client):
    classroom, students, session = started_session(2, table_size=2)
    match, _seat = seat_of(session, students[0])
    assert next_links(client, students[0], match.pk) == [
        {"label": "Back to the lesson", "url": reverse("classroom:student_home")}
    ]
    assert next_links(client, classroom.teacher, match.pk, "games:watch") == [
        {
            "label": "Back to the session",
            "url": reverse("classroom:sessions_detail", args=[session.pk]),
        }
    ]


def test_homework_leads_to_its_next_game_then_to_the_next_homework(client):
    from tests.classroom.homework_helpers import finish_puzzle

    classroom = make_class(make_teacher())
    ana = make_student(classroom, "Ana")
    assignment = make_assignment(classroom, title="Squares")  # two puzzles
    later = make_assignment(classroom, title="More squares", due_in_days=9)
    back = {
        "label": "Back to your homework",
        "url": reverse("classroom:homework_student", args=[assignment.pk]),
    }
    first = work_next(assignment=assignment, student=ana)
    play_next = reverse("classroom:homework_play", args=[assignment.pk])
    assert next_links(client, ana, first.match_id) == [
        {"label": "Next puzzle", "url": play_next, "post": True},
        back,
    ]
    finish_puzzle(first.match_id, ana)
    # The button's form: the next puzzle is made and opened.
    response = client.post(play_next)
    second = work_next(assignment=assignment, student=ana)
    assert second.item == 1
    assert response.url == reverse("games:play", args=[second.match_id])
    # On the last puzzle the next step is the next homework not yet finished.
    assert next_links(client, ana, second.match_id) == [
        {
            "label": "Next homework: More squares",
            "url": reverse("classroom:homework_student", args=[later.pk]),
        },
        back,
    ]
    finish_puzzle(second.match_id, ana)
    for _item in range(2):
        work = work_next(assignment=later, student=ana)
        finish_puzzle(work.match_id, ana)
    assert next_links(client, ana, second.match_id) == [back]


def test_spanish_readers_get_the_links_in_spanish(client, settings):
    _classroom, students, session = started_session(2, table_size=2)
    match, _seat = seat_of(session, students[0])
    client.force_login(students[0])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    config = page_config(client.get(reverse("games:play", args=[match.pk])))
    assert config["next"][0]["label"] == "Volver a la clase"


def test_a_teachers_own_table_offers_the_same_players_again(client):
    from tests.factories import make_match

    teacher = make_teacher()
    classroom = make_class(teacher)
    ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben")
    match = make_match(
        game="mia",
        variant="canada47",
        players=[ana, ben],
        bots=["strong"],
        teacher=teacher,
        options={"target": 30},
    )
    links = next_links(client, teacher, match.pk, "games:watch")
    assert [link["label"] for link in links] == [
        "Play again with the same players",
        "Back to your classes",
    ]
    form = client.get(links[0]["url"]).content.decode()
    for value in (f"student:{ana.pk}", f"student:{ben.pk}", "bot:strong"):
        assert f'<option value="{value}" selected>' in form
    assert 'name="option_target" value="30"' in form
    # The children at the table are sent home, not to the teacher's form.
    assert next_links(client, ana, match.pk) == [
        {"label": "Back to your home page", "url": reverse("home")}
    ]
