"""Homework titles the platform makes are kept as data and worded when read (issue 44,
classroom.homework.titles): a Spanish child reads "Practicar 5 + 9" for the facts an English
teacher set from a progress page, and "Práctica personal" for personal practice the teacher left
with the form's title; a title the teacher typed is read as typed by everyone."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Assignment
from tests.factories import make_class, make_student, make_teacher

SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def lesson(db):
    classroom = make_class(make_teacher(name="Ms Rivera"), name="Class 3B")
    return classroom, make_student(classroom, "Ana"), make_student(classroom, "Ben")


def due():
    return (timezone.localtime() + datetime.timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")


def practise(client, classroom, facts, students):
    """ "Practise these facts" as homework, set on the form it opens as the form offers it."""
    client.force_login(classroom.teacher)
    asked = client.post(
        reverse("classroom:practise_facts", args=[classroom.pk]),
        {"facts": facts, "to": "homework", "students": [str(pk) for pk in students]},
        **ENGLISH,
    )
    return client.post(
        asked.url,
        {
            "title": client.get(asked.url, **ENGLISH).context["form"]["title"].value(),
            "due_at": due(),
            "games": ["mia", "sum"],
            "count": "3",
            "bot_level": "easy",
            "students": [str(pk) for pk in students],
            "facts": facts,
        },
        follow=True,  # the teacher reads her message, not the next signed-in child
        **ENGLISH,
    )


def page(client, user, name, *args, **headers):
    client.force_login(user)
    return client.get(reverse(name, args=args), **headers).content.decode()


def test_practise_these_facts_reads_in_each_childs_language(client, lesson):
    classroom, ana, ben = lesson
    practise(client, classroom, ["add:5:9", "mul:7:8"], [ana.pk, ben.pk])
    assignment = Assignment.objects.get()
    # Ana reads Spanish, Ben English: the same homework, each in their own words.
    assert "Practicar 5 + 9, 7 × 8" in page(client, ana, "classroom:student_home", **SPANISH)
    assert "Practise 5 + 9, 7 × 8" not in page(client, ana, "classroom:student_home", **SPANISH)
    assert "Practise 5 + 9, 7 × 8" in page(client, ben, "classroom:student_home", **ENGLISH)
    homework = page(client, ana, "classroom:homework_student", assignment.pk, **SPANISH)
    assert "<h1>Practicar 5 + 9, 7 × 8</h1>" in homework
    # The teacher in Spanish reads it in Spanish too.
    detail = page(client, classroom.teacher, "classroom:homework_detail", assignment.pk, **SPANISH)
    assert "<h1>Practicar 5 + 9, 7 × 8</h1>" in detail
    # Her game's label follows her language as well ("Your games" on her home page).
    client.force_login(ana)
    client.post(reverse("classroom:homework_play", args=[assignment.pk]), {"item": "0"}, **SPANISH)
    home = page(client, ana, "classroom:student_home", **SPANISH)
    assert "Practicar 5 + 9, 7 × 8 · 1/3" in home
    assert "Practise 5 + 9, 7 × 8 · 1/3" in page(client, ana, "classroom:student_home", **ENGLISH)


def test_personal_practice_with_the_forms_title_reads_in_the_childs_language(client, lesson):
    classroom, ana, _ben = lesson
    client.force_login(classroom.teacher)
    form = page(client, classroom.teacher, "classroom:homework_personal_create", classroom.pk)
    assert 'value="Personal practice"' in form
    client.post(
        reverse("classroom:homework_personal_create", args=[classroom.pk]),
        {
            "title": "Personal practice",
            "due_at": due(),
            "games": ["sum"],
            "count": 2,
            "bot_level": "easy",
        },
        follow=True,
        **ENGLISH,
    )
    spanish = page(client, ana, "classroom:student_home", **SPANISH)
    assert "Práctica personal" in spanish and "Personal practice" not in spanish
    assert Assignment.objects.get().title_kind == "personal_practice"


def test_a_typed_title_is_read_as_typed_and_an_edit_keeps_the_platforms_title(client, lesson):
    classroom, ana, _ben = lesson
    practise(client, classroom, ["add:3:4"], [ana.pk])
    practised = Assignment.objects.get()
    edit = reverse("classroom:homework_edit", args=[practised.pk])
    # The teacher saves the practice again without touching its title: still the platform's.
    form = page(client, classroom.teacher, "classroom:homework_edit", practised.pk, **ENGLISH)
    assert 'value="Practise 3 + 4"' in form
    client.post(
        edit,
        {"title": "Practise 3 + 4", "due_at": due(), **_personal_fields(practised)},
        follow=True,
        **ENGLISH,
    )
    practised.refresh_from_db()
    assert practised.title_kind == "practise_facts" and practised.typed_title == ""
    assert "Practicar 3 + 4" in page(client, ana, "classroom:student_home", **SPANISH)
    # Her own words: kept as she typed them, for every reader.
    client.force_login(classroom.teacher)
    client.post(
        edit,
        {"title": "Sumas de Ana", "due_at": due(), **_personal_fields(practised)},
        follow=True,
        **ENGLISH,
    )
    practised.refresh_from_db()
    assert (practised.title_kind, practised.typed_title) == ("", "Sumas de Ana")
    assert "Sumas de Ana" in page(client, ana, "classroom:student_home", **ENGLISH)


def _personal_fields(assignment):
    """What the edit form posts besides the title and due date (its choices as they are)."""
    return {
        "games": assignment.options.get("allowed", []),
        "count": len(assignment.items),
        "bot_level": assignment.bot_level,
    }
