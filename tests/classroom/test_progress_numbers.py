"""Shares of right answers as a teacher computes them (halves up), and no share of too few answers,
the same on the progress pages, the PDF report, the live monitor and homework."""

import datetime
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from classroom.progress.figures import Figures
from classroom.progress.numbers import MIN_ANSWERS_TO_JUDGE, judged_percent, percent, too_few
from tests.factories import make_attempts, make_class, make_student


def test_halves_are_rounded_up_as_a_teacher_does():
    assert percent(23, 40) == 58  # 57.5 %: round() gave 57 (to the even, and 0.575 is below)
    assert percent(1, 8) == 13  # 12.5 %
    assert percent(5, 8) == 63  # 62.5 %
    assert percent(2, 3) == 67 and percent(1, 3) == 33
    assert percent(0, 7) == 0 and percent(7, 7) == 100
    assert percent(0, 0) is None


@given(
    st.integers(min_value=1, max_value=10**6).flatmap(
        lambda n: st.tuples(st.integers(0, n), st.just(n))
    )
)
def test_percent_is_the_exact_share_rounded_half_up(right_and_answers):
    right, answers = right_and_answers
    share = Fraction(100 * right, answers)
    assert percent(right, answers) == int(share + Fraction(1, 2))


def test_too_few_answers_have_no_percentage():
    assert [too_few(n) for n in range(MIN_ANSWERS_TO_JUDGE + 1)] == [False] + [True] * (
        MIN_ANSWERS_TO_JUDGE - 1
    ) + [False]
    assert judged_percent(1, 1) is None and judged_percent(0, 1) is None
    assert judged_percent(4, 5) == 80
    figures = Figures(attempts=1, correct=1)
    assert figures.accuracy_percent is None
    with translation.override("en"):
        assert figures.accuracy_text == "too few answers"
    assert Figures().accuracy_text == "—"


def answers(right: int, wrong: int, when):
    return [(3, "+", 4, 7, 2000, when)] * right + [(3, "+", 4, 8, 2000, when)] * wrong


@pytest.mark.django_db
def test_the_progress_pages_show_58_for_23_of_40_and_too_few_for_one_answer(client):
    classroom = make_class()
    now = timezone.now() - datetime.timedelta(hours=1)
    ana = make_student(classroom, "Ana", kind="", secret=None)
    ben = make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, answers(23, 17, now))
    make_attempts(ben, answers(1, 0, now))
    client.force_login(classroom.teacher)

    page = client.get(reverse("classroom:progress_class", args=[classroom.pk])).content.decode()
    rows = dict(
        re.findall(
            r"<th scope=\"row\"><a [^>]*>(\w+)</a></th>\s*<td>\d+</td>\s*<td>([^<]+)</td>", page
        )
    )
    assert rows == {"Ana": "58%", "Ben": "too few answers"}
    ben_page = client.get(
        reverse("classroom:progress_student", args=[classroom.pk, ben.pk])
    ).content.decode()
    assert re.search(r"<dt>Accuracy</dt><dd>too few answers</dd>", ben_page)
    # The skill's bar is not drawn as 100%, and its label says why.
    assert ">too few answers</text>" in ben_page
    assert not re.search(r"<td>100%</td>", ben_page)


@pytest.mark.django_db
def test_spanish_says_too_few_answers(client):
    classroom = make_class()
    ben = make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ben, answers(1, 0, timezone.now() - datetime.timedelta(hours=1)))
    client.force_login(classroom.teacher)
    page = client.get(
        reverse("classroom:progress_student", args=[classroom.pk, ben.pk]),
        HTTP_ACCEPT_LANGUAGE="es",
    ).content.decode()
    assert "pocas respuestas" in page
