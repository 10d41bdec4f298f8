"""The progress pages: who may open them, what they show, and how many queries they cost."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import ProgressReport
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db


def class_of(size, teacher=None):
    """A class of ``size`` students who each answered a few facts yesterday and today."""
    classroom = make_class(teacher or make_teacher())
    now = timezone.now()
    for n in range(size):
        student = make_student(classroom, f"Student {n:02d}", kind="", secret=None)
        make_attempts(
            student,
            [
                (3, "+", 4, 7, 1500 + n, now - datetime.timedelta(days=1)),
                (9, "-", 4, 4, 3000, now),
                (6, "x", 7, 42, 6000, now),
                (12, "+", 9, 21, 4000, now - datetime.timedelta(days=8)),
            ],
        )
    return classroom


def test_the_class_page_shows_charts_tables_and_students(client):
    classroom = class_of(3)
    client.force_login(classroom.teacher)
    response = client.get(reverse("classroom:progress_class", args=[classroom.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    svgs = re.findall(r"<svg[^>]*>", html)
    assert len(svgs) == 4
    for svg in svgs:
        assert 'role="img"' in svg
        chart_id = re.search(r'id="([^"]+)"', svg).group(1)
        assert f'aria-labelledby="{chart_id}-title {chart_id}-desc"' in svg
        assert f'<title id="{chart_id}-title">' in html and f'<desc id="{chart_id}-desc">' in html
    assert "Accuracy by skill" in html and "Accuracy week by week" in html
    # Every chart has its figures in a table too.
    assert html.count('<table class="data-table">') >= 5
    assert "Subtraction within 10" in html and "Division" not in html
    for n in range(3):
        assert f"Student {n:02d}" in html
    student = classroom.enrollments.order_by("student__display_name").first().student
    assert reverse("classroom:progress_student", args=[classroom.pk, student.pk]) in html
    # 12 answers in the last 30 days, one in four wrong (9 - 4 = 4 is off by one).
    assert re.search(r"<dt>Answers</dt><dd>12</dd>", html)
    assert re.search(r"<dt>Accuracy</dt><dd>75%</dd>", html)
    assert "9 − 4" in html
    # The page states how exact its medians are.
    assert (
        "Median times are within 0.2 s of the exact value (within 5% for times over 4 s)." in html
    )
    home = client.get(reverse("classroom:teacher_home")).content.decode()
    assert reverse("classroom:progress_class", args=[classroom.pk]) in home
    assert reverse("classroom:progress_reports") in home


def test_the_period_picker(client):
    classroom = class_of(1)
    client.force_login(classroom.teacher)
    url = reverse("classroom:progress_class", args=[classroom.pk])

    def answers(query):
        html = client.get(url, query).content.decode()
        return int(re.search(r"<dt>Answers</dt><dd>(\d+)</dd>", html).group(1)), html

    assert answers({})[0] == 4  # the last 30 days by default
    assert answers({"period": "7"})[0] == 3
    assert answers({"period": "90"})[0] == 4
    today = timezone.localdate()
    week_ago = today - datetime.timedelta(days=8)
    assert answers({"period": "dates", "start": week_ago, "end": week_ago})[0] == 1
    count, html = answers({"period": "dates", "start": today, "end": week_ago})
    assert "The first date must come before the second." in html
    assert count == 4  # an invalid choice shows the default period
    count, html = answers({"period": "dates", "start": today})
    assert "Give both dates" in html


def test_the_student_page(client):
    classroom = class_of(2)
    student = classroom.enrollments.order_by("student__display_name").first().student
    client.force_login(classroom.teacher)
    html = client.get(
        reverse("classroom:progress_student", args=[classroom.pk, student.pk]), {"period": "7"}
    ).content.decode()
    assert "Progress of Student 00" in html
    assert len(re.findall(r'<svg[^>]*role="img"', html)) == 4
    assert "Latest wrong answers" in html and "Claimed 9 − 4 for the 4" in html
    assert re.search(r"<dt>Answers</dt><dd>3</dd>", html)
    # The breadcrumb keeps the period.
    assert reverse("classroom:progress_class", args=[classroom.pk]) + "?period=7" in html


def test_spanish_pages(client):
    classroom = class_of(1)
    client.force_login(classroom.teacher)
    client.post(reverse("set_language"), {"language": "es"})
    html = client.get(reverse("classroom:progress_class", args=[classroom.pk])).content.decode()
    assert "Precisión por destreza" in html
    assert "Suma hasta 10" in html
    assert "Las medianas de tiempo se desvían como mucho 0,2 s del valor exacto" in html


# --- who may open what ---------------------------------------------------------------------------


@pytest.fixture
def two_teachers():
    mine = class_of(1)
    theirs = class_of(1, teacher=make_teacher(email="other@example.org"))
    report = ProgressReport.objects.create(
        classroom=theirs,
        period_start=datetime.date(2026, 1, 1),
        period_end=datetime.date(2026, 1, 7),
        status=ProgressReport.Status.DONE,
        csv_file="reports/theirs.csv",
        pdf_file="reports/theirs.pdf",
    )
    return mine, theirs, report


def their_urls(theirs, report):
    their_student = theirs.enrollments.get().student
    return [
        ("get", reverse("classroom:progress_class", args=[theirs.pk])),
        ("get", reverse("classroom:progress_student", args=[theirs.pk, their_student.pk])),
        ("get", reverse("classroom:progress_class_facts", args=[theirs.pk])),
        ("get", reverse("classroom:progress_class_activity", args=[theirs.pk])),
        (
            "get",
            reverse("classroom:progress_student_attempts", args=[theirs.pk, their_student.pk]),
        ),
        ("get", reverse("classroom:progress_report", args=[report.pk])),
        ("get", reverse("classroom:progress_report_status", args=[report.pk])),
        ("get", reverse("classroom:progress_report_download", args=[report.pk, "pdf"])),
        ("get", reverse("classroom:progress_report_download", args=[report.pk, "csv"])),
        ("post", reverse("classroom:progress_report_retry", args=[report.pk])),
    ]


def test_a_teacher_never_reaches_another_teachers_class_or_reports(client, two_teachers):
    mine, theirs, report = two_teachers
    client.force_login(mine.teacher)
    for method, url in their_urls(theirs, report):
        assert getattr(client, method)(url).status_code == 404, url
    # Nor their students through the teacher's own class.
    their_student = theirs.enrollments.get().student
    url = reverse("classroom:progress_student", args=[mine.pk, their_student.pk])
    assert client.get(url).status_code == 404
    # Nor can a report be requested for their class.
    response = client.post(
        reverse("classroom:progress_reports"), {"classroom": theirs.pk, "period": "7"}
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not ProgressReport.objects.filter(classroom=theirs, requested_by=mine.teacher).exists()
    listing = client.get(reverse("classroom:progress_reports")).content.decode()
    assert reverse("classroom:progress_report", args=[report.pk]) not in listing
    assert f'value="{theirs.pk}"' not in listing and f'value="{mine.pk}"' in listing


def test_students_are_refused_and_visitors_sent_to_sign_in(client, two_teachers):
    _, theirs, report = two_teachers
    urls = [*their_urls(theirs, report), ("get", reverse("classroom:progress_reports"))]
    for method, url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("accounts:login"))
    client.force_login(theirs.enrollments.get().student)
    for method, url in urls:
        assert getattr(client, method)(url).status_code == 403, url


# --- queries: the same for 3 and for 30 students -------------------------------------------------

# Session and user, the class, its roster; then per student and skill and per week, the counts
# with their answer times in one statement each; the missed facts from the whole weeks' rollup
# and from the days around them (90 or 30 days always have both); the latest reports; who is
# stuck: the students' skills with three wrong answers, then (when there are any) their latest
# answers; the skills' counts over the period before (growth); the access record.
CLASS_PAGE_QUERIES = 3 + 1 + 2 + 2 + 1 + 2 + 2 + 1
# Session and user, the class, the student; the same figures for one student; latest mistakes;
# the latest answers per skill, then each skill's fluent days and last answer (levels); the table
# facts' latest answers (fact grids); the skills' counts over the period before (growth: 30 days
# touch whole weeks and days around them); answers per game, the games' names and places (games
# and time: a game played is one answered in); the access record; the table facts' answers of the
# last months (the working set: what the child practises next).
STUDENT_PAGE_QUERIES = 3 + 1 + 2 + 2 + 1 + 2 + 1 + 2 + 2 + 1 + 1
# Session and user, the class, its roster, answers per game, the games; the access record.
ACTIVITY_PAGE_QUERIES = 3 + 1 + 2 + 1
# Session and user, the class, its roster's ids, one grouped query per table.
FACTS_PAGE_QUERIES = 3 + 1 + 2
# session + user, the teacher's classes (the form), the reports
REPORTS_PAGE_QUERIES = 4


@pytest.mark.parametrize("size", [3, 30])
def test_page_queries_do_not_grow_with_the_class(
    client, django_assert_num_queries, django_assert_max_num_queries, size
):
    classroom = class_of(size)
    for _ in range(3):
        ProgressReport.objects.create(
            classroom=classroom,
            period_start=datetime.date(2026, 1, 1),
            period_end=datetime.date(2026, 1, 7),
        )
    student = classroom.enrollments.first().student
    client.force_login(classroom.teacher)
    with django_assert_max_num_queries(CLASS_PAGE_QUERIES):
        response = client.get(
            reverse("classroom:progress_class", args=[classroom.pk]), {"period": "90"}
        )
    assert response.status_code == 200
    assert response.content.decode().count("progress/") >= size
    with django_assert_num_queries(STUDENT_PAGE_QUERIES):
        response = client.get(
            reverse("classroom:progress_student", args=[classroom.pk, student.pk])
        )
    assert response.status_code == 200
    with django_assert_num_queries(FACTS_PAGE_QUERIES):
        response = client.get(
            reverse("classroom:progress_class_facts", args=[classroom.pk]), {"period": "90"}
        )
    assert response.status_code == 200
    with django_assert_num_queries(ACTIVITY_PAGE_QUERIES):
        response = client.get(
            reverse("classroom:progress_class_activity", args=[classroom.pk]), {"period": "90"}
        )
    assert response.status_code == 200
    assert response.content.decode().count("progress/") >= size
    with django_assert_num_queries(REPORTS_PAGE_QUERIES):
        response = client.get(reverse("classroom:progress_reports"))
    assert response.content.decode().count("Class 4A") >= 3
