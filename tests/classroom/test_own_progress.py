"""A child's own page (stars, facts learned this week, best day) and the teacher's one-page
summary of a child (issue "The live lesson, second pass", "Roster and reports")."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.progress.rollup import week_start
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db


def at(day: datetime.date, hour=10) -> datetime.datetime:
    return datetime.datetime.combine(
        day, datetime.time(hour), tzinfo=timezone.get_current_timezone()
    )


@pytest.fixture
def lesson():
    """Ana knew 5 + 5 by heart before this week (right and quick on two days), and this week
    came to know 3 + 4 (quick on a day of last week and again today). Her best day was last
    week's Friday. Ben, her classmate, answered far more."""
    today = timezone.localdate()
    monday = week_start(today)
    friday, thursday = monday - datetime.timedelta(days=3), monday - datetime.timedelta(days=4)
    classroom = make_class(make_teacher())
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="9753")
    make_attempts(
        ana,
        [(5, "+", 5, 10, 1200, at(thursday, 10 + n % 3)) for n in range(3)]
        + [(5, "+", 5, 10, 1200, at(friday, 9)) for _ in range(3)]
        + [(3, "+", 4, 7, 1500, at(friday, 11)) for _ in range(5)]
        + [(6, "x", 7, 41, 4000, at(friday, 12))]
        + [(3, "+", 4, 7, 1400, at(today, 9)) for _ in range(3)],
    )
    make_attempts(ben, [(2, "+", 2, 4, 900, at(today, 9)) for _ in range(40)])
    return classroom, ana, ben, today, friday


def test_a_child_sees_their_stars_new_facts_and_best_day(client, lesson):
    _classroom, ana, _ben, today, friday = lesson
    client.force_login(ana)
    home = client.get(reverse("classroom:student_home")).content.decode()
    assert reverse("classroom:own_progress") in home
    response = client.get(reverse("classroom:own_progress"))
    assert response.status_code == 200
    html = response.content.decode()
    own = response.context["own"]
    assert own.stars == [today]
    assert own.right_this_week == 3
    assert own.learned_this_week == ["3 + 4 = 7"]
    assert own.known == 2
    assert (own.best.day, own.best.right) == (friday, 8)
    assert "You have 1 star this week!" in html
    assert "3 + 4 = 7" in html and "5 + 5 = 10" not in html
    assert "You know 2 facts by heart." in html
    assert "Your best: 8 right answers on" in html
    # Never a comparison: no classmate, no class figure, no rank.
    assert "Ben" not in html
    text = re.sub(r"<[^>]+>", " ", html.split("<main")[1].split("</main>")[0])
    assert not re.search(r"class|rank|average|median", text, re.I)


def test_the_child_page_speaks_spanish(client, lesson):
    _classroom, ana, *_ = lesson
    client.force_login(ana)
    html = client.get(reverse("classroom:own_progress"), HTTP_ACCEPT_LANGUAGE="es").content
    html = html.decode()
    assert "Mis estrellas" in html and "¡Tienes 1 estrella esta semana!" in html
    assert "Sabes 2 operaciones de memoria." in html
    # The best day in Spanish words: "el viernes 20 de noviembre", not "el viernes 20 noviembre".
    _classroom, _ana, _ben, _today, friday = lesson
    months = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto"]
    months += ["septiembre", "octubre", "noviembre", "diciembre"]
    assert f"{friday.day} de {months[friday.month - 1]}" in html


def test_a_teacher_cannot_open_a_child_page(client, lesson):
    classroom, *_ = lesson
    client.force_login(classroom.teacher)
    assert client.get(reverse("classroom:own_progress")).status_code == 403


def test_each_child_sees_only_their_own(client, lesson):
    _classroom, _ana, ben, *_ = lesson
    client.force_login(ben)
    own = client.get(reverse("classroom:own_progress")).context["own"]
    assert own.right_this_week == 40 and own.learned_this_week == []
    assert "Ana" not in client.get(reverse("classroom:own_progress")).content.decode()


def test_the_teacher_prints_a_summary_from_the_child_progress_page(client, lesson):
    classroom, ana, *_ = lesson
    client.force_login(classroom.teacher)
    summary = reverse("classroom:progress_student_summary", args=[classroom.pk, ana.pk])
    page = client.get(reverse("classroom:progress_student", args=[classroom.pk, ana.pk]))
    assert summary in page.content.decode()
    response = client.get(summary)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ana: how it is going" in html
    assert "Facts learned by heart:" in html and "3 + 4 = 7" in html
    assert "Knows 2 facts by heart" in html
    assert "Best day: 8 right answers on" in html
    assert re.search(r"To practise at home.*(6 × 7|7 × 6)", html, re.S)
    assert "Ben" not in html
    assert "@media print" not in html  # the print rules live in the stylesheet
    assert "data-print" in html


def test_only_the_class_teacher_opens_the_summary(client, lesson):
    classroom, ana, ben, *_ = lesson
    summary = reverse("classroom:progress_student_summary", args=[classroom.pk, ana.pk])
    client.force_login(make_teacher(email="other@example.org", name="Other"))
    assert client.get(summary).status_code == 404
    client.force_login(ben)
    assert client.get(summary).status_code == 403
    client.force_login(ana)
    assert client.get(summary).status_code == 403
    client.logout()
    assert client.get(summary).status_code == 302
    # A child of another class, through this class's address: 404.
    stranger = make_student(make_class(classroom.teacher, name="Class 4B"), "Zoe", secret="8642")
    client.force_login(classroom.teacher)
    elsewhere = reverse("classroom:progress_student_summary", args=[classroom.pk, stranger.pk])
    assert client.get(elsewhere).status_code == 404
