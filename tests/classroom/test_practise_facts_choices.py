""" "Practise these facts" as homework gives the teacher the choices of any personal practice
(issue 44): the progress page's button opens the personal practice form with the facts and the
children, where the teacher chooses the games, how many items or how many minutes, the bots and
the due date; and Edit changes those choices until a child has begun (each child's items dealt
again toward the same facts), only the title and due date after."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Assignment, AssignmentWork, PersonalPlan
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture
def classroom():
    return make_class(make_teacher(name="Ms Rivera"), name="Class 3B")


def due(days=7):
    return (timezone.localtime() + datetime.timedelta(days=days)).strftime("%Y-%m-%dT%H:%M")


def facts_of(plan):
    return [(f["operation"], f["first"], f["second"]) for f in plan.facts]


def test_practise_these_facts_lets_the_teacher_choose_the_games_and_the_minutes(client, classroom):
    ana = make_student(classroom, "Ana", kind="", secret=None)
    make_student(classroom, "Ben", kind="", secret=None)
    make_attempts(ana, [(7, "x", 8, 54, 2500)])
    client.force_login(classroom.teacher)
    asked = client.post(
        reverse("classroom:practise_facts", args=[classroom.pk]),
        {"facts": ["mul:7:8", "add:3:4"], "to": "homework", "students": [str(ana.pk)]},
    )
    # Nothing is set yet: the teacher is on the personal practice form, with her facts and Ana.
    assert not Assignment.objects.exists()
    form_url = reverse("classroom:homework_personal_create", args=[classroom.pk])
    assert asked.status_code == 302 and asked.url.startswith(form_url + "?")
    page = client.get(asked.url)
    html = page.content.decode()
    assert "Practise 7 × 8, 3 + 4, for Ana" in html
    assert 'value="Practise 7 × 8, 3 + 4"' in html  # the title it offers
    assert page.context["form"]["students"].value() == [str(ana.pk)]
    for name in ("games", "count", "minutes", "bot_level"):
        assert not page.context["form"].fields[name].disabled, name
    spanish = client.get(asked.url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Practicar 7 × 8, 3 + 4, para Ana" in spanish
    # She chooses one game, 20 minutes of play and strong bots.
    response = client.post(
        asked.url,
        {
            "title": "Practise 7 × 8, 3 + 4",
            "due_at": due(),
            "games": ["add_or_multiply"],
            "minutes": "20",
            "bot_level": "strong",
            "students": [str(ana.pk)],
            "facts": ["mul:7:8", "add:3:4"],
        },
    )
    assignment = Assignment.objects.get()
    assert response.url == reverse("classroom:homework_detail", args=[assignment.pk])
    assert assignment.options["allowed"] == ["add_or_multiply"]
    assert assignment.options["minutes"] == 20 and assignment.bot_level == "strong"
    assert assignment.title_kind == "practise_facts"
    [plan] = PersonalPlan.objects.filter(assignment=assignment)
    assert plan.student == ana
    assert facts_of(plan) == [("mul", 7, 8), ("add", 3, 4)]
    assert {item["game"] for item in plan.items} == {"add_or_multiply"}


def test_edit_changes_the_games_and_how_many_until_a_child_begins(client, classroom):
    ana = make_student(classroom, "Ana", kind="", secret=None)
    client.force_login(classroom.teacher)
    asked = client.post(
        reverse("classroom:practise_facts", args=[classroom.pk]),
        {"facts": ["add:3:4"], "to": "homework", "students": [str(ana.pk)]},
    )
    client.post(
        asked.url,
        {
            "title": "Practise 3 + 4",
            "due_at": due(),
            "games": ["mia", "sum"],
            "count": "3",
            "bot_level": "easy",
            "students": [str(ana.pk)],
            "facts": ["add:3:4"],
        },
    )
    assignment = Assignment.objects.get()
    edit = reverse("classroom:homework_edit", args=[assignment.pk])
    page = client.get(edit)
    for name in ("games", "count", "minutes", "bot_level"):
        assert not page.context["form"].fields[name].disabled, name
    # SUM only, five of them: Ana's items are dealt again, toward the same fact.
    client.post(
        edit,
        {
            "title": "Practise 3 + 4",
            "due_at": due(9),
            "games": ["sum"],
            "count": "5",
            "bot_level": "strong",
        },
    )
    assignment.refresh_from_db()
    assert (assignment.options["allowed"], len(assignment.items)) == (["sum"], 5)
    assert assignment.bot_level == "strong" and assignment.title_kind == "practise_facts"
    plan = assignment.plans.get()
    assert [item["game"] for item in plan.items] == ["sum"] * 5
    assert facts_of(plan) == [("add", 3, 4)]
    # Ana begins: now only the title and the due date change.
    client.force_login(ana)
    client.post(reverse("classroom:homework_play", args=[assignment.pk]), {"item": "0"})
    assert AssignmentWork.objects.filter(assignment=assignment).exists()
    client.force_login(classroom.teacher)
    page = client.get(edit)
    assert "A child has begun this practice" in page.content.decode()
    assert page.context["form"].fields["games"].disabled
    client.post(
        edit,
        {"title": "Ana's sums", "due_at": due(10), "games": ["mia"], "count": "2"},
    )
    assignment.refresh_from_db()
    assert (assignment.title, assignment.options["allowed"], len(assignment.items)) == (
        "Ana's sums",
        ["sum"],
        5,
    )
    assert [item["game"] for item in assignment.plans.get().items] == ["sum"] * 5
