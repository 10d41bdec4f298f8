"""Mastery that measures the child (issue 22, item 2): "mastered" needs right, fluent answers
on two school days; a fact not seen for a month is due for review; answers whose time holds
more than recall (¡Mía!, ADD UP) never count against fluency; and the student page says how
each level was reached. Read from the teacher's student page over HTTP."""

import datetime
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from tests.factories import make_attempts, make_class, make_student

QUICK_MS = 1500
SLOW_MS = 6000


def _at_school(days_ago: int, hour: int = 10) -> datetime.datetime:
    """``hour`` o'clock, ``days_ago`` days before today, in the school's zone."""
    day = timezone.localdate() - datetime.timedelta(days=days_ago)
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time(hour)))


def _answers(days_ago, count, elapsed_ms=QUICK_MS, fact=(3, "+", 4)):
    """``count`` right answers to ``fact`` a minute apart in one lesson ``days_ago`` days ago."""
    a, operator, b = fact
    start = _at_school(days_ago)
    return [
        (a, operator, b, a + b, elapsed_ms, start + datetime.timedelta(minutes=n))
        for n in range(count)
    ]


def _student_page(client, classroom, student) -> str:
    client.force_login(classroom.teacher)
    url = reverse("classroom:progress_student", args=[classroom.pk, student.pk])
    return unescape(client.get(url, {"period": "90"}).content.decode())


def _fact_says(page: str, fact: str) -> str:
    """What the student's fact grid tells a screen reader of ``fact``."""
    return re.search(rf"{re.escape(fact)}: ([^<]*)", page).group(1)


def _skill_row(page: str, skill: str) -> str:
    return re.search(rf'<th scope="row">{skill}</th>(.*?)</tr>', page, re.S).group(1)


def _day(days_ago: int) -> str:
    return formats.date_format(_at_school(days_ago).date(), "j M Y")


@pytest.fixture
def pupil():
    classroom = make_class()
    return classroom, make_student(classroom, "Ana", kind="", secret=None)


@pytest.mark.django_db
def test_five_right_quick_answers_in_one_lesson_are_at_most_proficient(client, pupil):
    classroom, ana = pupil
    make_attempts(ana, _answers(days_ago=1, count=5), game="add_or_multiply")
    page = _student_page(client, classroom, ana)
    assert _fact_says(page, "3 + 4").startswith("Proficient, 5 of the latest 5 right, 5 fluent")
    assert "Proficient" in _skill_row(page, "Addition within 10")
    assert "Mastered" not in page.split("<caption>Addition facts")[1]


@pytest.mark.django_db
def test_the_same_on_a_second_day_make_it_mastered_and_the_page_says_how(client, pupil):
    classroom, ana = pupil
    make_attempts(ana, _answers(days_ago=3, count=5), game="add_or_multiply")
    make_attempts(ana, _answers(days_ago=1, count=5), game="add_or_multiply")
    page = _student_page(client, classroom, ana)
    reached = f"10 of the latest 10 right, 10 fluent, on 2 days; last seen {_day(1)}"
    assert _fact_says(page, "3 + 4") == f"Mastered, {reached}"
    row = _skill_row(page, "Addition within 10")
    assert "Mastered" in row and reached in row


@pytest.mark.django_db
def test_a_mastered_fact_not_seen_for_31_days_is_due_for_review(client, pupil):
    classroom, ana = pupil
    make_attempts(ana, _answers(days_ago=33, count=5), game="add_or_multiply")
    make_attempts(ana, _answers(days_ago=31, count=5), game="add_or_multiply")
    page = _student_page(client, classroom, ana)
    says = _fact_says(page, "3 + 4")
    assert says.startswith("Proficient (due for review), 10 of the latest 10 right")
    assert says.endswith(f"last seen {_day(31)}")
    assert "due for review" in _skill_row(page, "Addition within 10")

    # Seen again since (a day short of a month), it stays mastered.
    make_attempts(ana, _answers(days_ago=30, count=1), game="add_or_multiply")
    assert _fact_says(_student_page(client, classroom, ana), "3 + 4").startswith("Mastered, ")


@pytest.mark.django_db
def test_slow_right_real_time_answers_do_not_lower_fluency_below_the_recall_games(client, pupil):
    """Ana recalls 3 + 4 quickly in Add or Multiply? on two days, and claims it slowly but
    rightly in ¡Mía!, where her time holds the wait for the card and the search of her hand."""
    classroom, ana = pupil
    make_attempts(ana, _answers(days_ago=3, count=3), game="add_or_multiply")
    make_attempts(ana, _answers(days_ago=2, count=2), game="add_or_multiply")
    make_attempts(ana, _answers(days_ago=1, count=5, elapsed_ms=SLOW_MS), game="mia")
    page = _student_page(client, classroom, ana)
    # Recall games alone: 5 of 5 fluent, mastered; the slow claims leave that as it is.
    assert _fact_says(page, "3 + 4") == (
        f"Mastered, 10 of the latest 10 right, 5 fluent, on 2 days; last seen {_day(1)}"
    )


@pytest.mark.django_db
def test_real_time_answers_alone_cannot_show_fluency_slow_or_not(client, pupil):
    """Slow right ¡Mía! claims alone: right, so proficient, never judged slow; a wrong one still
    counts against accuracy."""
    classroom, ana = pupil
    make_attempts(ana, _answers(days_ago=2, count=5, elapsed_ms=SLOW_MS), game="mia")
    make_attempts(ana, _answers(days_ago=1, count=4, elapsed_ms=SLOW_MS), game="mia")
    make_attempts(ana, [(3, "+", 4, 8, 1000, _at_school(1, hour=11))], game="mia")
    says = _fact_says(_student_page(client, classroom, ana), "3 + 4")
    assert says.startswith("Proficient, 9 of the latest 10 right, 0 fluent")
