"""Importing a class list from CSV: checked line by line first, imported only when it all fits."""

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from classroom.roster.importing import plan_import
from classroom.roster.student_secrets import Secret
from tests.factories import make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
User = get_user_model()


def plan(text, existing=()):
    return plan_import(text=text, existing_names=existing)


# --- reading the list ----------------------------------------------------------------------------


def test_names_alone_with_or_without_a_header():
    for text in ("Ana\nBen\n", "name\nAna\nBen", "Nombre\r\nAna\r\nBen\r\n"):
        result = plan(text)
        assert result.ok
        assert [(r.name, r.secret) for r in result.rows] == [("Ana", None), ("Ben", None)]


def test_second_column_is_a_pin_or_pictures():
    result = plan("Ana,1234\nBen,cat sun star\nCarla,perro-pelota-coche\nDan,\n")
    assert result.ok
    assert [r.secret for r in result.rows] == [
        Secret("pin", "1234"),
        Secret("picture", "cat-sun-star"),
        Secret("picture", "dog-ball-car"),
        None,
    ]


def test_a_pin_header_keeps_leading_zeros_as_a_pin():
    result = plan("name,pin\nAna,0042\n")
    assert result.rows[0].secret == Secret("pin", "0042")


def test_line_numbers_count_header_blank_lines_and_quoted_names():
    text = 'name,secret\n\nAna,cat sun star\n"Smith, Ben",1234\n\nAna,4321\n'
    result = plan(text)
    assert [(r.line, r.name) for r in result.rows] == [(3, "Ana"), (4, "Smith, Ben"), (6, "Ana")]
    assert result.rows[2].errors == ["Ana is already on line 3."]
    assert not result.ok


def test_semicolons_and_tabs_as_spreadsheets_save_them():
    assert [r.name for r in plan("Ana;1234\nBen;5678").rows] == ["Ana", "Ben"]
    assert [r.secret.value for r in plan("Ana\t1234\nBen\t5678").rows] == ["1234", "5678"]


def test_every_bad_line_is_reported_by_its_number():
    text = "\n".join(
        [
            "name,secret",  # 1
            "Ana,12",  # 2: PIN too short
            "Ben,cat sun unicorn",  # 3: unknown picture
            ",1234",  # 4: no name
            "Carla,1234,extra",  # 5: too many columns
            "x" * 81,  # 6: too long
            "Dan",  # 7: already in the class
            "Eva,cat-sun-star",  # 8: fine
            "eva",  # 9: twice in the list
        ]
    )
    result = plan(text, existing=["dan"])
    errors = {row.line: " ".join(row.errors) for row in result.error_rows}
    assert sorted(errors) == [2, 3, 4, 5, 6, 7, 9]
    assert "4 to 6 digits" in errors[2]
    assert "unicorn" in errors[3]
    assert "name is missing" in errors[4]
    assert "Too many columns" in errors[5]
    assert "longer than 80" in errors[6]
    assert "already in this class" in errors[7]
    assert "already on line 8" in errors[9]


def test_trailing_empty_columns_and_spaces_are_ignored():
    result = plan("  Ana   Maria  ,  1234 ,,,\n")
    assert result.ok
    assert (result.rows[0].name, result.rows[0].secret.value) == ("Ana Maria", "1234")


@pytest.mark.parametrize("text", ["", "\n\n", "name,pin\n"])
def test_an_empty_list_is_a_problem(text):
    result = plan(text)
    assert not result.ok and result.problems


# --- the pages -----------------------------------------------------------------------------------


@pytest.fixture
def classroom():
    return make_class(make_teacher(), name="Class 5A")


@pytest.fixture
def teacher_client(client, classroom):
    client.force_login(classroom.teacher)
    return client


def import_url(classroom):
    return reverse("classroom:roster_import", kwargs={"classroom_id": classroom.pk})


def upload(data: bytes, name="class.csv"):
    return SimpleUploadedFile(name, data, content_type="text/csv")


