"""Dates in words (issue "The live lesson, second pass", "Words a child reads"): "11/03/2026" is
3 November to a teacher in the US and 11 March to one in the UK, so no page, PDF or chart prints a
numeric date; English reads "3 November 2026" (or "3 Nov 2026"), Spanish "3 de noviembre de
2026" (or "3 nov 2026"), and the weeks of a Spanish chart or PDF are named in Spanish."""

from __future__ import annotations

import datetime
import re
import subprocess
from html import unescape

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import ClassSession, ProgressReport
from classroom.progress.tasks import compile_progress_report
from config.celery import app as celery_app
from tests.factories import make_assignment, make_attempts, make_class, make_session, make_student

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
# 3 November and 11 March: either reads as the other in the other country's numeric order.
NOVEMBER_3 = datetime.datetime(2026, 11, 3, 10, 30, tzinfo=UTC)
NUMERIC_DATE = re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b")


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    settings.TIME_ZONE = "UTC"


@pytest.fixture(autouse=True)
def eager_celery():
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


def sign_in(client, user):
    client.force_login(
        user,
        backend="django.contrib.auth.backends.ModelBackend"
        if user.role == "teacher"
        else "accounts.backends.StudentSecretBackend",
    )
    return client


def visible_text(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'datetime="[^"]*"', "", html)  # the machine's copy of a date, never shown
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def get(client, url, language):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (url, response.status_code)
    return visible_text(response)


@pytest.mark.parametrize(
    ("language", "long_date", "short_date"),
    [("en", "3 November 2026", "3 Nov 2026"), ("es", "3 de noviembre de 2026", "3 nov 2026")],
)
def test_the_pages_write_dates_in_words(client, language, long_date, short_date):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    session = make_session(classroom)
    ClassSession.objects.filter(pk=session.pk).update(created_at=NOVEMBER_3)
    homework = make_assignment(classroom)
    homework.due_at = NOVEMBER_3
    homework.save(update_fields=["due_at"])

    sign_in(client, classroom.teacher)
    sessions = get(client, reverse("classroom:sessions_list", args=[classroom.pk]), language)
    assert short_date in sessions, sessions
    homework_page = get(client, reverse("classroom:homework_detail", args=[homework.pk]), language)
    assert long_date in homework_page or short_date in homework_page, homework_page
    for text in (sessions, homework_page):
        assert not NUMERIC_DATE.search(text), NUMERIC_DATE.search(text)

    client.logout()
    sign_in(client, ana)
    home = get(client, reverse("classroom:student_home"), language)
    assert long_date in home, home  # the homework's due date
    assert not NUMERIC_DATE.search(home), NUMERIC_DATE.search(home)


def pdf_text(path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", path, "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize(
    ("language", "period", "weeks"),
    [
        ("en", "1 November 2026 to 14 November 2026", ["2 Nov", "9 Nov"]),
        ("es", "1 de noviembre de 2026 al 14 de noviembre de 2026", ["2 nov", "9 nov"]),
    ],
)
def test_the_report_pdf_and_its_page_write_dates_and_weeks_in_the_reports_language(
    client, language, period, weeks
):
    classroom = make_class(name="Class 4A")
    ana = make_student(classroom, "Ana")
    make_attempts(
        ana,
        [(3, "+", 4, 7, 1200, NOVEMBER_3)] * 3
        + [(4, "+", 4, 8, 1500, NOVEMBER_3 + datetime.timedelta(days=7))] * 3,
    )
    report = ProgressReport.objects.create(
        classroom=classroom,
        period_start=datetime.date(2026, 11, 1),
        period_end=datetime.date(2026, 11, 14),
        language=language,
    )
    assert compile_progress_report.delay(report.pk).get() == "done"
    report.refresh_from_db()
    text = " ".join(pdf_text(report.pdf_file.path).split())
    assert period in text, text[:600]
    for week in weeks:  # the week-by-week chart's axis, as the pages name the weeks
        assert re.search(rf"\b{week}\b", text), (week, text)
    assert not NUMERIC_DATE.search(text), NUMERIC_DATE.search(text)

    sign_in(client, classroom.teacher)
    page = get(client, reverse("classroom:progress_report", args=[report.pk]), language)
    start = period.split(" to ")[0].split(" al ")[0]
    assert start in page, page
    assert not NUMERIC_DATE.search(page), NUMERIC_DATE.search(page)


def test_a_date_far_from_now_is_still_in_words(client):
    """The formats come from config/formats, whatever the language's Django default."""
    from django.utils import formats, translation

    when = timezone.make_aware(datetime.datetime(2026, 3, 11, 9, 0), UTC)
    with translation.override("en"):
        assert formats.date_format(when, "SHORT_DATE_FORMAT") == "11 Mar 2026"
        assert formats.date_format(when, "DATE_FORMAT") == "11 March 2026"
    with translation.override("es"):
        assert formats.date_format(when, "SHORT_DATE_FORMAT") == "11 mar 2026"
        assert formats.date_format(when, "DATE_FORMAT") == "11 de marzo de 2026"
