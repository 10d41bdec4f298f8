"""The record of who looked at children's data (docs/privacy.md, "Who looked"): every look at a
child's progress page, at a page with every child's figures (the class's progress, its games and
time, a homework's results, a session's live monitor) and every download of a child's or the
class's data, through the pages; the class's record as a page and a CSV; gone with the child,
exported with them, and kept only RETAIN_ACCESS_LOG_DAYS."""

import csv
import datetime
import io

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from classroom.access.services import LIVE_MONITOR_RECORDED_EVERY
from classroom.models import ClassSession, DataAccess, ProgressReport
from classroom.progress.selectors import Period
from classroom.progress.services import report_request
from classroom.roster import services
from classroom.roster.student_secrets import Secret
from classroom.sessions.services import session_join, session_start
from classroom.tasks import apply_retention
from config.celery import app as celery_app
from tests.classroom.sessions_helpers import record_attempts, seat_of
from tests.factories import (
    make_assignment,
    make_attempts,
    make_class,
    make_session,
    make_student,
    make_teacher,
)

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


# --- pages with every child's figures -------------------------------------------------------------


def class_pages(classroom):
    c = {"classroom_id": classroom.pk}
    assignment = make_assignment(classroom)
    return [
        (reverse("classroom:progress_class", kwargs=c), "class_progress"),
        (reverse("classroom:progress_class", kwargs=c) + "?period=7", "class_progress"),
        (reverse("classroom:progress_class_activity", kwargs=c), "class_activity"),
        (reverse("classroom:homework_detail", args=[assignment.pk]), "homework_results"),
    ]


def test_every_look_at_a_page_of_every_childs_figures_is_recorded_for_the_whole_class(
    teacher, classroom, ana
):
    pages = class_pages(classroom)
    for page, kind in pages:
        before = timezone.now()
        response = teacher.get(page)
        assert response.status_code == 200, page
        assert "Ana" in response.content.decode(), page
        row = DataAccess.objects.order_by("-id").first()
        assert (row.kind, row.student, row.classroom, row.page) == (kind, None, classroom, page)
        assert row.viewer == classroom.teacher
        assert row.viewer_name == "Ms Rivera <rivera@example.org>"
        assert before <= row.at <= timezone.now()
    assert DataAccess.objects.count() == len(pages)


def test_another_teachers_look_at_the_class_pages_is_refused_and_records_nothing(
    client, classroom, ana
):
    client.force_login(make_teacher())
    for page, _kind in class_pages(classroom):
        assert client.get(page).status_code == 404, page
    assert not DataAccess.objects.exists()


@pytest.fixture
def playing(classroom, ana):
    """A session of Ana's class at its tables, Ana with answers on the monitor."""
    ben = make_student(classroom, "Ben", secret="1111")
    session = make_session(classroom, table_size=2)
    for student in (ana, ben):
        session_join(session=session, student=student)
    session_start(session=session)
    match, seat = seat_of(session, ana)
    record_attempts(match, ana, seat, [("add.within10", True, 900)] * 3)
    session.refresh_from_db()
    return session


def monitor_rows():
    return list(DataAccess.objects.filter(kind="live_monitor").order_by("id"))


def test_the_live_monitor_is_recorded_once_per_hour_of_watching_not_at_every_update(
    teacher, classroom, playing
):
    page = reverse("classroom:sessions_detail", args=[playing.pk])
    live = reverse("classroom:sessions_live", args=[playing.pk])
    match, seat = seat_of(playing, playing.presences.first().student)
    opened = teacher.get(page)
    assert opened.status_code == 200 and "Ana" in opened.content.decode()
    [row] = monitor_rows()
    assert (row.student, row.classroom, row.page, row.viewer) == (
        None,
        classroom,
        page,
        classroom.teacher,
    )
    # The socket's news brings the page back for its live part, twice a second at most: each
    # fetch shows the figures the opening showed, and adds nothing to the record.
    for query in ("", f"?tables={match.pk}&answered={match.pk}:{seat}", "?tables=" + str(match.pk)):
        for _ in range(5):
            assert teacher.get(live + query).status_code == 200
    assert teacher.get(page).status_code == 200
    assert monitor_rows() == [row]

    # An hour later the teacher is still watching: one row more.
    DataAccess.objects.filter(pk=row.pk).update(
        at=row.at - LIVE_MONITOR_RECORDED_EVERY - datetime.timedelta(seconds=1)
    )
    assert teacher.get(live).status_code == 200
    assert teacher.get(live).status_code == 200
    rows = monitor_rows()
    assert len(rows) == 2 and rows[1].page == page and rows[1].at > rows[0].at


