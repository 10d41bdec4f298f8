"""The OneRoster pages through the test client: a teacher imports their own classes (a preview of
every line, then the import), and downloads a class's results as a OneRoster 1.2 gradebook."""

import base64
import csv
import html
import io
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from accounts.models import Role
from classroom.homework.services import work_start
from classroom.models import Classroom, DataAccess, Enrollment
from classroom.oneroster.views import PENDING_KEY
from tests.classroom.homework_helpers import finish_puzzle, right_solve
from tests.classroom.test_oneroster_import import (
    DISTRICT_REFUSALS,
    district_with_mistakes,
    enrol,
    klass,
    school_zip,
    user,
)
from tests.factories import make_assignment, make_student, make_teacher

pytestmark = pytest.mark.django_db
User = get_user_model()
IMPORT = reverse("classroom:oneroster_import")


def upload(client, builder, **data):
    file = SimpleUploadedFile("roster.zip", builder.build(), content_type="application/zip")
    return client.post(IMPORT, {"file": file, "secrets": "by-grade", **data})


def two_teachers_zip():
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example"),
        user("t2", "Tom", "Lee", "teacher", email="tom@hill.example"),
        user("u1", "Ana", "López", grades="02", email="ana@kids.example"),
        user("u2", "Ben", "Okafor", grades="04"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher"),
        enrol("e-t2", "c2", "t2", "teacher"),
        enrol("e-u1", "c1", "u1"),
        enrol("e-u2", "c2", "u2"),
    ]
    classes = [klass("c1", "Math 3"), klass("c2", "Math 4")]
    return school_zip(users=users, enrollments=enrolments, classes=classes)


def test_a_teacher_previews_then_imports_only_her_own_classes(client):
    marta = make_teacher(email="marta@hill.example", name="Marta R.")
    client.force_login(marta)

    preview = upload(client, two_teachers_zip())

    assert preview.status_code == 200
    assert b"class c1 (Math 3)" in preview.content
    assert b"Math 4" not in preview.content  # Tom's class is his to import
    assert Classroom.objects.count() == 0  # a preview writes nothing
    # What the page keeps until the go-ahead: no child's e-mail, no demographics.
    kept = zipfile.ZipFile(io.BytesIO(base64.b64decode(client.session[PENDING_KEY]["data"])))
    assert "demographics.csv" not in kept.namelist()
    assert b"kids.example" not in kept.read("users.csv")

    done = client.post(IMPORT, {"confirm": "1"}, follow=True)

    assert done.status_code == 200
    classroom = Classroom.objects.get()
    assert (classroom.name, classroom.teacher) == ("Math 3", marta)
    assert list(Enrollment.objects.values_list("student__display_name", flat=True)) == ["Ana López"]
    assert not User.objects.filter(email="tom@hill.example").exists()
    cards = reverse("classroom:roster_cards", args=[classroom.pk])
    assert cards.encode() in done.content
    # The same zip again: nothing to change.
    again = upload(client, two_teachers_zip())
    assert "Nothing to change" in again.content.decode()


def test_the_preview_names_each_bad_line_and_why(client):
    client.force_login(make_teacher(email="marta@hill.example"))
    response = upload(client, district_with_mistakes())
    page = html.unescape(response.content.decode())
    for refusal in DISTRICT_REFUSALS:
        assert refusal in page, refusal
    assert "8 lines are refused and will be left out" in page


