"""The record of who looked at children's data (docs/privacy.md, "Who looked"): every look at a
child's progress page and every download of a child's or the class's data, through the pages;
the class's record as a page and a CSV; gone with the child, exported with them, and kept only
RETAIN_ACCESS_LOG_DAYS."""

import csv
import datetime
import io

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from classroom.models import DataAccess, ProgressReport
from classroom.progress.selectors import Period
from classroom.progress.services import report_request
from classroom.roster import services
from classroom.roster.student_secrets import Secret
from classroom.tasks import apply_retention
from config.celery import app as celery_app
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager_celery(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def classroom():
    return make_class(make_teacher(name="Ms Rivera", email="rivera@example.org"), name="Class 6B")


@pytest.fixture
def ana(classroom):
    ana, _ = services.student_add(
        classroom=classroom, display_name="Ana", secret=Secret("pin", "8642")
    )
    make_attempts(ana, [(3, "+", 4, 7, 1500)])
    return ana


@pytest.fixture
def teacher(client, classroom):
    client.force_login(classroom.teacher)
    return client


@pytest.fixture
def report(classroom, ana, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        report_request(classroom=classroom, period=Period.last_days(30))
    report = ProgressReport.objects.get()
    assert report.status == ProgressReport.Status.DONE
    return report


def looks(classroom, ana, report):
    c, s = {"classroom_id": classroom.pk}, {"classroom_id": classroom.pk, "student_id": ana.pk}
    p = {"classroom_id": classroom.pk, "student_id": ana.pk}
    r = report.pk
    return [
        (reverse("classroom:progress_student", kwargs=p), "progress_page", ana),
        (reverse("classroom:progress_student_attempts", kwargs=p), "answers_csv", ana),
        (reverse("classroom:progress_report_download", args=[r, "csv"]), "report_csv", None),
        (reverse("classroom:progress_report_download", args=[r, "pdf"]), "report_pdf", None),
        (reverse("classroom:roster_cards", kwargs=c) + f"?student={ana.pk}", "login_cards", ana),
        (reverse("classroom:roster_student_export", kwargs=s), "student_export", ana),
        (reverse("classroom:roster_class_export", kwargs=c), "class_export", None),
    ]  # fmt: skip


def test_every_look_and_download_is_recorded_with_who_when_and_what(
    teacher, classroom, ana, report
):
    for page, kind, student in looks(classroom, ana, report):
        before = timezone.now()
        response = teacher.get(page)
        assert response.status_code == 200, page
        if response.streaming:
            b"".join(response.streaming_content)
        row = DataAccess.objects.order_by("-id").first()
        assert (row.kind, row.student, row.classroom, row.page) == (kind, student, classroom, page)
        assert row.viewer == classroom.teacher
        assert row.viewer_name == "Ms Rivera <rivera@example.org>"
        assert before <= row.at <= timezone.now()
    assert DataAccess.objects.count() == len(looks(classroom, ana, report))


def test_a_refused_look_records_nothing(client, classroom, ana):
    client.force_login(make_teacher())  # not Ana's teacher
    page = reverse(
        "classroom:progress_student", kwargs={"classroom_id": classroom.pk, "student_id": ana.pk}
    )
    assert client.get(page).status_code == 404
    assert not DataAccess.objects.exists()


def test_the_class_record_is_a_page_and_a_csv_for_its_teacher_only(
    teacher, client, classroom, ana, report
):
    for page, _kind, _student in looks(classroom, ana, report)[:2]:
        teacher.get(page)
    log_page = reverse("classroom:access_class_log", kwargs={"classroom_id": classroom.pk})
    body = teacher.get(log_page).content.decode()
    assert "Ms Rivera &lt;rivera@example.org&gt;" in body
    assert "Progress page" in body and "Answers (CSV)" in body and "Ana" in body

    download = teacher.get(
        reverse("classroom:access_class_log_csv", kwargs={"classroom_id": classroom.pk})
    )
    assert download["Content-Disposition"].startswith('attachment; filename="access-class-6b-')
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert rows[0] == ["When (UTC)", "Who", "What", "Student", "Page"]
    assert [(r[1], r[2], r[3]) for r in rows[1:]] == [
        ("Ms Rivera <rivera@example.org>", "Answers (CSV)", "Ana"),
        ("Ms Rivera <rivera@example.org>", "Progress page", "Ana"),
    ]

    client.force_login(make_teacher())
    assert client.get(log_page).status_code == 404
    client.force_login(make_student(classroom, "Ben", secret="1111"))
    assert client.get(log_page).status_code == 403


def test_the_record_about_a_child_is_exported_with_them_and_goes_with_them(
    teacher, classroom, ana, report, django_capture_on_commit_callbacks
):
    progress, *_ = looks(classroom, ana, report)
    teacher.get(progress[0])
    teacher.get(reverse("classroom:roster_class_export", kwargs={"classroom_id": classroom.pk}))
    export = teacher.get(
        reverse(
            "classroom:roster_student_export",
            kwargs={"classroom_id": classroom.pk, "student_id": ana.pk},
        )
    ).json()
    assert [(r["what"], r["by"]) for r in export["data_access"]] == [
        ("progress_page", "Ms Rivera <rivera@example.org>"),
        ("student_export", "Ms Rivera <rivera@example.org>"),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        teacher.post(
            reverse(
                "classroom:roster_student_delete",
                kwargs={"classroom_id": classroom.pk, "student_id": ana.pk},
            )
        )
    assert not DataAccess.objects.filter(student_id=ana.pk).exists()
    # What was about the whole class stays the school's.
    assert list(DataAccess.objects.values_list("kind", flat=True)) == ["class_export"]


def test_the_record_is_kept_for_its_period(teacher, classroom, ana):
    page = reverse(
        "classroom:progress_student", kwargs={"classroom_id": classroom.pk, "student_id": ana.pk}
    )
    teacher.get(page)
    teacher.get(page)
    old = DataAccess.objects.order_by("id").first()
    days = settings.RETENTION_DAYS["access_log"]
    DataAccess.objects.filter(pk=old.pk).update(at=timezone.now() - datetime.timedelta(days + 1))
    apply_retention.delay()
    assert DataAccess.objects.count() == 1 and not DataAccess.objects.filter(pk=old.pk).exists()


def test_an_operator_prints_a_classs_record_with_a_command(teacher, classroom, ana):
    from django.core.management import CommandError, call_command

    teacher.get(
        reverse(
            "classroom:progress_student",
            kwargs={"classroom_id": classroom.pk, "student_id": ana.pk},
        )
    )
    out = io.StringIO()
    call_command("access_log", classroom.code.lower(), stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == ["When (UTC)", "Who", "What", "Student", "Page"]
    assert [(r[1], r[2], r[3]) for r in rows[1:]] == [
        ("Ms Rivera <rivera@example.org>", "Progress page", "Ana")
    ]
    with pytest.raises(CommandError):
        call_command("access_log", "NOSUCH", stdout=io.StringIO())