def test_each_session_has_its_own_monitor_row_and_the_lobby_none(teacher, classroom, ana, playing):
    lobby = make_session(classroom, table_size=2)
    session_join(session=lobby, student=ana)
    # The lobby shows who came, no figures: nothing to record until the game starts.
    assert teacher.get(reverse("classroom:sessions_detail", args=[lobby.pk])).status_code == 200
    assert teacher.get(reverse("classroom:sessions_live", args=[lobby.pk])).status_code == 200
    assert monitor_rows() == []
    teacher.get(reverse("classroom:sessions_detail", args=[playing.pk]))
    session_start(session=lobby)
    # The page opened in the lobby turns into the monitor by its live part.
    teacher.get(reverse("classroom:sessions_live", args=[lobby.pk]))
    assert [r.page for r in monitor_rows()] == [
        reverse("classroom:sessions_detail", args=[playing.pk]),
        reverse("classroom:sessions_detail", args=[lobby.pk]),
    ]


def test_an_ended_sessions_figures_are_recorded_and_another_teacher_records_nothing(
    client, teacher, classroom, playing
):
    playing.status = ClassSession.Status.ENDED
    playing.save(update_fields=["status"])
    client.force_login(make_teacher())
    assert client.get(reverse("classroom:sessions_detail", args=[playing.pk])).status_code == 404
    assert client.get(reverse("classroom:sessions_live", args=[playing.pk])).status_code == 404
    assert monitor_rows() == []
    client.force_login(classroom.teacher)
    assert client.get(reverse("classroom:sessions_detail", args=[playing.pk])).status_code == 200
    assert len(monitor_rows()) == 1


def test_the_class_pages_are_named_in_the_record_in_english_and_spanish(
    teacher, classroom, ana, playing
):
    for page, _kind in class_pages(classroom):
        teacher.get(page)
    teacher.get(reverse("classroom:sessions_detail", args=[playing.pk]))
    log_page = reverse("classroom:access_class_log", kwargs={"classroom_id": classroom.pk})
    english = teacher.get(log_page).content.decode()
    for label in ("Class progress page", "Class&#x27;s games and time", "Homework results"):
        assert label in english
    assert "Live monitor" in english and "The whole class" in english
    spanish = teacher.get(log_page, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    for label in (
        "Página de progreso de la clase",
        "Partidas y tiempo de la clase",
        "Resultados de los deberes",
        "Seguimiento en directo",
    ):
        assert label in spanish
    download = teacher.get(
        reverse("classroom:access_class_log_csv", kwargs={"classroom_id": classroom.pk})
    )
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert [(r[2], r[3]) for r in rows[1:]] == [
        ("Live monitor", "The whole class"),
        ("Homework results", "The whole class"),
        ("Class's games and time", "The whole class"),
        ("Class progress page", "The whole class"),
        ("Class progress page", "The whole class"),
    ]


def test_a_childs_export_holds_the_looks_at_their_class_while_they_are_in_it(
    teacher, classroom, ana, playing
):
    # Before Zoe joined the class: not about her.
    teacher.get(reverse("classroom:progress_class", kwargs={"classroom_id": classroom.pk}))
    zoe = make_student(classroom, "Zoe", secret="2468")
    teacher.get(reverse("classroom:sessions_detail", args=[playing.pk]))
    teacher.get(reverse("classroom:progress_class_activity", kwargs={"classroom_id": classroom.pk}))
    other = make_class(classroom.teacher, name="Class 6C")
    teacher.get(reverse("classroom:progress_class", kwargs={"classroom_id": other.pk}))

    def export_of(student):
        return teacher.get(
            reverse(
                "classroom:roster_student_export",
                kwargs={"classroom_id": classroom.pk, "student_id": student.pk},
            )
        ).json()

    assert [(r["what"], r["class"], r["by"]) for r in export_of(zoe)["class_data_access"]] == [
        ("live_monitor", "Class 6B", "Ms Rivera <rivera@example.org>"),
        ("class_activity", "Class 6B", "Ms Rivera <rivera@example.org>"),
    ]
    assert [r["what"] for r in export_of(ana)["class_data_access"]] == [
        "class_progress",
        "live_monitor",
        "class_activity",
    ]