def test_the_preview_in_spanish(client):
    client.force_login(make_teacher(email="marta@hill.example"))
    client.cookies["django_language"] = "es"
    file = SimpleUploadedFile("roster.zip", district_with_mistakes().build())
    page = client.post(
        IMPORT, {"file": file, "secrets": "by-grade"}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "la clase c9 no está en classes.csv ni se importó antes." in page
    assert "Importar clases desde OneRoster" in page


def test_a_zip_that_cannot_be_imported_says_why_and_offers_no_import(client):
    client.force_login(make_teacher())
    file = SimpleUploadedFile("roster.zip", b"not a zip")
    page = client.post(IMPORT, {"file": file, "secrets": "pin"}).content.decode()
    assert "This zip cannot be imported" in page
    assert 'name="confirm"' not in page
    assert PENDING_KEY not in client.session


def test_a_student_cannot_open_the_import(client):
    marta = make_teacher()
    client.force_login(
        make_student(Classroom.objects.create(teacher=marta, name="x", code="ABCDEF"))
    )
    assert client.get(IMPORT).status_code == 403


# --- the gradebook -------------------------------------------------------------------------------


def read_zip(data):
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {
        name: list(csv.DictReader(io.StringIO(archive.read(name).decode())))
        for name in archive.namelist()
    }


def test_the_gradebook_keys_results_by_the_rosters_sourced_ids(client):
    marta = make_teacher(email="marta.ruiz@hill.example")
    client.force_login(marta)
    upload(client, school_zip())
    client.post(IMPORT, {"confirm": "1"})
    classroom = Classroom.objects.get()
    homework = make_assignment(classroom, title="Squares, week 1")
    students = {s.display_name: s for s in User.objects.filter(role=Role.STUDENT)}
    ana, ben = students["Ana López, Jr."], students["Ben Okafor"]
    for item in range(2):
        finish_puzzle(work_start(assignment=homework, student=ana, item=item).match_id, ana)
    right_solve(work_start(assignment=homework, student=ben, item=0).match_id, ben)
    make_student(classroom, name="Zoe Handmade")
    page_url = reverse("classroom:oneroster_gradebook", args=[classroom.pk])

    page = client.get(page_url, {"homework": homework.pk}).content.decode()
    assert "Zoe Handmade" in page  # named as left out

    response = client.get(page_url, {"homework": homework.pk, "download": "1"})

    assert response["Content-Type"] == "application/zip"
    files = read_zip(response.content)
    assert set(files) == {"manifest.csv", "categories.csv", "lineItems.csv", "results.csv"}
    manifest = {row["propertyName"]: row["value"] for row in files["manifest.csv"]}
    assert manifest["oneroster.version"] == "1.2"
    assert manifest["file.results"] == "bulk" and manifest["file.users"] == "absent"
    [line_item] = files["lineItems.csv"]
    assert (line_item["classSourcedId"], line_item["title"]) == ("c1", "Squares, week 1")
    assert line_item["categorySourcedId"] == files["categories.csv"][0]["sourcedId"]
    results = {row["studentSourcedId"]: row for row in files["results.csv"]}
    assert set(results) == {"u1", "u2", "u3"}  # Zoe has no sourcedId: left out
    assert (results["u1"]["score"], results["u1"]["scoreStatus"]) == ("100.0", "fully graded")
    assert results["u2"]["scoreStatus"] == "partially graded"
    assert (results["u3"]["score"], results["u3"]["scoreStatus"]) == ("0.0", "not submitted")
    assert all(row["lineItemSourcedId"] == line_item["sourcedId"] for row in results.values())
    assert DataAccess.objects.filter(
        classroom=classroom, kind=DataAccess.Kind.HOMEWORK_RESULTS
    ).exists()


def test_the_gradebook_of_a_period_and_of_a_class_not_from_oneroster(client):
    marta = make_teacher(email="marta.ruiz@hill.example")
    client.force_login(marta)
    upload(client, school_zip())
    client.post(IMPORT, {"confirm": "1"})
    classroom = Classroom.objects.get()
    make_assignment(classroom, title="Soon", due_in_days=2)
    make_assignment(classroom, title="Later", due_in_days=40)
    url = reverse("classroom:oneroster_gradebook", args=[classroom.pk])
    today = classroom.created_at.date()
    from datetime import timedelta

    response = client.get(
        url,
        {"start": today.isoformat(), "end": (today + timedelta(days=10)).isoformat(),
         "download": "1"},
    )  # fmt: skip
    files = read_zip(response.content)
    assert [row["title"] for row in files["lineItems.csv"]] == ["Soon"]
    assert len(files["results.csv"]) == 3

    other = Classroom.objects.create(teacher=marta, name="By hand", code="HHHHHH")
    page = client.get(reverse("classroom:oneroster_gradebook", args=[other.pk]))
    assert "was not imported from OneRoster" in page.content.decode()
    stranger = make_teacher()
    client.force_login(stranger)
    assert client.get(url).status_code == 404


def test_the_gradebook_from_the_command(client, tmp_path):
    from django.core.management import call_command

    marta = make_teacher(email="marta.ruiz@hill.example")
    client.force_login(marta)
    upload(client, school_zip())
    client.post(IMPORT, {"confirm": "1"})
    classroom = Classroom.objects.get()
    homework = make_assignment(classroom, title="Week 1")
    make_student(classroom, name="Zoe Handmade")
    output = tmp_path / "gradebook.zip"
    out = io.StringIO()
    call_command(
        "export_oneroster_gradebook",
        "c1",
        "--homework",
        str(homework.pk),
        "--output",
        str(output),
        stdout=out,
    )
    assert "1 line items, 3 results" in out.getvalue()
    assert "left out (no sourcedId, added here by hand): Zoe Handmade" in out.getvalue()
    files = read_zip(output.read_bytes())
    assert {row["studentSourcedId"] for row in files["results.csv"]} == {"u1", "u2", "u3"}
    assert DataAccess.objects.filter(
        classroom=classroom, viewer=None, kind=DataAccess.Kind.HOMEWORK_RESULTS
    ).exists()


def test_a_co_teacher_imports_the_class_as_hers_and_makes_no_account_for_the_other(client):
    tom = make_teacher(email="tom@hill.example", name="Tom")
    client.force_login(tom)
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example"),
        user("t2", "Tom", "Lee", "teacher", email="tom@hill.example"),
        user("u1", "Ana", "López"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher", primary="true"),
        enrol("e-t2", "c1", "t2", "teacher", primary="false"),
        enrol("e-u1", "c1", "u1"),
    ]
    upload(client, school_zip(users=users, enrollments=enrolments))
    client.post(IMPORT, {"confirm": "1"})
    assert Classroom.objects.get().teacher == tom
    assert not User.objects.filter(email="marta@hill.example").exists()


def test_the_gradebook_of_a_period_from_the_command(client, tmp_path):
    """A district's script asks for every homework due in a term, by the class's sourcedId."""
    from datetime import timedelta

    from django.core.management import CommandError, call_command
    from django.utils import timezone

    marta = make_teacher(email="marta.ruiz@hill.example")
    client.force_login(marta)
    upload(client, school_zip())
    client.post(IMPORT, {"confirm": "1"})
    classroom = Classroom.objects.get()
    make_assignment(classroom, title="Soon", due_in_days=2)
    make_assignment(classroom, title="Also soon", due_in_days=5)
    make_assignment(classroom, title="Next term", due_in_days=60)
    today = timezone.localdate()
    output = tmp_path / "term.zip"
    out = io.StringIO()
    call_command(
        "export_oneroster_gradebook",
        "c1",
        "--from",
        today.isoformat(),
        "--to",
        (today + timedelta(days=30)).isoformat(),
        "--output",
        str(output),
        stdout=out,
    )
    assert "2 line items, 6 results" in out.getvalue()
    files = read_zip(output.read_bytes())
    assert sorted(row["title"] for row in files["lineItems.csv"]) == ["Also soon", "Soon"]
    assert {row["classSourcedId"] for row in files["lineItems.csv"]} == {"c1"}
    line_items = {row["sourcedId"] for row in files["lineItems.csv"]}
    assert {row["lineItemSourcedId"] for row in files["results.csv"]} == line_items
    assert {row["studentSourcedId"] for row in files["results.csv"]} == {"u1", "u2", "u3"}
    assert all(float(row["score"]) == 0 for row in files["results.csv"])  # a number, not "0%"
    with pytest.raises(CommandError, match="no homework of the class is in the dates given"):
        call_command(
            "export_oneroster_gradebook",
            classroom.code,
            "--from",
            (today + timedelta(days=100)).isoformat(),
            "--output",
            str(tmp_path / "none.zip"),
            stdout=io.StringIO(),
        )
