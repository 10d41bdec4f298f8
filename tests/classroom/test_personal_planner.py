"""Personal practice's planner (issue 47): where each of a child's answers goes. Through the
product's entry points: the service that plans a child's items (personal_assignment_create), the
page that opens an item (its match dealt toward the child's facts), and the deals themselves."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import AssignmentWork, PersonalPlan
from classroom.practice import services as practice
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
SECOND = datetime.timedelta(seconds=1)


def at(day: datetime.date, hour=10) -> datetime.datetime:
    return datetime.datetime.combine(day, datetime.time(hour), timezone.get_current_timezone())


def days_ago(n: int) -> datetime.date:
    return TODAY - datetime.timedelta(days=n)


@pytest.fixture
def classroom():
    return make_class(make_teacher(name="Ms Rivera"), name="Class 3B")


@pytest.fixture
def ana(classroom):
    return make_student(classroom, "Ana", kind="", secret=None)


def assign(classroom, allowed, count, **extra):
    due = timezone.now() + datetime.timedelta(days=3)
    return practice.personal_assignment_create(
        classroom=classroom, allowed=allowed, count=count, due_at=due, title="Ours", **extra
    )


def opened(client, student, assignment, item):
    """The match the child gets when they open ``item`` (the homework page's play button)."""
    client.force_login(student)
    response = client.post(
        reverse("classroom:homework_play", args=[assignment.pk]), {"item": str(item)}
    )
    assert response.status_code == 302
    return AssignmentWork.objects.get(assignment=assignment, student=student, item=item).match


def just_now(minutes=1):
    return timezone.now() - datetime.timedelta(minutes=minutes)


def test_an_item_is_dealt_toward_the_set_facts_not_yet_answered_today(client, classroom, ana):
    """Every item was dealt toward the whole set, so a third of the answers repeated a set fact
    already asked that day while others went unasked. An item is dealt toward the facts of the
    child's set that they have not answered yet today, in any game."""
    facts = [("mul", 7, 8), ("mul", 6, 7), ("add", 8, 6)]
    assignment = assign(classroom, ["add_or_multiply"], 3, facts=facts)
    make_attempts(ana, [(7, "x", 8, 56, 2100, just_now())], game="sum")
    match = opened(client, ana, assignment, 0)
    assert match.focus == [["mul", 6, 7], ["add", 8, 6]]


def test_once_every_fact_is_answered_the_facts_being_learned_come_again_never_a_review(
    client, classroom, ana
):
    """A review is asked once on its due day (a second right answer the same day moves no box);
    once each of the set's facts has had its answer today, an item is dealt toward the facts
    still being learned, those answered fewest times today first."""
    make_attempts(
        ana,
        [
            # 7 x 8 wrong yesterday: being learned. 6 x 7 right and quick two days ago: due
            # for review (box 1, back after a day). 3 + 4 wrong yesterday: being learned.
            (7, "x", 8, 54, 2500, at(days_ago(1))),
            (6, "x", 7, 42, 1500, at(days_ago(2))),
            (3, "+", 4, 8, 2500, at(days_ago(1))),
        ],
    )
    assignment = assign(classroom, ["add_or_multiply"], 3)
    plan = PersonalPlan.objects.get(assignment=assignment)
    kinds = {(f["operation"], f["first"], f["second"]): f["kind"] for f in plan.facts}
    assert kinds[("mul", 6, 7)] == "review" and kinds[("mul", 7, 8)] == "learning"
    # Today she answers every fact of her set once, 7 x 8 twice.
    today = [(7, "x", 8, 56, 2500, just_now(3))]
    for n, f in enumerate(plan.facts):
        sign = "+" if f["operation"] == "add" else "x"
        value = f["first"] + f["second"] if sign == "+" else f["first"] * f["second"]
        today.append((f["first"], sign, f["second"], value, 2500, just_now(2) + n * SECOND))
    make_attempts(ana, today)
    focus = [tuple(f) for f in opened(client, ana, assignment, 0).focus]
    learning = {
        (f["operation"], f["first"], f["second"])
        for f in plan.facts
        if f["kind"] in ("learning", "new")
    }
    assert set(focus) == learning and ("mul", 6, 7) not in focus
    assert focus[-1] == ("mul", 7, 8)


def test_a_fact_whose_turnaround_was_answered_today_waits_for_tomorrow(client, classroom, ana):
    """No ¡Mía! or SUM deal can choose the order a child says a pair in: 4 x 7 answered is the
    combination answered, and dealing 7 x 4 again minutes later is massed practice of it."""
    assignment = assign(classroom, ["add_or_multiply"], 2, facts=[("mul", 7, 4), ("add", 5, 9)])
    make_attempts(ana, [(4, "x", 7, 28, 2100, just_now())], game="sum")
    assert opened(client, ana, assignment, 0).focus == [["add", 5, 9]]
