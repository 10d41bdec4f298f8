"""Every homework URL, for everyone who might try it: a teacher reaches only their own classes'
homework (404 for another's), a student never a teacher page (403) nor another class's homework
(404) nor another student's match; anonymous visitors are sent to sign in."""

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from classroom.homework import services
from classroom.models import Assignment, AssignmentWork
from games.models import Match
from tests.factories import (
    close_code_after_accept,
    make_assignment,
    make_class,
    make_student,
    make_teacher,
    session_cookie_for,
)
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    teacher = make_teacher(name="Owner")
    classroom = make_class(teacher, name="Mine")
    other_teacher = make_teacher(name="Other")
    other_class = make_class(other_teacher, name="Theirs")
    return {
        "teacher": teacher,
        "classroom": classroom,
        "assignment": make_assignment(classroom),
        "student": make_student(classroom, "Ana", secret="1111"),
        "classmate": make_student(classroom, "Ben", secret="2222"),
        "other_teacher": other_teacher,
        "outsider": make_student(other_class, "Zoe", secret="3333"),
    }


def teacher_urls(world):
    classroom, assignment = world["classroom"].pk, world["assignment"].pk
    return [
        ("get", reverse("classroom:homework_list", args=[classroom])),
        ("get", reverse("classroom:homework_create", args=[classroom])),
        ("post", reverse("classroom:homework_create", args=[classroom])),
        ("get", reverse("classroom:homework_detail", args=[assignment])),
        ("get", reverse("classroom:homework_edit", args=[assignment])),
        ("post", reverse("classroom:homework_edit", args=[assignment])),
        ("get", reverse("classroom:homework_delete", args=[assignment])),
        ("post", reverse("classroom:homework_delete", args=[assignment])),
    ]


def student_urls(world):
    assignment = world["assignment"].pk
    return [
        ("get", reverse("classroom:homework_student", args=[assignment])),
        ("post", reverse("classroom:homework_play", args=[assignment])),
    ]


def call(client, method, url):
    return getattr(client, method)(url, {"title": "Changed"} if method == "post" else None)


TEACHER_PAGES = range(8)
STUDENT_PAGES = range(2)


@pytest.mark.parametrize("index", TEACHER_PAGES)
@pytest.mark.parametrize(
    "who, status", [(None, 302), ("student", 403), ("other_teacher", 404), ("teacher", "ok")]
)
def test_teacher_homework_urls(client, world, index, who, status):
    method, url = teacher_urls(world)[index]
    if who:
        client.force_login(world[who])
    response = call(client, method, url)
    if status == "ok":
        assert response.status_code in (200, 302)
        if response.status_code == 302:
            assert not response["Location"].startswith("/accounts/login/")
        return
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/accounts/login/")
    # Nothing changed for anybody who may not.
    assignment = Assignment.objects.get(pk=world["assignment"].pk)
    assert assignment.title == "Homework"
    assert Assignment.objects.count() == 1


@pytest.mark.parametrize("index", STUDENT_PAGES)
@pytest.mark.parametrize(
    "who, status",
    [(None, 302), ("teacher", 403), ("other_teacher", 403), ("outsider", 404), ("student", "ok")],
)
def test_student_homework_urls(client, world, index, who, status):
    method, url = student_urls(world)[index]
    if who:
        client.force_login(world[who])
    response = call(client, method, url)
    if status == "ok":
        assert response.status_code in (200, 302)
        return
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/accounts/login/")
    assert not Match.objects.exists()


def test_play_is_post_only(client, world):
    client.force_login(world["student"])
    url = reverse("classroom:homework_play", args=[world["assignment"].pk])
    assert client.get(url).status_code == 405
    assert not Match.objects.exists()


def test_a_student_never_reaches_a_classmates_work(client, world):
    assignment = world["assignment"]
    ben_work = services.work_start(assignment=assignment, student=world["classmate"], item=0)
    client.force_login(world["student"])
    # Her own "Play" makes her own match, never opens Ben's.
    response = client.post(reverse("classroom:homework_play", args=[assignment.pk]))
    ana_match = AssignmentWork.objects.get(student=world["student"]).match_id
    assert response["Location"] == f"/play/{ana_match}/"
    assert ana_match != ben_work.match_id
    # Ben's match page and his results are not hers to see.
    assert client.get(f"/play/{ben_work.match_id}/").status_code == 403
    page = client.get(reverse("classroom:homework_student", args=[assignment.pk])).content
    assert f"/play/{ben_work.match_id}/".encode() not in page
    assert b"Ben" not in page


def test_an_outsider_cannot_play_an_item_of_another_class(client, world):
    client.force_login(world["outsider"])
    url = reverse("classroom:homework_play", args=[world["assignment"].pk])
    assert client.post(url, {"item": "0"}).status_code == 404
    assert not Match.objects.exists()


def test_unknown_ids_are_not_found(client, world):
    client.force_login(world["teacher"])
    assert client.get(reverse("classroom:homework_detail", args=[999999])).status_code == 404
    assert client.get(reverse("classroom:homework_list", args=[999999])).status_code == 404
    client.force_login(world["student"])
    assert client.get(reverse("classroom:homework_student", args=[999999])).status_code == 404


def test_the_assignments_teacher_watches_a_students_homework_and_no_other_teacher_does(
    client, world
):
    work = services.work_start(assignment=world["assignment"], student=world["student"], item=0)
    watch = reverse("games:watch", args=[work.match_id])
    client.force_login(world["teacher"])
    assert client.get(watch).status_code == 200
    report = client.get(reverse("classroom:homework_detail", args=[world["assignment"].pk]))
    assert f'href="{watch}"' in report.content.decode()
    # The homework pages show it; the home page's list of the teacher's own tables does not.
    home = client.get(reverse("classroom:teacher_home")).content.decode()
    assert f"/play/{work.match_id}/" not in home
    for who in ("other_teacher", "classmate", "outsider"):
        client.force_login(world[who])
        assert client.get(watch).status_code == 403, who
    # The student herself plays it: her seat, not a spectator's view.
    client.force_login(world["student"])
    assert client.get(watch)["Location"] == f"/play/{work.match_id}/"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("who", "watches"), [("teacher", True), ("other_teacher", False)])
async def test_only_the_assignments_teacher_opens_a_homework_match_socket(who, watches):
    @database_sync_to_async
    def homework_match():
        teacher = make_teacher(name="Owner")
        classroom = make_class(teacher)
        ana = make_student(classroom, "Ana", secret="1111")
        work = services.work_start(assignment=make_assignment(classroom), student=ana, item=0)
        people = {"teacher": teacher, "other_teacher": make_teacher(name="Other")}
        return work.match_id, session_cookie_for(people[who])

    match_id, cookie = await homework_match()
    ws, connected, _code = await connect(match_id, cookie)
    if watches:
        assert connected
        state = await ws.receive_json_from(timeout=2)
        assert state["type"] == "state" and state["view"]["seat"] is None
        await ws.disconnect()
    else:
        assert connected and await close_code_after_accept(ws) == 4403