def test_preview_shows_the_rows_and_imports_nothing(teacher_client, classroom):
    csv = "name,pin\nAna,1234\nBen\n".encode("utf-8-sig")  # with the BOM Excel writes
    response = teacher_client.post(
        import_url(classroom), {"file": upload(csv), "generate": "picture"}
    )
    assert response.status_code == 200
    assert response.context["plan"].ok
    content = response.content.decode()
    assert "Import 2 students" in content
    assert "made up on import" in content
    assert classroom.enrollments.count() == 0
    # The preview carries the list on for the confirmation (and for fixing lines in place).
    assert response.context["form"].initial["text"] == "name,pin\nAna,1234\nBen\n"


def test_preview_lists_errors_by_line_and_offers_no_import(teacher_client, classroom):
    make_student(classroom, name="Ben")
    response = teacher_client.post(
        import_url(classroom), {"text": "Ana,99\nBen\nCarla", "generate": "pin"}
    )
    content = response.content.decode()
    assert "2 lines need fixing" in content
    assert "Line 1:" in content and "Line 2:" in content and "Line 3:" not in content
    assert 'name="confirm"' not in content
    assert classroom.enrollments.count() == 1  # Ben, from before


def test_confirm_imports_and_shows_every_new_secret_to_print(teacher_client, classroom):
    text = "name,secret\nAna,1234\nBen,dog ball car\nCarla\n"
    response = teacher_client.post(
        import_url(classroom), {"text": text, "generate": "pin", "confirm": "1"}
    )
    done = reverse("classroom:roster_import_done", kwargs={"classroom_id": classroom.pk})
    assert response["Location"] == done
    students = {e.student.display_name: e.student for e in classroom.enrollments.all()}
    assert sorted(students) == ["Ana", "Ben", "Carla"]
    assert students["Carla"].secret_kind == "pin"

    page = teacher_client.get(done)
    rows = {row["student"].display_name: row["secret"] for row in page.context["rows"]}
    assert rows["Ana"] == Secret("pin", "1234")
    assert rows["Ben"] == Secret("picture", "dog-ball-car")
    carla_pin = rows["Carla"].value
    content = page.content.decode()
    assert carla_pin in content and "dog" in content
    cards = reverse("classroom:roster_cards", kwargs={"classroom_id": classroom.pk})
    assert cards + "?student=" in content
    # The generated PIN signs Carla in.
    teacher_client.logout()
    response = teacher_client.post(
        reverse(
            "classroom:student_login_secret",
            kwargs={"code": classroom.code, "student_id": students["Carla"].pk},
        ),
        {"secret": carla_pin},
    )
    assert teacher_client.session["_auth_user_id"] == str(students["Carla"].pk)


def test_confirm_checks_again_and_refuses_a_list_that_no_longer_fits(teacher_client, classroom):
    make_student(classroom, name="Ana")  # added between the preview and the confirmation
    response = teacher_client.post(
        import_url(classroom), {"text": "Ana\nBen", "generate": "pin", "confirm": "1"}
    )
    assert response.status_code == 200
    assert "already in this class" in response.content.decode()
    assert classroom.enrollments.count() == 1


def test_a_file_that_is_not_utf8_is_refused_kindly(teacher_client, classroom):
    response = teacher_client.post(
        import_url(classroom),
        {"file": upload("José,1234\n".encode("latin-1")), "generate": "pin"},
    )
    assert response.status_code == 200
    assert "CSV UTF-8" in response.content.decode()
    assert classroom.enrollments.count() == 0


def test_nothing_to_import_is_an_error(teacher_client, classroom):
    response = teacher_client.post(import_url(classroom), {"text": "  ", "generate": "pin"})
    assert "Choose a CSV file or paste the list" in response.content.decode()


def test_the_result_page_belongs_to_the_import_just_made(teacher_client, classroom):
    done = reverse("classroom:roster_import_done", kwargs={"classroom_id": classroom.pk})
    response = teacher_client.get(done)
    assert response["Location"] == reverse(
        "classroom:roster_class", kwargs={"classroom_id": classroom.pk}
    )


def test_names_are_unicode_and_accents_survive(teacher_client, classroom):
    text = "nombre,clave\nJosé Núñez,gato sol árbol\n李小龙,1234\n"
    teacher_client.post(
        import_url(classroom),
        {"file": upload(text.encode("utf-8")), "generate": "pin", "confirm": "1"},
    )
    names = sorted(e.student.display_name for e in classroom.enrollments.all())
    assert names == ["José Núñez", "李小龙"]
