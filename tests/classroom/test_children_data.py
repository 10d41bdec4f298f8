"""Children's data kept only as long as needed and gone when deleted (docs/privacy.md), through
the pages: sign-in, delete, reset, export; and the nightly retention."""

import datetime
import json
from pathlib import Path

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import models
from django.urls import reverse
from django.utils import timezone

from classroom.models import ClassSession, ProgressReport, SessionSkillFigures, SkillDay
from classroom.progress.selectors import Period
from classroom.progress.services import report_request
from classroom.retention import retention_apply
from classroom.roster import services
from classroom.roster.student_secrets import Secret
from config.celery import app as celery_app
from games.models import Attempt, Match
from tests.classroom.roster_helpers import record_attempts
from tests.factories import (
    make_attempts,
    make_class,
    make_match,
    make_session,
    make_student,
    make_teacher,
)

pytestmark = pytest.mark.django_db
User = get_user_model()
ZARA = "Zaragoza Quintana"  # a name found nowhere else


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def eager_celery():
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager, conf.task_eager_propagates = True, True
    yield
    conf.task_always_eager, conf.task_eager_propagates = saved


def sign_in(client, classroom, student, secret):
    url = reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": student.pk}
    )
    return client.post(url, {"secret": secret})


@pytest.fixture
def classroom():
    return make_class(make_teacher(), name="Class 6B")


@pytest.fixture
def zara(classroom, client, django_capture_on_commit_callbacks):
    """Zara with four weeks' history: games with a classmate, a compiled class report, failed
    and successful sign-ins, an open session."""
    zara, _ = services.student_add(
        classroom=classroom, display_name=ZARA, secret=Secret("pin", "8642")
    )
    ben = make_student(classroom, name="Ben")
    shared = make_match(players=[zara, ben])
    record_attempts(shared, zara, count=3)
    now = timezone.now()
    make_attempts(zara, [(3, "+", 4, 7, 1500, now - datetime.timedelta(days=d)) for d in range(28)])
    assert sign_in(client, classroom, zara, "8642").status_code == 302  # an open session
    assert sign_in(client, classroom, zara, "1235").status_code == 200  # a wrong PIN, later
    with django_capture_on_commit_callbacks(execute=True):  # compiled at once (eager)
        report_request(classroom=classroom, period=Period.last_days(30))
    return zara, ben


def test_a_wrong_pin_is_not_kept_in_the_sign_in_log(classroom, client):
    ben, _ = services.student_add(
        classroom=classroom, display_name="Ben", secret=Secret("pin", "8642")
    )
    sign_in(client, classroom, ben, "1235")
    # A child's failure is logged (who, when, from where: accounts/student_sign_in.py), never
    # counted in django-axes' AccessAttempt, whose post_data masks the secret for teachers.
    assert AccessFailureLog.objects.filter(username=ben.username).count() == 1
    assert not AccessAttempt.objects.exists()
    stored = " ".join(
        str(value) for row in AccessFailureLog.objects.values() for value in row.values()
    )
    assert "1235" not in stored and "8642" not in stored


def rows_about(user_id: int, username: str) -> dict[str, int]:
    """Every row of every model that points at this user, or names their account."""
    found = {}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if (
                isinstance(field, models.ForeignKey | models.OneToOneField)
                and field.related_model is User
            ):
                count = model.objects.filter(**{field.name: user_id}).count()
                if count:
                    found[f"{model.__name__}.{field.name}"] = count
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        count = model.objects.filter(username=username).count()
        if count:
            found[model.__name__] = count
    sessions = [
        s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user_id)
    ]
    if sessions:
        found["Session"] = len(sessions)
    return found


def files_naming(folder: Path, name: str) -> list[str]:
    """Stored files that name the child (the PDF's text, the CSV's cells)."""
    import subprocess

    named = []
    for path in folder.rglob("*"):
        if path.suffix == ".pdf":
            text = subprocess.run(
                ["pdftotext", str(path), "-"], capture_output=True, text=True
            ).stdout
        elif path.is_file():
            text = path.read_bytes().decode("utf-8", "replace")
        else:
            continue
        if name in text:
            named.append(path.name)
    return named


