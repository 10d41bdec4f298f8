"""A report asked for again is the one compiled before only while everything its figures rest on
is unchanged: the school's time zone, the report's language, the rules the figures are made by
and the class as the report names it (docs/progress.md, "Downloads"). Through the request page,
with Celery run in-process."""

import csv
import datetime
import io

import pytest
from django.urls import reverse

from classroom.models import ProgressReport
from classroom.progress import mastery, report_files, services
from classroom.roster.services import student_rename
from config.celery import app as celery_app
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
# 23:30 UTC on Sunday 1 March 2026 is 00:30 on Monday 2 March in Madrid (UTC+1 in winter).
SUNDAY_NIGHT_UTC = datetime.datetime(2026, 3, 1, 23, 30, tzinfo=UTC)
WEDNESDAY = datetime.datetime(2026, 3, 4, 10, tzinfo=UTC)
WEEK = ("2026-03-02", "2026-03-08")  # Monday to Sunday, long over


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture(autouse=True)
def eager_celery():
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def madrid(settings, client, django_capture_on_commit_callbacks):
    settings.TIME_ZONE = "UTC"  # the site's zone is not the school's
    teacher = make_teacher()
    classroom = make_class(teacher, name="Class 4A")
    ana = make_student(classroom, "Ana")
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("classroom:teacher_settings"), {"time_zone": "Europe/Madrid"})
    make_attempts(ana, [(3, "+", 4, 7, 2500, SUNDAY_NIGHT_UTC), (5, "+", 4, 9, 2500, WEDNESDAY)])
    return teacher, classroom, ana


def ask(client, classroom, capture, period=WEEK):
    with capture(execute=True):
        response = client.post(
            reverse("classroom:progress_reports"),
            {"classroom": classroom.pk, "period": "dates", "start": period[0], "end": period[1]},
        )
    return ProgressReport.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def totals(report):
    """Each student's row of all skills in the report's CSV, by name."""
    assert report.status == ProgressReport.Status.DONE, report.error
    with report.csv_file.open("rb") as handle:
        rows = csv.DictReader(io.StringIO(handle.read().decode("utf-8-sig")))
        return {row["Student"]: row for row in rows if row["skill_code"] == "all"}


def test_a_report_asked_after_the_school_changed_zone_counts_the_new_zones_days(
    client, madrid, django_capture_on_commit_callbacks
):
    _teacher, classroom, _ana = madrid
    first = ask(client, classroom, django_capture_on_commit_callbacks)
    # In Madrid the answer of Sunday night at 23:30 UTC is Monday's: in the week.
    assert totals(first)["Ana"]["Answers"] == "2"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("classroom:teacher_settings"), {"time_zone": "UTC"})
    again = ask(client, classroom, django_capture_on_commit_callbacks)
    # In UTC it is Sunday's, the week before.
    assert totals(again)["Ana"]["Answers"] == "1"
    # Asked once more in the same zone, it is the same report, not compiled again.
    finished = ProgressReport.objects.get(pk=again.pk).finished_at
    once_more = ask(client, classroom, django_capture_on_commit_callbacks)
    assert once_more.pk == again.pk and once_more.finished_at == finished
    assert ProgressReport.objects.filter(classroom=classroom).count() == 1


def test_a_report_follows_the_rules_its_figures_are_made_by(
    client, madrid, monkeypatch, django_capture_on_commit_callbacks
):
    _teacher, classroom, _ana = madrid
    first = ask(client, classroom, django_capture_on_commit_callbacks)
    assert totals(first)["Ana"]["Answers"] == "2"
    skill = "Fluent of the latest"
    with first.csv_file.open("rb") as handle:
        rows = list(csv.DictReader(io.StringIO(handle.read().decode("utf-8-sig"))))
    assert [row[skill] for row in rows if row["skill_code"] == "add.within10"] == ["2"]
    # A new release answers "fluent" within 2 s: the report compiled before is not the same.
    monkeypatch.setattr(mastery, "FLUENT_MS", 2000)
    again = ask(client, classroom, django_capture_on_commit_callbacks)
    with again.csv_file.open("rb") as handle:
        rows = list(csv.DictReader(io.StringIO(handle.read().decode("utf-8-sig"))))
    assert [row[skill] for row in rows if row["skill_code"] == "add.within10"] == ["0"]


def test_a_report_names_the_class_as_it_is_when_asked_again(
    client, madrid, django_capture_on_commit_callbacks
):
    _teacher, classroom, ana = madrid
    first = ask(client, classroom, django_capture_on_commit_callbacks)
    assert set(totals(first)) == {"Ana"}
    student_rename(student=ana, display_name="Ana María")
    ben = make_student(classroom, "Ben", secret="1111")  # joins; he answered that week elsewhere
    make_attempts(ben, [(6, "+", 2, 8, 1500, WEDNESDAY)])
    again = ask(client, classroom, django_capture_on_commit_callbacks)
    assert set(totals(again)) == {"Ana María", "Ben"}


def test_a_report_being_compiled_when_the_zone_changes_is_compiled_again_in_the_new_one(
    client, madrid, monkeypatch, django_capture_on_commit_callbacks
):
    """The run under way when the teacher changes zone and asks again does not finish the
    report: the run that the new request sends does, in the new zone."""
    _teacher, classroom, _ana = madrid
    real_csv = report_files.report_csv
    asked_meanwhile, runs, csv_runs = [], [], []

    def meanwhile(reports):
        csv_runs.append(1)
        if len(csv_runs) == 1:
            with django_capture_on_commit_callbacks(execute=True):
                client.post(reverse("classroom:teacher_settings"), {"time_zone": "UTC"})
            asked_meanwhile.append(ask(client, classroom, django_capture_on_commit_callbacks))
        return real_csv(reports)

    monkeypatch.setattr(report_files, "report_csv", meanwhile)
    monkeypatch.setattr(services, "report_compile", spy(services.report_compile, runs))
    report = ask(client, classroom, django_capture_on_commit_callbacks)
    assert [r.pk for r in asked_meanwhile] == [report.pk]  # the same report, compiled again
    # The later run finished the report; the first found itself superseded.
    assert runs[:2] == ["done", "superseded"]
    assert totals(ProgressReport.objects.get(pk=report.pk))["Ana"]["Answers"] == "1"


def spy(function, results):
    def spied(**kwargs):
        outcome = function(**kwargs)
        results.append(outcome)
        return outcome

    return spied
