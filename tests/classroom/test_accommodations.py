"""Accommodations per child in the teaching layer (issue 22, item 3; docs/accessibility.md):
the teacher sets them privately on the child's page, reads them as badges on the monitor and the
progress pages, deals children who need a calm table together, and the projector names each
child as set. Lessons and homework make their matches with them (games.services)."""

import pytest
from django.urls import reverse

from accounts.models import Accommodations
from classroom.homework.services import BotGamesSpec, work_start
from classroom.models import SessionPlace
from classroom.roster.services import student_accommodations_set
from classroom.sessions import services as session_services
from classroom.sessions.selectors import session_monitor
from games.models import Match
from tests.classroom.sessions_helpers import record_attempts, seat_of
from tests.factories import (
    finish_match_by_bots,
    make_assignment,
    make_class,
    make_session,
    make_student,
    make_teacher,
)

pytestmark = pytest.mark.django_db


def page_of(classroom, student):
    return reverse(
        "classroom:roster_student", kwargs={"classroom_id": classroom.pk, "student_id": student.pk}
    )


def form_of(classroom, student):
    return reverse(
        "classroom:roster_student_accommodations",
        kwargs={"classroom_id": classroom.pk, "student_id": student.pk},
    )


TWICE_THE_TIME = {"time": "x2", "public_name": "initials", "read_aloud": "on"}


