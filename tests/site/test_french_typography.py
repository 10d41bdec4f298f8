"""A French teacher's pages in French typography (docs/translations.md): a no-break space before
a label's colon and before the percent sign, no "de" before a name (no "Carte de Amira"), and the
projector's leaderboard worded for an ended game once the session has ended."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from tests.classroom.test_projector_room import ended_round
from tests.factories import make_attempts, make_class, make_session, make_student, make_teacher

pytestmark = pytest.mark.django_db
NBSP = "\u00a0"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def french_teacher():
    teacher = make_teacher()
    teacher.language = "fr"
    teacher.save()
    return teacher


def page(client, url, language="fr") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_no_template_puts_a_labels_colon_outside_its_translated_text():
    # The colon belongs to the text: French writes "Classe :", English "Class:".
    outside = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if re.search(r"translate[^%]*%\}:", line)
    ]
    assert outside == []


def test_a_french_teachers_labels_have_a_no_break_space_before_the_colon(client):
    teacher = french_teacher()
    classroom = make_class(teacher)
    make_student(classroom, "Amira")
    session = make_session(classroom, game="add_up", variant="no_jokers", table_size=4)
    client.force_login(teacher)
    home = page(client, reverse("classroom:teacher_home"))
    assert f"Code de la classe{NBSP}:" in home
    detail = page(client, reverse("classroom:sessions_detail", args=[session.pk]))
    for label in ("Classe", "Joueurs par table", "État"):
        assert f"{label}{NBSP}:" in detail, label
    assert "Carte de Amira" not in page(
        client, reverse("classroom:roster_class", kwargs={"classroom_id": classroom.pk})
    )


def test_a_french_teachers_percentages_have_a_no_break_space(client):
    teacher = french_teacher()
    classroom = make_class(teacher)
    amira = make_student(classroom, "Amira")
    make_attempts(amira, [(3, "+", 4, 7, 2000)] * 3 + [(3, "+", 4, 8, 2000)] * 1)
    make_attempts(amira, [(2, "+", 2, 4, 2000)] * 4)
    client.force_login(teacher)
    progress = page(client, reverse("classroom:progress_student", args=[classroom.pk, amira.pk]))
    assert f"88{NBSP}%" in progress
    assert not re.search(r"\d%", progress.split("<main", 1)[-1].split("<style", 1)[0])


def test_french_names_a_child_without_de_before_the_name(client):
    teacher = french_teacher()
    classroom = make_class(teacher)
    amira = make_student(classroom, "Amira")
    client.force_login(teacher)
    url = reverse(
        "classroom:roster_student_language",
        kwargs={"classroom_id": classroom.pk, "student_id": amira.pk},
    )
    response = client.post(
        url, {"language": "de", "family_language": ""}, follow=True, HTTP_ACCEPT_LANGUAGE="fr"
    )
    text = response.content.decode()
    assert "Amira" in text and "de Amira" not in text


def test_the_projector_of_an_ended_session_does_not_say_so_far(client):
    classroom, session = ended_round()
    client.force_login(classroom.teacher)
    url = reverse("classroom:sessions_projector", args=[session.pk])
    assert "Points in the game so far" not in page(client, url, "en")
    classroom.teacher.language = "fr"
    classroom.teacher.save()
    ended = page(client, url)
    assert "Points de la partie" in ended
    assert "jusqu'ici" not in ended and "jusqu&#x27;ici" not in ended
