"""Days are counted in the school's time zone (issue 14, item 6): the teacher's zone, which their
students follow; a new zone counts the stored answers again."""

import datetime

import pytest
from django.urls import reverse

from classroom import services
from classroom.progress.models import SkillDay, SkillWeek
from config.celery import app as celery_app
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
# 23:30 UTC on Sunday 1 March 2026 is 00:30 on Monday 2 March in Madrid (UTC+1 in winter).
SUNDAY_NIGHT_UTC = datetime.datetime(2026, 3, 1, 23, 30, tzinfo=UTC)
SUNDAY_EVENING_UTC = datetime.datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
SUNDAY, MONDAY = datetime.date(2026, 3, 1), datetime.date(2026, 3, 2)


@pytest.fixture(autouse=True)
def eager_celery():
    """The recount runs where it is sent, on both passes (a worker's job otherwise)."""
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def madrid_class(settings):
    settings.TIME_ZONE = "UTC"  # the site's zone differs from the school's
    teacher = make_teacher()
    services.teacher_time_zone_set(teacher=teacher, time_zone="Europe/Madrid")
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    make_attempts(
        ana, [(3, "+", 4, 8, 1500, SUNDAY_NIGHT_UTC), (5, "+", 4, 9, 900, SUNDAY_EVENING_UTC)]
    )
    return teacher, classroom, ana


def days(student):
    return sorted(SkillDay.objects.filter(student=student).values_list("day", "attempts"))


def weeks(student):
    return sorted(SkillWeek.objects.filter(student=student).values_list("week", "attempts"))


def test_a_student_added_to_a_class_takes_the_teachers_zone(madrid_class):
    _, _, ana = madrid_class
    assert ana.time_zone == "Europe/Madrid"


def test_an_answer_after_midnight_counts_on_the_schools_day_and_week(madrid_class):
    _, _, ana = madrid_class
    assert days(ana) == [(SUNDAY, 1), (MONDAY, 1)]
    assert weeks(ana) == [(datetime.date(2026, 2, 23), 1), (MONDAY, 1)]


def test_a_new_zone_counts_the_stored_answers_again(
    madrid_class, django_capture_on_commit_callbacks
):
    teacher, _, ana = madrid_class
    with django_capture_on_commit_callbacks(execute=True):
        recounted = services.teacher_time_zone_set(teacher=teacher, time_zone="UTC")
    assert recounted == [ana.pk]
    ana.refresh_from_db()
    assert ana.time_zone == "UTC"
    assert days(ana) == [(SUNDAY, 2)]
    assert weeks(ana) == [(datetime.date(2026, 2, 23), 2)]


def test_the_pages_read_days_in_the_teachers_zone(client, madrid_class):
    teacher, classroom, ana = madrid_class
    client.force_login(teacher)
    url = reverse("classroom:progress_class", args=[classroom.pk])
    monday = client.get(url, {"period": "dates", "start": MONDAY, "end": MONDAY})
    assert "<dt>Answers</dt><dd>1</dd>" in monday.content.decode()
    student = client.get(
        reverse("classroom:progress_student", args=[classroom.pk, ana.pk]),
        {"period": "dates", "start": SUNDAY, "end": MONDAY},
    ).content.decode()
    assert "00:30" in student or "12:30" in student  # the wrong answer's time, Madrid's
    assert "23:30" not in student and "11:30" not in student


def test_the_settings_page_sets_the_zone(client, settings, django_capture_on_commit_callbacks):
    settings.TIME_ZONE = "UTC"
    teacher = make_teacher()
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    make_attempts(ana, [(3, "+", 4, 7, 1500, SUNDAY_NIGHT_UTC)])
    assert days(ana) == [(SUNDAY, 1)]
    client.force_login(teacher)
    url = reverse("classroom:teacher_settings")
    page = client.get(url).content.decode()
    assert '<option value="UTC" selected>' in page or 'value="UTC" selected' in page
    assert "Europe/Madrid" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"time_zone": "Europe/Madrid"}, follow=True)
    assert "Days are now counted in Europe/Madrid." in response.content.decode()
    teacher.refresh_from_db()
    ana.refresh_from_db()
    assert (teacher.time_zone, ana.time_zone) == ("Europe/Madrid", "Europe/Madrid")
    assert days(ana) == [(MONDAY, 1)]
    refused = client.post(url, {"time_zone": "Mars/Olympus_Mons"})
    assert refused.status_code == 200 and "Select a valid choice" in refused.content.decode()
    teacher.refresh_from_db()
    assert teacher.time_zone == "Europe/Madrid"


def test_students_may_not_open_the_teachers_settings(client, madrid_class):
    _, _, ana = madrid_class
    client.force_login(ana)
    assert client.get(reverse("classroom:teacher_settings")).status_code in (302, 403)
