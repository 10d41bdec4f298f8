"""Role separation: students never open teacher pages, teachers never open student pages."""

import logging

import pytest
from django.urls import reverse

from tests.factories import make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

TEACHER_PAGES = [("classroom:teacher_home", "get"), ("classroom:classroom_create", "post")]
STUDENT_PAGES = [("classroom:student_home", "get")]


@pytest.mark.parametrize(("name", "method"), TEACHER_PAGES)
def test_students_cannot_open_teacher_pages(client, name, method):
    client.force_login(make_student(make_class()))
    response = getattr(client, method)(reverse(name), {"name": "Sneaky class"})
    assert response.status_code == 403


@pytest.mark.parametrize(("name", "method"), STUDENT_PAGES)
def test_teachers_cannot_open_student_pages(client, name, method):
    client.force_login(make_teacher())
    assert getattr(client, method)(reverse(name)).status_code == 403


@pytest.mark.parametrize(("name", "method"), TEACHER_PAGES + STUDENT_PAGES)
def test_anonymous_visitors_are_sent_to_sign_in(client, name, method):
    response = getattr(client, method)(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_home_sends_each_role_to_its_own_page(client):
    client.force_login(make_teacher())
    assert client.get(reverse("home"))["Location"] == reverse("classroom:teacher_home")
    client.force_login(make_student(make_class(make_teacher(email="t2@example.org"))))
    assert client.get(reverse("home"))["Location"] == reverse("classroom:student_home")


def test_teacher_creates_a_class_and_sees_only_their_own(client):
    mine, theirs = make_teacher(), make_teacher(email="other@example.org")
    make_class(theirs, name="Their class")
    client.force_login(mine)
    response = client.post(reverse("classroom:classroom_create"), {"name": "Year 3"}, follow=True)
    created = mine.classrooms.get()
    assert created.name == "Year 3"
    # Straight to the new class's page, where its students are added.
    assert response.redirect_chain == [
        (reverse("classroom:roster_class", kwargs={"classroom_id": created.pk}), 302)
    ]
    assert f"“Year 3” is ready. Its class code is {created.code}." in response.content.decode()
    home = client.get(reverse("classroom:teacher_home")).content.decode()
    assert "Year 3" in home
    assert "Their class" not in home


def test_a_class_without_a_name_is_refused_and_the_teacher_stays_home(client):
    teacher = make_teacher()
    client.force_login(teacher)
    response = client.post(reverse("classroom:classroom_create"), {"name": "  "}, follow=True)
    assert response.redirect_chain == [(reverse("classroom:teacher_home"), 302)]
    assert "Give the class a name." in response.content.decode()
    assert not teacher.classrooms.exists()


def test_a_refused_page_is_logged_in_one_line_without_a_traceback(client, caplog):
    client.force_login(make_student(make_class()))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("classroom:teacher_home"))
    assert response.status_code == 403
    assert "This page is not for you" in response.content.decode()  # the 403 page, as before
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.WARNING and record.status_code == 403
    assert record.exc_info is None and record.exc_text is None
    assert "\n" not in logging.Formatter().format(record)
