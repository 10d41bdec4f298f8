"""Growth (issue 14, item 9): each skill's change against the period before, on the class and
student pages."""

import datetime
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.progress.selectors import Period
from tests.factories import make_attempts, make_class, make_student

pytestmark = pytest.mark.django_db


def test_the_period_before_has_the_same_length():
    period = Period(datetime.date(2026, 3, 1), datetime.date(2026, 3, 30))
    assert period.previous() == Period(datetime.date(2026, 1, 30), datetime.date(2026, 2, 28))
    assert Period(datetime.date(2026, 3, 2), datetime.date(2026, 3, 2)).previous() == Period(
        datetime.date(2026, 3, 1), datetime.date(2026, 3, 1)
    )


def _answers(a, op, b, right_answer, right, wrong, when):
    return [(a, op, b, right_answer, 2000, when)] * right + [
        (a, op, b, right_answer + 1, 2000, when)
    ] * wrong


def _skill_changes(page: str) -> dict[str, str]:
    """Skill -> the change column's text, from the skills table (the page's other tables have
    fewer columns)."""
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td>.*?</td>)+)</tr>', page)
    cells = {skill: re.findall(r"<td>(.*?)</td>", tds) for skill, tds in rows}
    return {skill: tds[4] for skill, tds in cells.items() if len(tds) >= 5}


def test_each_skill_says_how_it_changed_since_the_period_before(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana", kind="", secret=None)
    ben = make_student(classroom, "Ben", kind="", secret=None)
    now = timezone.now() - datetime.timedelta(hours=1)
    before = now - datetime.timedelta(days=40)  # in the 30 days before the last 30
    # Addition within 10: Ana 5 of 10 before, 8 of 10 now; Ben 3 of 5 before, 4 of 5 now.
    make_attempts(ana, _answers(3, "+", 4, 7, 5, 5, before) + _answers(3, "+", 4, 7, 8, 2, now))
    make_attempts(ben, _answers(2, "+", 2, 4, 3, 2, before) + _answers(2, "+", 2, 4, 4, 1, now))
    # Multiplication within 100: only now. Subtraction within 10: 2 answers before (too few).
    make_attempts(ana, _answers(6, "x", 7, 42, 5, 0, now))
    make_attempts(ana, _answers(9, "-", 4, 5, 2, 0, before) + _answers(9, "-", 4, 5, 5, 0, now))
    client.force_login(classroom.teacher)

    page = unescape(
        client.get(reverse("classroom:progress_class", args=[classroom.pk])).content.decode()
    )
    # the class: 8 of 15 (53%) before, 12 of 15 (80%) now
    assert _skill_changes(page) == {
        "Addition within 10": "+27 points",
        "Subtraction within 10": "—",
        "Multiplication within 100": "new in this period",
    }
    ana_page = unescape(
        client.get(
            reverse("classroom:progress_student", args=[classroom.pk, ana.pk])
        ).content.decode()
    )
    assert _skill_changes(ana_page)["Addition within 10"] == "+30 points"
    ben_page = unescape(
        client.get(
            reverse("classroom:progress_student", args=[classroom.pk, ben.pk])
        ).content.decode()
    )
    assert _skill_changes(ben_page)["Addition within 10"] == "+20 points"

    # A period of its own dates compares with the same number of days just before it.
    start = (now - datetime.timedelta(days=45)).date()
    end = (now - datetime.timedelta(days=35)).date()
    earlier = unescape(
        client.get(
            reverse("classroom:progress_class", args=[classroom.pk]),
            {"period": "dates", "start": start.isoformat(), "end": end.isoformat()},
        ).content.decode()
    )
    assert _skill_changes(earlier)["Addition within 10"] == "new in this period"


def test_a_fall_is_written_with_a_minus_sign(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana", kind="", secret=None)
    now = timezone.now() - datetime.timedelta(hours=1)
    before = now - datetime.timedelta(days=10)
    make_attempts(ana, _answers(3, "+", 4, 7, 9, 1, before) + _answers(3, "+", 4, 7, 6, 4, now))
    client.force_login(classroom.teacher)
    page = unescape(
        client.get(
            reverse("classroom:progress_student", args=[classroom.pk, ana.pk]), {"period": "7"}
        ).content.decode()
    )
    assert _skill_changes(page)["Addition within 10"] == "−30 points"


def test_spanish_says_points_and_new(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana", kind="", secret=None)
    now = timezone.now() - datetime.timedelta(hours=1)
    before = now - datetime.timedelta(days=10)
    make_attempts(ana, _answers(3, "+", 4, 7, 9, 1, before) + _answers(3, "+", 4, 7, 8, 2, now))
    make_attempts(ana, _answers(6, "x", 7, 42, 5, 0, now))
    client.force_login(classroom.teacher)
    page = unescape(
        client.get(
            reverse("classroom:progress_student", args=[classroom.pk, ana.pk]),
            {"period": "7"},
            HTTP_ACCEPT_LANGUAGE="es",
        ).content.decode()
    )
    changes = _skill_changes(page)
    assert changes["Suma hasta 10"] == "−10 puntos"
    assert changes["Multiplicación hasta 100"] == "nueva en este periodo"
    assert "Cambio desde el periodo anterior" in page
