"""The whole class's answers and figures as a zip of CSV tables with a README.csv: from the class
page (the request, the Celery task that writes the zip into storage, the page that says it is being
prepared, then the download) and from ``manage.py export_class``; read back as a program would."""

import csv
import datetime
import io
import zipfile
import zoneinfo
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from classroom.models import DataAccess, ProgressReport, SessionPlace, SessionTable
from config.celery import app as celery_app
from games.models import Attempt
from tests.classroom.roster_helpers import give_homework, join_session
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
User = get_user_model()
MADRID = zoneinfo.ZoneInfo("Europe/Madrid")
# 23:30 UTC on a winter Monday is 00:30 on Tuesday in Madrid: the school's day, not the server's.
LATE = datetime.datetime(2026, 11, 2, 23, 30, tzinfo=datetime.UTC)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def eager_celery():
    # The services pass sets REDIS_URL, which sends tasks to the broker; here they run in-process.
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


@pytest.fixture
def classroom():
    teacher = make_teacher(email="rivera@example.org", name="Ms Rivera")
    teacher.time_zone = "Europe/Madrid"
    teacher.save()
    classroom = make_class(teacher, name="Class 6B")
    ana = make_student(classroom, name="Ana")
    ben = make_student(classroom, name="=Ben")  # a name a spreadsheet would run
    make_attempts(
        ana,
        [
            (3, "+", 4, 7, 1500, LATE),
            (3, "+", 4, 8, 2500, LATE),
            (6, "x", 7, 42, 4000, LATE + datetime.timedelta(days=3)),
            (9, "-", 4, 5, 900),
        ],
    )
    lesson = make_attempts(ben, [(2, "x", 5, 10, 1200), (12, "-", 5, 7, 5200)], game="sum")
    SessionPlace.objects.create(
        table=SessionTable.objects.create(
            session=join_session(classroom, ben).session, number=1, match=lesson
        ),
        seat=0,
        student=ben,
    )
    give_homework(classroom, ana)
    return classroom


def read_zip(content: bytes) -> dict[str, list[dict]]:
    archive = zipfile.ZipFile(io.BytesIO(content))
    assert archive.testzip() is None
    tables = {}
    for name in archive.namelist():
        text = archive.read(name).decode("utf-8-sig")
        reader = csv.reader(io.StringIO(text))
        header = next(reader)
        tables[name] = [header, *reader]
    return tables


def check_against_readme(tables) -> dict[str, list[dict]]:
    """Every file README.csv names is there with exactly its columns, in its order, and every
    cell is of its column's type; nothing is in the zip that README.csv does not name."""
    readme = [
        dict(zip(tables["README.csv"][0], row, strict=True)) for row in tables["README.csv"][1:]
    ]
    assert tables["README.csv"][0] == ["file", "column", "type", "description"]
    described = {row["file"] for row in readme}
    assert described == set(tables), "README.csv names every file of the zip, and only those"
    rows_by_file = {}
    for name in described:
        columns = [(r["column"], r["type"]) for r in readme if r["file"] == name and r["column"]]
        assert all(r["description"] for r in readme if r["file"] == name)
        header, *rows = tables[name]
        assert header == [column for column, _type in columns], name
        for row in rows:
            assert len(row) == len(header), (name, row)
            for (column, kind), value in zip(columns, row, strict=True):
                assert_typed(kind, value, f"{name}:{column}")
        rows_by_file[name] = [dict(zip(header, row, strict=True)) for row in rows]
    return rows_by_file


def assert_typed(kind: str, value: str, where: str) -> None:
    if value == "":
        return  # no value
    if kind == "integer":
        int(value)
    elif kind == "decimal":
        number = float(value)
        assert "fraction" not in where or 0 <= number <= 1, where
        assert "%" not in value and "," not in value, where
    elif kind == "boolean":
        assert value in ("true", "false"), (where, value)
    elif kind == "datetime":
        parsed = datetime.datetime.fromisoformat(value)
        assert parsed.tzinfo is not None, (where, value)
    elif kind == "date":
        assert len(value) == 10, (where, value)
        datetime.date.fromisoformat(value)
    else:
        assert kind == "text", (where, kind)


