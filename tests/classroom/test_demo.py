"""The demo class (`make run` loads it): seven weeks of play that its teacher's pages can show, made
through the real services, consistent with itself, and never doubled by seeding again."""

import datetime

import pytest
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone

from classroom.demo import DEMO_STUDENTS, seed_demo
from classroom.models import Assignment, AssignmentWork, ClassSession
from classroom.progress.models import FactMissDay, SkillDay, SkillWeek
from classroom.progress.rollup import week_start
from games.models import Attempt, Match, MoveRecord

pytestmark = pytest.mark.django_db

HISTORY_MODELS = (
    Match,
    MoveRecord,
    Attempt,
    ClassSession,
    Assignment,
    AssignmentWork,
    SkillDay,
    SkillWeek,
    FactMissDay,
)


@pytest.fixture
def demo(client):
    classroom = seed_demo()
    client.force_login(classroom.teacher)
    return classroom


def test_the_demo_dashboards_show_each_students_accuracy(client, demo):
    page = client.get(reverse("classroom:progress_class", args=[demo.pk]))
    assert page.status_code == 200
    progress = page.context["progress"]
    assert 0 < progress.total.accuracy < 1
    accuracy = {s.student.display_name: s.figures.accuracy_percent for s in progress.students}
    assert set(accuracy) == {name for name, _kind, _secret in DEMO_STUDENTS}
    assert all(percent and percent > 0 for percent in accuracy.values()), accuracy
    assert len(set(accuracy.values())) > 1, "the students play alike"
    assert {"add", "sub", "mul"} <= {skill.operation for skill in progress.skills}
    assert sum(week.figures.attempts > 0 for week in progress.weeks) >= 2
    assert progress.missed_facts
    html = page.content.decode()
    for percent in accuracy.values():
        assert f"{percent}%" in html

    ana = next(s.student for s in progress.students if s.student.display_name == "Ana")
    page = client.get(reverse("classroom:progress_student", args=[demo.pk, ana.pk]))
    assert page.context["progress"].total.accuracy_percent == accuracy["Ana"]


def test_the_demo_sessions_and_homework_have_results(client, demo):
    sessions = ClassSession.objects.filter(classroom=demo)
    assert sessions.count() == 4
    assert set(sessions.values_list("status", flat=True)) == {ClassSession.Status.ENDED}
    assert not Match.objects.filter(session_table__session__classroom=demo).exclude(
        status=Match.Status.FINISHED
    )
    session = sessions.order_by("-started_at").first()
    page = client.get(reverse("classroom:sessions_detail", args=[session.pk]))
    assert page.status_code == 200

    assignment = Assignment.objects.get(classroom=demo)
    page = client.get(reverse("classroom:homework_detail", args=[assignment.pk]))
    report = page.context["report"]
    assert report.finished and report.started and report.not_started
    assert 0 < report.accuracy < 100


def test_the_demo_history_is_consistent_and_spread_over_seven_weeks(demo):
    now = timezone.now()
    student_attempts = Attempt.objects.filter(user__enrollments__classroom=demo)
    times = list(student_attempts.values_list("created_at", flat=True))
    assert times and all(now - datetime.timedelta(days=50) < at < now for at in times)
    # Some of it before the default view (the last 30 days), some in it.
    days_ago = {(timezone.localdate() - timezone.localdate(at)).days for at in times}
    assert min(days_ago) < 30 <= max(days_ago)
    assert len({week_start(timezone.localdate(at)) for at in times}) >= 4
    # An attempt happened when its move was received; a match between its start and its end.
    for attempt in Attempt.objects.select_related("move", "match"):
        assert attempt.created_at == attempt.move.received_at
        assert attempt.match.created_at <= attempt.created_at
        if attempt.match.finished_at:
            assert attempt.created_at <= attempt.match.finished_at
    for session in ClassSession.objects.filter(classroom=demo):
        matches = Match.objects.filter(session_table__session=session)
        assert all(session.started_at <= m.created_at <= session.ended_at for m in matches)
    # The rollups count exactly the attempts, on the days they were made.
    assert SkillDay.objects.aggregate(n=Sum("attempts"))["n"] == student_attempts.count()
    assert SkillWeek.objects.aggregate(n=Sum("correct"))["n"] == (
        student_attempts.filter(correct=True).count()
    )
    assert set(SkillDay.objects.values_list("day", flat=True)) == {
        timezone.localdate(at) for at in times
    }


def test_seeding_again_adds_no_history(demo):
    counts = [model.objects.count() for model in HISTORY_MODELS]
    assert all(counts)
    seed_demo()
    assert [model.objects.count() for model in HISTORY_MODELS] == counts


def test_the_demo_without_history():
    classroom = seed_demo(history=False)
    assert classroom.enrollments.count() == len(DEMO_STUDENTS)
    assert not Match.objects.exists() and not ClassSession.objects.exists()


def test_the_demo_mathable_lesson_counts_no_free_placement_as_an_answer(client, demo):
    """Issue 22: the demo's children drop Mathable tiles where no line lies (their random moves);
    those are no answers, so nobody is stuck on "Mixed operations" for them."""
    mathable = Attempt.objects.filter(game="mathable_junior", user__isnull=False)
    free_drops = sum(
        1
        for events in MoveRecord.objects.filter(match__game="mathable_junior").values_list(
            "events", flat=True
        )
        for event in events
        if event["type"] == "wrong_drop" and event["reason"] == "no_line"
    )
    assert free_drops > 0  # the children did make free placements
    assert mathable.exists() and not mathable.filter(operands=[]).exists()
    assert not SkillDay.objects.filter(skill="mixed").exists()
    page = client.get(reverse("classroom:progress_class", args=[demo.pk])).content.decode()
    stuck = page.split('id="struggling-heading"', 1)[1].split("</section>", 1)[0]
    assert "Mixed operations" not in stuck


def test_the_demo_shows_growth_in_its_default_view(client, demo):
    """Issue "The live lesson, second pass": the 30-day view covered all the demo's history, so
    every skill read "new in this period". Now the period before has answers on the same skills."""
    page = client.get(reverse("classroom:progress_class", args=[demo.pk]))
    progress = page.context["progress"]
    compared = [skill for skill in progress.skills if skill.change_points is not None]
    assert compared, [(s.skill, s.previous, s.figures.attempts) for s in progress.skills]
    assert any(skill.change_points > 0 for skill in compared)
    html = page.content.decode()
    assert html.count("new in this period") < len(progress.skills)
    assert any(
        f"+{skill.change_points} point" in html for skill in compared if skill.change_points > 0
    )


def test_other_slips_are_a_minority_of_the_demo_wrong_answers(client, demo):
    """Issue "The live lesson, second pass": "Other slips" held most of the demo's wrong answers;
    the kinds of docs/slips.md now name most of them."""
    page = client.get(reverse("classroom:progress_class", args=[demo.pk]), {"period": "90"})
    total = page.context["progress"].total
    assert total.wrong > 20
    assert total.mistakes["other"] * 2 < total.wrong, total.mistakes
    html = page.content.decode()
    assert "Far off (a guess?)" in html
