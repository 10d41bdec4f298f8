"""Who reaches each roster URL, and the queries of the roster's pages as the class grows.

A teacher reaches only their own classes and those classes' students (404 for anything else);
a student never reaches a roster page (403); an anonymous visitor is sent to sign in."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from classroom.models import Classroom
from classroom.roster import services
from classroom.roster.importing import MAX_STUDENTS
from classroom.roster.student_secrets import Secret
from tests.factories import make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
User = get_user_model()

CLASS_URLS = [
    ("roster_class", "get"),
    ("roster_class_edit", "get"),
    ("roster_class_edit", "post"),
    ("roster_class_delete", "get"),
    ("roster_class_delete", "post"),
    ("roster_cards", "get"),
    ("roster_class_export", "get"),
    ("roster_class_tables", "post"),
    ("roster_student_add", "get"),
    ("roster_student_add", "post"),
    ("roster_import", "get"),
    ("roster_import", "post"),
    ("roster_import_done", "get"),
]
STUDENT_URLS = [
    ("roster_student", "get"),
    ("roster_student_rename", "post"),
    ("roster_student_secret", "post"),
    ("roster_student_delete", "get"),
    ("roster_student_delete", "post"),
    ("roster_student_export", "get"),
]
ALL_URLS = [(name, method, False) for name, method in CLASS_URLS] + [
    (name, method, True) for name, method in STUDENT_URLS
]
# What a POST would change, so a refused one can be seen to change nothing.
FORM = {"name": "Renamed", "kind": "pin", "secret": "1111", "text": "Zed\n", "generate": "pin"}


@pytest.fixture
def world():
    mine = make_class(make_teacher(email="me@example.org"), name="Mine")
    ana = make_student(mine, name="Ana")
    theirs = make_class(make_teacher(email="them@example.org"), name="Theirs")
    zed = make_student(theirs, name="Zed")
    return mine, ana, theirs, zed


def url_of(name, classroom, student=None):
    kwargs = {"classroom_id": classroom.pk}
    if student is not None:
        kwargs["student_id"] = student.pk
    return reverse(f"classroom:{name}", kwargs=kwargs)


def nothing_changed(world):
    mine, ana, theirs, zed = world
    assert Classroom.objects.filter(pk=mine.pk, name="Mine").exists()
    assert Classroom.objects.filter(pk=theirs.pk, name="Theirs").exists()
    for student, name in ((ana, "Ana"), (zed, "Zed")):
        fresh = User.objects.get(pk=student.pk)
        assert fresh.display_name == name and fresh.check_student_secret("4321")
    assert mine.enrollments.count() == theirs.enrollments.count() == 1


@pytest.mark.parametrize(("name", "method", "per_student"), ALL_URLS)
def test_anonymous_visitors_are_sent_to_sign_in(client, world, name, method, per_student):
    mine, ana, _theirs, _zed = world
    response = getattr(client, method)(url_of(name, mine, ana if per_student else None), FORM)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))
    nothing_changed(world)


@pytest.mark.parametrize(("name", "method", "per_student"), ALL_URLS)
def test_students_never_reach_roster_pages_even_of_their_own_class(
    client, world, name, method, per_student
):
    mine, ana, _theirs, _zed = world
    client.force_login(ana)
    response = getattr(client, method)(url_of(name, mine, ana if per_student else None), FORM)
    assert response.status_code == 403
    nothing_changed(world)


@pytest.mark.parametrize(("name", "method", "per_student"), ALL_URLS)
def test_another_teachers_class_does_not_exist_for_a_teacher(
    client, world, name, method, per_student
):
    mine, _ana, theirs, zed = world
    client.force_login(mine.teacher)
    response = getattr(client, method)(url_of(name, theirs, zed if per_student else None), FORM)
    assert response.status_code == 404
    nothing_changed(world)


@pytest.mark.parametrize(("name", "method"), STUDENT_URLS)
def test_another_classes_student_does_not_exist_in_my_class(client, world, name, method):
    mine, _ana, _theirs, zed = world
    client.force_login(mine.teacher)
    response = getattr(client, method)(url_of(name, mine, zed), FORM)
    assert response.status_code == 404
    nothing_changed(world)


@pytest.mark.parametrize(("name", "method", "per_student"), ALL_URLS)
def test_the_classes_teacher_does_reach_them(client, world, name, method, per_student):
    mine, ana, _theirs, _zed = world
    client.force_login(mine.teacher)
    response = getattr(client, method)(url_of(name, mine, ana if per_student else None), FORM)
    assert response.status_code in {200, 302}


def test_the_card_sign_in_url_is_open_to_anyone_holding_a_card(client):
    response = client.get(reverse("classroom:roster_card_signin", args=["nope"]))
    assert response.status_code == 404
    assert b"Sign in with your class code" in response.content


# --- queries: the same for 3 students as for 30 -------------------------------------------------


def class_of(size):
    classroom = make_class(make_teacher(), name=f"Class of {size}")
    students = [
        services.student_add(
            classroom=classroom,
            display_name=f"Student {n:02}",
            secret=Secret("pin", f"{1000 + n}") if n % 2 else Secret("picture", "cat-sun-star"),
        )[0]
        for n in range(size)
    ]
    return classroom, students


# Each count: the session, the teacher, then the page's own queries (named beside it).
PAGES = [
    ("roster_class", False, 5),  # the class; its students with their cards; its platform course
    ("roster_cards", False, 5),  # the class; its students with their cards; the access record
    ("roster_student", True, 4),  # the class; the student with their card
    ("roster_student_delete", True, 10),  # the class; the student; 6 counts; other classes
    # the class; the student; classes, seats, attempts, presences, homework, the three sign-in
    # logs, the class reports (and the moves, with seats: none here); the access record, written
    # and read, and its rows about the child's whole class
    ("roster_student_export", True, 16),
]


@pytest.mark.parametrize("size", [3, 30])
@pytest.mark.parametrize(("name", "per_student", "queries"), PAGES)
def test_roster_pages_make_the_same_queries_for_3_or_30_students(
    client, django_assert_num_queries, size, name, per_student, queries
):
    classroom, students = class_of(size)
    client.force_login(classroom.teacher)
    target = url_of(name, classroom, students[-1] if per_student else None)
    with django_assert_num_queries(queries):
        response = client.get(target)
    assert response.status_code == 200


@pytest.mark.parametrize("size", [3, 30])
def test_import_result_makes_the_same_queries_for_3_or_30_students(
    client, django_assert_num_queries, size
):
    classroom = make_class(make_teacher())
    client.force_login(classroom.teacher)
    text = "\n".join(f"Student {n:02}" for n in range(size))
    client.post(
        url_of("roster_import", classroom), {"text": text, "generate": "pin", "confirm": "1"}
    )
    with django_assert_num_queries(4):  # session, teacher, the class, the new students
        response = client.get(url_of("roster_import_done", classroom))
    assert len(response.context["rows"]) == size


def test_the_login_roster_makes_the_same_queries_for_3_or_30(client, django_assert_num_queries):
    for size in (3, 30):
        classroom, _students = class_of(size)
        url = reverse("classroom:student_login_roster", kwargs={"code": classroom.code})
        with django_assert_num_queries(2):  # the class by its code; its students
            response = client.get(url)
        assert len(response.context["roster"]) == size


def test_an_import_is_capped(client):
    classroom = make_class(make_teacher())
    client.force_login(classroom.teacher)
    text = "\n".join(f"Student {n}" for n in range(MAX_STUDENTS + 1))
    response = client.post(
        url_of("roster_import", classroom), {"text": text, "generate": "pin", "confirm": "1"}
    )
    assert "at most" in response.content.decode()
    assert classroom.enrollments.count() == 0