def check_the_class(rows, classroom):
    students = {row["name"]: row for row in rows["students.csv"]}
    assert set(students) == {"Ana", "'=Ben"}  # guarded against formulas, as every CSV is
    for enrollment in classroom.enrollments.all():
        child = enrollment.student
        answers = Attempt.objects.filter(user=child).count()
        mine = [row for row in rows["answers.csv"] if row["student_id"] == str(child.pk)]
        assert len(mine) == answers > 0
        [row] = [row for row in rows["students.csv"] if row["student_id"] == str(child.pk)]
        assert int(row["answers"]) == answers
        right = Attempt.objects.filter(user=child, correct=True).count()
        assert int(row["right_answers"]) == right
        assert float(row["accuracy_fraction"]) == pytest.approx(right / answers, abs=1e-4)
        skills = [r for r in rows["skills.csv"] if r["student_id"] == str(child.pk)]
        assert sum(int(r["answers"]) for r in skills) == answers

    ana = students["Ana"]["student_id"]
    late = [r for r in rows["answers.csv"] if r["student_id"] == ana][:2]
    # The school's zone with its offset, and the school's day.
    assert [r["answered_at"] for r in late] == ["2026-11-03T00:30:00+01:00"] * 2
    assert [r["school_day"] for r in late] == ["2026-11-03"] * 2
    assert [(r["operand_1"], r["operator"], r["operand_2"], r["answer"]) for r in late] == [
        ("3", "+", "4", "7"),
        ("3", "+", "4", "8"),
    ]
    assert [(r["correct"], r["fluent"], r["slip"]) for r in late] == [
        ("true", "true", ""),
        ("false", "false", "off_by_one"),
    ]
    [add] = [
        r for r in rows["skills.csv"] if r["student_id"] == ana and r["skill"] == "add.within10"
    ]
    assert (add["answers"], add["right_answers"], add["accuracy_fraction"]) == ("2", "1", "0.5")
    facts = {
        (r["operation"], r["first"], r["second"]): r
        for r in rows["facts.csv"]
        if r["student_id"] == ana
    }
    assert facts["add", "3", "4"]["latest_answers"] == "2"
    assert facts["add", "3", "4"]["last_seen"] == "2026-11-03"
    assert facts["mul", "6", "7"]["level"] == "practising"

    ben = students["'=Ben"]["student_id"]
    [seated] = rows["sessions.csv"]
    assert (seated["student_id"], seated["answers"], seated["right_answers"]) == (ben, "2", "2")
    assert {r["where"] for r in rows["answers.csv"] if r["student_id"] == ben} == {"lesson"}
    # The class's homework is set for both: Ana started her one game, Ben has not.
    homework = {r["student_id"]: r for r in rows["homework.csv"]}
    assert set(homework) == {ana, ben}
    assert (homework[ana]["items"], homework[ana]["finished"]) == ("1", "false")
    items = {r["student_id"]: r["state"] for r in rows["homework_items.csv"]}
    assert items == {ana: "started", ben: "not_started"}


def ask_for_the_export(client, classroom, capture, **headers):
    """The class page's button, as the teacher clicks it: the request, then the Celery task that
    builds the zip (run eagerly here once the request's transaction commits)."""
    with capture(execute=True):
        response = client.post(
            reverse("classroom:roster_class_tables", args=[classroom.pk]), **headers
        )
    return response


def download_the_export(client, report, **headers):
    page = client.get(reverse("classroom:progress_report", args=[report.pk]), **headers)
    url = reverse("classroom:progress_report_download", args=[report.pk, "zip"])
    assert url in page.content.decode()
    response = client.get(url)
    assert response.status_code == 200
    return url, response


def test_the_class_page_prepares_every_childs_answers_and_figures_then_offers_the_zip(
    client, classroom, django_capture_on_commit_callbacks
):
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:roster_class", args=[classroom.pk])).content.decode()
    assert reverse("classroom:roster_class_tables", args=[classroom.pk]) in page
    assert 'method="post"' in page

    response = ask_for_the_export(client, classroom, django_capture_on_commit_callbacks)

    report = ProgressReport.objects.get()
    assert response["Location"] == reverse("classroom:progress_report", args=[report.pk])
    assert (report.kind, report.requested_by, report.status) == (
        ProgressReport.Kind.CLASS_TABLES,
        classroom.teacher,
        ProgressReport.Status.DONE,  # embedded: Celery ran it eagerly
    )
    assert report.zip_file.name.endswith(".zip") and not report.csv_file and not report.pdf_file
    assert (report.period_start, report.period_end) == (
        datetime.date(2026, 11, 3),  # the class's first answer, at the school
        timezone.localdate(timezone=MADRID),
    )
    assert not DataAccess.objects.exists()  # nothing has left the site yet
    url, download = download_the_export(client, report)
    assert download["Content-Type"] == "application/zip"
    assert download["Cache-Control"] == "no-store"
    assert 'attachment; filename="class-6b-' in download["Content-Disposition"]
    rows = check_against_readme(read_zip(b"".join(download.streaming_content)))
    assert {
        "README.csv",
        "students.csv",
        "answers.csv",
        "games.csv",
        "skills.csv",
        "weeks.csv",
        "facts.csv",
        "homework.csv",
        "homework_items.csv",
        "sessions.csv",
    } == set(rows)
    check_the_class(rows, classroom)
    [access] = DataAccess.objects.all()
    assert (access.kind, access.viewer, access.student, access.page) == (
        "class_tables",
        classroom.teacher,
        None,
        url,
    )
    assert access.viewer_name == "Ms Rivera <rivera@example.org>"
    # The reports' list names it for what it is.
    listed = client.get(reverse("classroom:progress_reports")).content.decode()
    assert "answers and figures" in listed and url in listed


