"""A teacher downloads all of one student's answers as CSV (issue 14, item 10)."""

import csv
import datetime
import io

import pytest
from django.urls import reverse

from classroom import services
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db

EARLY = datetime.datetime(2026, 3, 1, 23, 30, tzinfo=datetime.UTC)  # 00:30 in Madrid
LATER = datetime.datetime(2026, 3, 4, 9, 0, tzinfo=datetime.UTC)


def download(client, classroom, student):
    response = client.get(
        reverse("classroom:progress_student_attempts", args=[classroom.pk, student.pk])
    )
    body = (
        b"".join(response.streaming_content).decode("utf-8") if response.status_code == 200 else ""
    )
    return response, body


def test_every_answer_of_the_student_with_its_wording_and_the_schools_time(client):
    teacher = make_teacher()
    services.teacher_time_zone_set(teacher=teacher, time_zone="Europe/Madrid")
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    make_attempts(ana, [(5, "+", 9, 1, 2100, EARLY), (8, "-", 3, 5, 900, LATER)])
    make_attempts(ben, [(2, "+", 2, 4, 700, LATER)])
    client.force_login(teacher)

    response, body = download(client, classroom, ana)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'attachment; filename="answers-ana-' in response["Content-Disposition"]
    assert body.startswith("\ufeff")
    rows = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
    assert [
        (r["when"], r["game"], r["what_the_student_did"], r["what_was_right"], r["correct"])
        for r in rows
    ] == [
        ("2026-03-02T00:30:00+01:00", "mia", "Claimed 5 + 9 for the 1", "5 + 9 makes 14", "0"),
        ("2026-03-04T10:00:00+01:00", "mia", "Claimed 8 − 3 for the 5", "8 − 3 makes 5", "1"),
    ]
    assert (rows[0]["skill"], rows[0]["slip"], rows[0]["elapsed_ms"]) == (
        "add.within20",
        "far_off",  # 14 claimed as 1: more than half the answer away
        "2100",
    )
    assert (rows[0]["operands"], rows[0]["answer"], rows[0]["expected"]) == ("5 9", "1", "14")

    student_page = client.get(reverse("classroom:progress_student", args=[classroom.pk, ana.pk]))
    assert reverse("classroom:progress_student_attempts", args=[classroom.pk, ana.pk]) in (
        student_page.content.decode()
    )


def test_only_the_classes_teacher_downloads_and_only_its_students(client):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    other_class = make_class(make_teacher(), name="Other")
    zoe = make_student(other_class, "Zoe", secret="9999")
    client.force_login(make_teacher())
    assert download(client, classroom, ana)[0].status_code == 404
    client.force_login(classroom.teacher)
    assert download(client, classroom, zoe)[0].status_code == 404
    client.force_login(ana)
    assert download(client, classroom, ana)[0].status_code in (302, 403)


def test_the_operator_reads_as_a_sign_and_a_formula_is_still_guarded(client):
    """A sign alone is no formula: the operator column reads + - x. A cell that would run as a
    formula in a spreadsheet keeps its guarding apostrophe."""
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    make_attempts(ana, [(5, "+", 4, 9, 900, LATER), (8, "-", 3, 5, 900, LATER)])
    make_attempts(ana, [(6, "x", 7, 42, 900, LATER)], game="add_or_multiply")
    tampered = make_attempts(ana, [(2, "+", 2, 4, 900, LATER)], game="sum").attempts.get()
    tampered.skill = '=HYPERLINK("http://example.com")'
    tampered.operator = "+1"
    tampered.save(update_fields=["skill", "operator"])
    client.force_login(classroom.teacher)

    _, body = download(client, classroom, ana)
    rows = list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))
    assert [r["operator"] for r in rows] == ["+", "-", "x", "'+1"]
    assert rows[-1]["skill"] == '\'=HYPERLINK("http://example.com")'