def test_the_teacher_sets_a_childs_accommodations_on_their_page(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana Ruiz")
    client.force_login(classroom.teacher)
    page = client.get(page_of(classroom, ana)).content.decode()
    assert "Accommodations" in page and 'name="time"' in page
    response = client.post(form_of(classroom, ana), TWICE_THE_TIME)
    assert response.status_code == 302
    saved = Accommodations.objects.get(student=ana)
    assert (saved.time, saved.public_name, saved.read_aloud, saved.calm_table, saved.dots) == (
        "x2",
        "initials",
        True,
        False,
        False,
    )
    page = client.get(page_of(classroom, ana)).content.decode()
    for badge in ("×2 time", "initials on the projector", "read aloud"):
        assert badge in page
    # Changed again: the same row, now with no clock and a calm table.
    client.post(
        form_of(classroom, ana), {"time": "none", "public_name": "full", "calm_table": "on"}
    )
    saved = Accommodations.objects.get(student=ana)
    assert (saved.time, saved.calm_table, saved.read_aloud) == ("none", True, False)


def test_only_the_childs_teacher_sees_or_changes_them(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    student_accommodations_set(student=ana, time="x1.5")
    other = make_teacher(email="other@example.org")
    make_class(other, name="Theirs")
    client.force_login(other)
    assert client.get(page_of(classroom, ana)).status_code == 404
    assert client.post(form_of(classroom, ana), TWICE_THE_TIME).status_code == 404
    client.force_login(ana, backend="accounts.backends.StudentSecretBackend")
    assert client.post(form_of(classroom, ana), TWICE_THE_TIME).status_code == 403
    assert Accommodations.objects.get(student=ana).time == "x1.5"


def test_a_choice_that_is_not_one_is_refused(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    client.force_login(classroom.teacher)
    response = client.post(form_of(classroom, ana), {"time": "x3", "public_name": "full"})
    assert response.status_code == 400
    assert not Accommodations.objects.filter(student=ana).exists()


def lesson(*names, table_size=2, game="mia", variant="express"):
    classroom = make_class()
    students = [make_student(classroom, name) for name in names]
    session = make_session(classroom, game=game, variant=variant, table_size=table_size)
    for student in students:
        session_services.session_join(session=session, student=student)
    return classroom, students, session


def test_a_lessons_table_runs_at_its_childs_time_and_the_monitor_marks_it(client):
    classroom, (ana, ben, _eva, _dan), session = lesson("Ana", "Ben", "Eva", "Dan")
    student_accommodations_set(student=ana, time="x2", dots=True)
    session_services.session_start(session=session)
    ana_match, _ = seat_of(session, ana)
    other = next(
        m for m in Match.objects.filter(session_table__session=session) if m.pk != ana_match.pk
    )
    assert ana_match.options["pass_timeout_seconds"] == 40 and ana_match.pace_factor == 2.0
    assert other.options["pass_timeout_seconds"] == 20 and other.pace_factor == 1.0
    monitor = session_monitor(session=session)
    badges = {row["name"]: row["accommodations"] for row in monitor["students"]}
    assert badges == {"Ana": ["×2 time", "dots"], "Ben": [], "Dan": [], "Eva": []}
    client.force_login(classroom.teacher)
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "×2 time" in detail
    # Never shown to children: not on the projector, not on anyone's play page.
    projector = client.get(
        reverse("classroom:sessions_projector", args=[session.pk])
    ).content.decode()
    assert "×2 time" not in projector
    for child in (ana, ben):
        client.force_login(child, backend="accounts.backends.StudentSecretBackend")
        match, _ = seat_of(session, child)
        play = client.get(reverse("games:play", args=[match.pk])).content.decode()
        assert "×2 time" not in play and "accommodation-badge" not in play


def test_homework_against_bots_follows_the_childs_time(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben")
    student_accommodations_set(student=ana, time="x1.5")
    spec = BotGamesSpec("mia", "express", 3, "easy", 1, {"pass_timeout_seconds": 30})
    assignment = make_assignment(classroom, spec=spec)
    ana_match = work_start(assignment=assignment, student=ana, item=0).match
    ben_match = work_start(assignment=assignment, student=ben, item=0).match
    assert ana_match.options["pass_timeout_seconds"] == 45 and ana_match.pace_factor == 1.5
    assert ben_match.options["pass_timeout_seconds"] == 30 and ben_match.pace_factor == 1.0
    # The teacher's page of the homework marks it beside the child's work.
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:homework_detail", args=[assignment.pk])).content.decode()
    assert page.count("×1.5 time") == 1


def test_dealing_seats_children_who_need_a_calm_table_together(client):
    classroom, students, session = lesson("Ana", "Ben", "Eva", "Dan", "Fay", "Gus", table_size=3)
    ana, ben, eva, dan, fay, gus = students
    student_accommodations_set(student=ben, calm_table=True)
    student_accommodations_set(student=fay, time="none")
    student_accommodations_set(student=dan, time="x2")  # more time, but no calm table
    client.force_login(classroom.teacher)
    client.post(reverse("classroom:sessions_deal", args=[session.pk]), {"calm_together": "on"})
    session.refresh_from_db()
    assert session.calm_together
    tables = dict(
        SessionPlace.objects.filter(table__session=session).values_list(
            "student_id", "table__number"
        )
    )
    assert tables[ben.pk] == tables[fay.pk]
    # The class's two tables of three: the third seat at the calm table is another child's.
    assert sum(tables[s.pk] == tables[ben.pk] for s in (ana, eva, dan, gus)) == 1
    # Both tables full: a newcomer who needs calm opens a table of their own, and one who does
    # not takes a seat beside them rather than open another.
    hal = make_student(classroom, "Hal")
    student_accommodations_set(student=hal, calm_table=True)
    session_services.session_join(session=session, student=hal)
    ivy = make_student(classroom, "Ivy")
    session_services.session_join(session=session, student=ivy)
    session_services.session_start(session=session)
    ben_match, _ = seat_of(session, ben)
    hal_match, _ = seat_of(session, hal)
    assert seat_of(session, fay)[0] == ben_match
    assert seat_of(session, ivy)[0] == hal_match != ben_match
    assert ben_match.pace_factor == hal_match.pace_factor == 2.0  # bots at half speed there
    # Without the box ticked, the class is dealt as it joined.
    session2 = make_session(classroom, game="mia", variant="express", table_size=3)
    for student in students:
        session_services.session_join(session=session2, student=student)
    client.post(reverse("classroom:sessions_deal", args=[session2.pk]))
    session_services.session_start(session=session2)
    assert seat_of(session2, ben)[0] != seat_of(session2, fay)[0]


def test_the_projector_names_each_child_as_set_and_the_teacher_sees_the_full_name(client):
    names = ("Ana Ruiz", "Ben Soto", "Eva Lind")
    classroom, (ana, ben, _eva), session = lesson(*names, table_size=3)
    student_accommodations_set(student=ana, public_name="initials")
    student_accommodations_set(student=ben, public_name="hidden")
    # Full names for the room: each child's own choice still holds.
    session_services.session_set_projector(session=session, names="full", top=10)
    session.refresh_from_db()
    session_services.session_start(session=session)
    match, _seat = seat_of(session, ana)
    record_attempts(match, ben, seat_of(session, ben)[1], [("add.within10", True, 900)] * 4)
    finish_match_by_bots(match, seed=3)
    session_services.session_end(session=session)
    monitor = session_monitor(session=session)
    public = [row["name"] for row in monitor["public_leaderboard"]]
    assert sorted(public) == ["A. R.", "Eva Lind"]
    assert [row["rank"] for row in monitor["public_leaderboard"]] in ([1, 2], [1, 1])
    # Ben is not listed, but his answers count in the class's totals.
    assert monitor["summary"]["attempts"] == 4 and monitor["summary"]["students"] == 3
    client.force_login(classroom.teacher)
    projector = client.get(
        reverse("classroom:sessions_projector", args=[session.pk])
    ).content.decode()
    assert "A. R." in projector and "Eva Lind" in projector
    assert "Ana Ruiz" not in projector and "Ben Soto" not in projector
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "Ana Ruiz" in detail and "Ben Soto" in detail
    # A child's own play page keeps the names of the table.
    client.force_login(ana, backend="accounts.backends.StudentSecretBackend")
    play = client.get(reverse("games:play", args=[match.pk])).content.decode()
    assert "Ana Ruiz" in play


def test_the_progress_pages_mark_a_childs_accommodations(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    make_student(classroom, "Ben")
    student_accommodations_set(student=ana, time="none", calm_table=True)
    client.force_login(classroom.teacher)
    class_page = client.get(reverse("classroom:progress_class", args=[classroom.pk]))
    text = class_page.content.decode()
    assert text.count("no clock") == 1 and "calm table" in text
    student_page = client.get(reverse("classroom:progress_student", args=[classroom.pk, ana.pk]))
    assert "no clock" in student_page.content.decode()


def test_the_childs_data_export_holds_their_accommodations(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben")
    student_accommodations_set(student=ana, time="x2", dots=True)
    client.force_login(classroom.teacher)
    url = reverse("classroom:roster_student_export", args=[classroom.pk, ana.pk])
    profile = client.get(url).json()["profile"]
    assert profile["accommodations"]["time"] == "x2" and profile["accommodations"]["dots"]
    url = reverse("classroom:roster_student_export", args=[classroom.pk, ben.pk])
    assert client.get(url).json()["profile"]["accommodations"] is None