def test_while_the_zip_is_being_prepared_the_page_says_so_and_updates_itself(client, classroom):
    """The request only queues the work (a class's 200,000 answers took some 40 s to write):
    the page says the export is being prepared and polls until the download link is there."""
    client.force_login(classroom.teacher)
    response = client.post(reverse("classroom:roster_class_tables", args=[classroom.pk]))
    report = ProgressReport.objects.get()
    assert report.status == ProgressReport.Status.QUEUED and not report.zip_file
    page = client.get(response["Location"]).content.decode()
    assert "being prepared" in page
    assert "js/progress/report-status.js" in page and 'role="status"' in page
    download = reverse("classroom:progress_report_download", args=[report.pk, "zip"])
    assert download not in page
    assert client.get(download).status_code == 404
    status = reverse("classroom:progress_report_status", args=[report.pk])
    assert client.get(status).json()["pending"] is True
    spanish = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Se está preparando la exportación; esta página se actualiza sola." in spanish
    # A report's files are not this export's, nor the other way round.
    for kind in ("csv", "pdf"):
        assert (
            client.get(
                reverse("classroom:progress_report_download", args=[report.pk, kind])
            ).status_code
            == 404
        )


def test_the_readme_speaks_the_teachers_language_and_the_columns_stay_english(
    client, classroom, django_capture_on_commit_callbacks
):
    client.force_login(classroom.teacher)
    capture = django_capture_on_commit_callbacks
    ask_for_the_export(client, classroom, capture)
    ask_for_the_export(client, classroom, capture, HTTP_ACCEPT_LANGUAGE="es")
    english, spanish = ProgressReport.objects.order_by("pk")
    assert (english.language, spanish.language) == ("en", "es")
    english = read_zip(b"".join(download_the_export(client, english)[1].streaming_content))
    spanish = read_zip(b"".join(download_the_export(client, spanish)[1].streaming_content))
    assert {n: t[0] for n, t in spanish.items()} == {n: t[0] for n, t in english.items()}
    check_against_readme(spanish)
    describe = {(r[0], r[1]): r[3] for r in spanish["README.csv"][1:]}
    assert describe["answers.csv", "correct"] == "true si la respuesta era correcta."


def test_asking_again_prepares_it_again_with_the_answers_since(
    client, classroom, django_capture_on_commit_callbacks
):
    client.force_login(classroom.teacher)
    ask_for_the_export(client, classroom, django_capture_on_commit_callbacks)
    ana = classroom.enrollments.get(student__display_name="Ana").student
    make_attempts(ana, [(5, "+", 5, 10, 1000)])
    ask_for_the_export(client, classroom, django_capture_on_commit_callbacks)
    [report] = ProgressReport.objects.all()  # the same export, written again in place
    rows = read_zip(b"".join(download_the_export(client, report)[1].streaming_content))
    assert (
        len(rows["answers.csv"]) - 1
        == Attempt.objects.filter(user__enrollments__classroom=classroom).count()
    )


def test_another_teacher_gets_nothing_and_nothing_is_recorded(client, classroom):
    client.force_login(make_teacher(email="other@example.org"))
    response = client.post(reverse("classroom:roster_class_tables", args=[classroom.pk]))
    assert response.status_code == 404
    assert not ProgressReport.objects.exists()
    assert not DataAccess.objects.exists()


def test_an_empty_class_exports_every_table_with_its_header(
    client, django_capture_on_commit_callbacks
):
    classroom = make_class(make_teacher(), name="New class")
    client.force_login(classroom.teacher)
    ask_for_the_export(client, classroom, django_capture_on_commit_callbacks)
    response = download_the_export(client, ProgressReport.objects.get())[1]
    rows = check_against_readme(read_zip(b"".join(response.streaming_content)))
    assert all(not rows[name] for name in rows if name != "README.csv")


