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
    assert 'Cambio<span class="visually-hidden"> desde el periodo anterior</span>' in page


# --- games, time, lessons and homework ------------------------------------------------------------


def _seat(match, user, index=0):
    from games.models import Seat

    Seat.objects.create(match=match, index=index, user=user, name=user.display_name)


def _played_in_a_lesson(classroom, match):
    from classroom.models import SessionTable
    from tests.factories import make_session

    SessionTable.objects.create(session=make_session(classroom), number=1, match=match)


def _played_as_homework(classroom, student, match):
    from classroom.models import AssignmentWork
    from tests.factories import make_assignment

    AssignmentWork.objects.create(
        assignment=make_assignment(classroom), student=student, item=0, match=match
    )


def test_games_time_and_answers_in_lessons_and_homework(client):
    from games.models import Match

    classroom = make_class()
    ana = make_student(classroom, "Ana", kind="", secret=None)
    ben = make_student(classroom, "Ben", kind="", secret=None)
    now = timezone.now() - datetime.timedelta(hours=2)
    at = [now + datetime.timedelta(minutes=m) for m in range(20)]
    # Ana, a lesson's ¡Mía!: 6 answers from minute 0 to minute 12, 5 right.
    lesson = make_attempts(
        ana, [(3, "+", 4, 7, 2000, at[n]) for n in (0, 2, 4, 6, 8)] + [(3, "+", 4, 8, 2000, at[12])]
    )
    # Ana, homework at SUM: one answer of 45 s, wrong; Ana, a table set up by hand: 5 right.
    homework = make_attempts(ana, [(9, "+", 8, 16, 45_000, at[1])], game="sum")
    other = make_attempts(ana, [(2, "+", 2, 4, 1000, at[n]) for n in range(5)], game="sum")
    # Ben: the same lesson's table, 2 of 5 right, over 3 minutes; and a game with no answer.
    _seat(lesson, ben, 1)
    bens = [(5, "+", 5, 10, 1500, at[n]) for n in (0, 1)]
    bens += [(5, "+", 5, 11, 1500, at[n]) for n in (2, 3, 3)]
    make_attempts(ben, bens).attempts.update(match=lesson)
    idle = make_attempts(ben, [])
    Match.objects.filter(pk=idle.pk).update(finished_at=None, status=Match.Status.PLAYING)
    _seat(idle, ben)
    for match in (lesson, homework, other):
        _seat(match, ana)
    Match.objects.filter(pk__in=[lesson.pk, homework.pk, other.pk]).update(finished_at=now)
    _played_in_a_lesson(classroom, lesson)
    _played_as_homework(classroom, ana, homework)
    client.force_login(classroom.teacher)

    page = unescape(
        client.get(
            reverse("classroom:progress_class_activity", args=[classroom.pk])
        ).content.decode()
    )
    students = dict(
        re.findall(r'<th scope="row"><a [^>]*>(\w+)</a></th>\s*((?:<td>.*?</td>\s*)+)</tr>', page)
    )
    cells = {name: re.findall(r"<td>(.*?)</td>", tds) for name, tds in students.items()}
    # games, finished, time, lesson answers, lesson accuracy, homework answers, homework accuracy
    assert cells["Ana"] == ["3", "3", "16 min", "6", "83%", "1", "too few answers"]
    # A game played is one the student answered in: Ben's seat at a game without an answer of
    # his is no game played, on the class page, the student page and the table of games alike.
    assert cells["Ben"] == ["1", "1", "3 min", "5", "40%", "0", "—"]
    where = re.findall(r'<tr><th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td>', page)
    assert where[:3] == [
        ("In lessons", "11", "7"),
        ("Homework", "1", "0"),
        ("Other games", "5", "5"),
    ]
    games = re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td>[^<]*</td>){6})</tr>', page)
    by_game = {title: re.findall(r"<td>([^<]*)</td>", tds) for title, tds in games}
    # games, players, answers, accuracy, in lessons, homework
    assert by_game["¡Mía!"] == ["1", "2", "11", "64%", "64%", "—"]
    assert by_game["SUM"] == ["2", "1", "6", "83%", "—", "too few answers"]

    ana_page = unescape(
        client.get(
            reverse("classroom:progress_student", args=[classroom.pk, ana.pk])
        ).content.decode()
    )
    assert "<dt>Games played</dt><dd>3</dd>" in ana_page
    ben_page = client.get(reverse("classroom:progress_student", args=[classroom.pk, ben.pk]))
    assert "<dt>Games played</dt><dd>1</dd>" in ben_page.content.decode()
    assert "<dt>Time playing</dt><dd>16 min</dd>" in ana_page


def test_the_games_page_in_spanish(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana", kind="", secret=None)
    from games.models import Seat

    now = timezone.now()
    match = make_attempts(
        ana, [(2, "+", 2, 4, 1000, now + datetime.timedelta(seconds=5 * n)) for n in range(5)]
    )
    Seat.objects.create(match=match, index=0, user=ana, name="Ana")
    client.force_login(classroom.teacher)
    page = unescape(
        client.get(
            reverse("classroom:progress_class_activity", args=[classroom.pk]),
            HTTP_ACCEPT_LANGUAGE="es",
        ).content.decode()
    )
    assert "<h1>Partidas y tiempo de Class 4A</h1>" in page
    assert '<th scope="col">Terminadas</th>' in page
    assert '<tr><th scope="row">Otras partidas</th><td>5</td><td>5</td><td>100%</td></tr>' in page
    assert "menos de un minuto" in page