def test_deleting_a_student_leaves_nothing_that_names_them(
    classroom, zara, client, media, django_capture_on_commit_callbacks
):
    zara, _ben = zara
    [report] = ProgressReport.objects.all()
    assert report.status == "done" and files_naming(media, ZARA)  # the report named her
    assert rows_about(zara.pk, zara.username)  # and there was plenty about her

    teacher = client
    teacher.force_login(classroom.teacher)
    delete = reverse(
        "classroom:roster_student_delete",
        kwargs={"classroom_id": classroom.pk, "student_id": zara.pk},
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert teacher.post(delete).status_code == 302

    assert rows_about(zara.pk, zara.username) == {}
    assert files_naming(media, ZARA) == []
    # The class's report was compiled again, without her.
    [again] = ProgressReport.objects.all()
    assert again.status == "done" and (again.period_start, again.period_end) == (
        report.period_start,
        report.period_end,
    )


def test_a_new_secret_ends_the_sessions_opened_with_the_old_one(classroom, client):
    ben, _ = services.student_add(
        classroom=classroom, display_name="Ben", secret=Secret("pin", "8642")
    )
    assert sign_in(client, classroom, ben, "8642").status_code == 302
    assert client.get(reverse("classroom:student_home")).status_code == 200
    services.student_set_secret(student=User.objects.get(pk=ben.pk), secret=Secret("pin", "1357"))
    response = client.get(reverse("classroom:student_home"))
    assert response.status_code == 302 and "_auth_user_id" not in client.session


def test_a_childs_session_lasts_a_school_day(classroom, client):
    ben, _ = services.student_add(
        classroom=classroom, display_name="Ben", secret=Secret("pin", "8642")
    )
    sign_in(client, classroom, ben, "8642")
    assert client.session.get_expiry_age() == settings.STUDENT_SESSION_SECONDS == 10 * 3600


def test_the_export_holds_moves_seats_sign_ins_and_reports(classroom, zara, client):
    zara, _ben = zara
    client.force_login(classroom.teacher)
    data = json.loads(
        client.get(
            reverse(
                "classroom:roster_student_export",
                kwargs={"classroom_id": classroom.pk, "student_id": zara.pk},
            )
        ).content
    )
    assert data["matches"] and data["attempts"]
    assert {row["kind"] for row in data["sign_in_log"]} >= {"sign_ins", "failed_sign_ins"}
    assert [r["status"] for r in data["class_reports"]] == ["done"]
    assert "8642" not in json.dumps(data) and "1235" not in json.dumps(data)
    whole = json.loads(
        client.get(
            reverse("classroom:roster_class_export", kwargs={"classroom_id": classroom.pk})
        ).content
    )
    assert sorted(s["profile"]["name"] for s in whole["students"]) == ["Ben", ZARA]


def test_moves_are_in_the_export(classroom, client):
    import engine
    from games.services import submit_move

    ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben", secret="1111")
    match = make_match(players=[ana, ben], seed=7)
    rules = engine.get_game("mia")
    submit_move(
        match_id=match.pk, user=ana, move=rules.hint(rules.load(match.state), 0), client_id="c1"
    )
    client.force_login(classroom.teacher)
    data = client.get(
        reverse(
            "classroom:roster_student_export",
            kwargs={"classroom_id": classroom.pk, "student_id": ana.pk},
        )
    ).json()
    assert [(m["match"], m["version"]) for m in data["moves"]] == [(match.pk, 1)]


def test_retention_deletes_what_is_past_its_period_and_keeps_the_rest(classroom):
    now = timezone.now()
    ana = make_student(classroom, "Ana")
    AccessLog.objects.create(
        username="old", ip_address="10.0.0.1", user_agent="", http_accept="", path_info="/"
    )
    AccessLog.objects.filter(username="old").update(attempt_time=now - datetime.timedelta(days=31))
    AccessLog.objects.create(
        username="new", ip_address="10.0.0.1", user_agent="", http_accept="", path_info="/"
    )
    old_game = make_match(players=[ana], bots=["easy"])
    Match.objects.filter(pk=old_game.pk).update(
        status=Match.Status.FINISHED, finished_at=now - datetime.timedelta(days=800)
    )
    new_game = make_match(players=[ana], bots=["easy"])
    make_attempts(
        ana, [(3, "+", 4, 7, 1500, now - datetime.timedelta(days=800)), (3, "+", 4, 7, 1500, now)]
    )
    report = ProgressReport.objects.create(
        classroom=classroom, period_start=now.date(), period_end=now.date()
    )
    ProgressReport.objects.filter(pk=report.pk).update(
        created_at=now - datetime.timedelta(days=400)
    )
    old_lesson, new_lesson = make_session(classroom), make_session(classroom)
    ClassSession.objects.filter(pk=old_lesson.pk).update(
        status=ClassSession.Status.ENDED, ended_at=now - datetime.timedelta(days=800)
    )
    for lesson in (old_lesson, new_lesson):
        SessionSkillFigures.objects.create(
            session=lesson, student=ana, skill="add.within10", attempts=1, correct=1
        )

    deleted = retention_apply(now=now)

    assert list(AccessLog.objects.values_list("username", flat=True)) == ["new"]
    assert (
        not Match.objects.filter(pk=old_game.pk).exists()
        and Match.objects.filter(pk=new_game.pk).exists()
    )
    assert not ProgressReport.objects.filter(pk=report.pk).exists()
    assert SkillDay.objects.filter(student=ana).count() == 1  # the old day's figures went
    assert list(SessionSkillFigures.objects.values_list("session", flat=True)) == [new_lesson.pk]
    assert deleted["sign_in_log"] == 1 and deleted["reports"] == 1 and deleted["rollups"] >= 2


def test_retention_runs_nightly_on_the_beat():
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "classroom.tasks.apply_retention" in tasks


def days_ago(days):
    return timezone.now() - datetime.timedelta(days=days)


def test_retention_removes_games_left_playing_old_class_sessions_and_lobby_visits(classroom):
    """What nobody finished goes too: a table left playing, homework never completed, a lesson
    never ended, and who sat in a lobby, each after its own period (settings.RETENTION_DAYS)."""
    from classroom.models import SessionPresence, SessionTable
    from classroom.tasks import apply_retention
    from tests.classroom.roster_helpers import give_homework

    ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben", secret="1111")
    periods = settings.RETENTION_DAYS
    left_playing = make_match(players=[ana, ben])
    record_attempts(left_playing, ana, count=2)
    unfinished_homework = give_homework(classroom, ana).match
    playing_today = make_match(players=[ana, ben])
    Match.objects.filter(pk__in=[left_playing.pk, unfinished_homework.pk]).update(
        updated_at=days_ago(periods["unfinished_games"] + 1)
    )

    ended_long_ago, never_ended, this_week = (make_session(classroom) for _ in range(3))
    ClassSession.objects.filter(pk=ended_long_ago.pk).update(
        status=ClassSession.Status.ENDED, ended_at=days_ago(periods["class_sessions"] + 1)
    )
    ClassSession.objects.filter(pk=never_ended.pk).update(
        created_at=days_ago(periods["class_sessions"] + 1)
    )
    SessionTable.objects.create(session=ended_long_ago, number=1, match=playing_today)
    old_visit = SessionPresence.objects.create(session=this_week, student=ana)
    SessionPresence.objects.filter(pk=old_visit.pk).update(
        last_seen_at=days_ago(periods["lobby_presences"] + 1)
    )
    recent_visit = SessionPresence.objects.create(session=this_week, student=ben)

    apply_retention.delay()  # as the beat sends it (eager here)

    assert list(Match.objects.values_list("pk", flat=True)) == [playing_today.pk]
    assert not Attempt.objects.filter(match_id=left_playing.pk).exists()
    assert list(ClassSession.objects.values_list("pk", flat=True)) == [this_week.pk]
    assert list(SessionPresence.objects.values_list("pk", flat=True)) == [recent_visit.pk]