def test_a_deleted_childs_export_is_deleted_and_prepared_again_without_them(
    client, classroom, django_capture_on_commit_callbacks
):
    client.force_login(classroom.teacher)
    ask_for_the_export(client, classroom, django_capture_on_commit_callbacks)
    old = ProgressReport.objects.get()
    old_file = Path(old.zip_file.path)
    ben = classroom.enrollments.get(student__display_name="=Ben").student
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("classroom:roster_student_delete", args=[classroom.pk, ben.pk]),
            {"confirm": ben.display_name},
        )
    assert not User.objects.filter(pk=ben.pk).exists()
    assert not old_file.exists()
    [again] = ProgressReport.objects.filter(kind=ProgressReport.Kind.CLASS_TABLES)
    assert again.status == ProgressReport.Status.DONE
    rows = read_zip(b"".join(download_the_export(client, again)[1].streaming_content))
    assert [row[1] for row in rows["students.csv"][1:]] == ["Ana"]


def test_the_command_writes_the_same_export_and_is_recorded(classroom, tmp_path):
    output = tmp_path / "class.zip"
    out = io.StringIO()

    call_command("export_class", classroom.code.lower(), "--output", str(output), stdout=out)

    assert str(output) in out.getvalue()
    assert not (tmp_path / "class.zip.part").exists()
    rows = check_against_readme(read_zip(output.read_bytes()))
    check_the_class(rows, classroom)
    [access] = DataAccess.objects.all()
    assert (access.kind, access.viewer, access.student) == ("class_tables", None, None)
    assert access.viewer_name.startswith("manage.py export_class (operator ")
    assert access.page == f"manage.py export_class {classroom.code} --output class.zip"

    call_command(
        "export_class", classroom.code, "--output", str(output), "--language", "es", stdout=out
    )
    spanish = read_zip(output.read_bytes())
    assert ["answers.csv", "correct", "boolean", "true si la respuesta era correcta."] in spanish[
        "README.csv"
    ]


def test_the_command_refuses_an_unknown_class(tmp_path):
    with pytest.raises(CommandError, match="no class has the code"):
        call_command("export_class", "NOPE", "--output", str(tmp_path / "x.zip"))
    assert not (tmp_path / "x.zip").exists()
    assert not DataAccess.objects.exists()


def test_an_export_past_the_reports_retention_goes_with_its_zip(
    client, classroom, django_capture_on_commit_callbacks
):
    from classroom.tasks import apply_retention

    client.force_login(classroom.teacher)
    ask_for_the_export(client, classroom, django_capture_on_commit_callbacks)
    report = ProgressReport.objects.get()
    stored = Path(report.zip_file.path)
    assert stored.exists()
    ProgressReport.objects.filter(pk=report.pk).update(
        created_at=timezone.now() - datetime.timedelta(days=366)
    )

    apply_retention.delay()

    assert not ProgressReport.objects.exists()
    assert not stored.exists()


def test_an_export_still_being_written_is_not_taken_for_a_dead_worker(
    client, classroom, django_capture_on_commit_callbacks
):
    """A class's whole history takes longer to write than a report (some 40 s for 200,000
    answers on a busy machine, more for a bigger class): the beat's sweep of stuck reports sends
    it again only once it has run for ``EXPORT_STUCK_AFTER_SECONDS``, not after a report's
    two minutes (each resend would take the run over, and the export would never finish)."""
    from classroom.progress import services
    from classroom.progress.tasks import sweep_stuck_reports

    client.force_login(classroom.teacher)
    client.post(reverse("classroom:roster_class_tables", args=[classroom.pk]))
    export = ProgressReport.objects.get()
    started = timezone.now() - datetime.timedelta(minutes=5)
    ProgressReport.objects.filter(pk=export.pk).update(
        status=ProgressReport.Status.RUNNING, tries=1, started_at=started, queued_at=started
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_stuck_reports.delay().get() == 0
    assert ProgressReport.objects.get(pk=export.pk).status == ProgressReport.Status.RUNNING

    started = timezone.now() - datetime.timedelta(seconds=services.EXPORT_STUCK_AFTER_SECONDS + 1)
    ProgressReport.objects.filter(pk=export.pk).update(started_at=started)
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_stuck_reports.delay().get() == 1
    export.refresh_from_db()
    assert export.status == ProgressReport.Status.DONE and export.tries == 2  # written, at last
