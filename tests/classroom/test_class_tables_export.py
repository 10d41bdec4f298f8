"""The whole class's answers and figures as a zip of CSV tables with a README.csv, from the class
page and from ``manage.py export_class``: read back as a program would."""

import csv
import datetime
import io
import zipfile
import zoneinfo

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from classroom.models import DataAccess, SessionPlace, SessionTable
from games.models import Attempt
from tests.classroom.roster_helpers import give_homework, join_session
from tests.factories import make_attempts, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
MADRID = zoneinfo.ZoneInfo("Europe/Madrid")
# 23:30 UTC on a winter Monday is 00:30 on Tuesday in Madrid: the school's day, not the server's.
LATE = datetime.datetime(2026, 11, 2, 23, 30, tzinfo=datetime.UTC)


@pytest.fixture
def classroom():
    teacher = make_teacher(email="rivera@example.org", name="Ms Rivera")
    teacher.time_zone = "Europe/Madrid"
    teacher.save()
    classroom = make_class(teacher, name="Class 6B")
    ana = make_student(classroom, name="Ana")
    ben = make_student(classroom, name="=Ben")  # a name a spreadsheet would run
    make_attempts(
        ana,
        [
            (3, "+", 4, 7, 1500, LATE),
            (3, "+", 4, 8, 2500, LATE),
            (6, "x", 7, 42, 4000, LATE + datetime.timedelta(days=3)),
            (9, "-", 4, 5, 900),
        ],
    )
    lesson = make_attempts(ben, [(2, "x", 5, 10, 1200), (12, "-", 5, 7, 5200)], game="sum")
    SessionPlace.objects.create(
        table=SessionTable.objects.create(
            session=join_session(classroom, ben).session, number=1, match=lesson
        ),
        seat=0,
        student=ben,
    )
    give_homework(classroom, ana)
    return classroom


def read_zip(content: bytes) -> dict[str, list[dict]]:
    archive = zipfile.ZipFile(io.BytesIO(content))
    assert archive.testzip() is None
    tables = {}
    for name in archive.namelist():
        text = archive.read(name).decode("utf-8-sig")
        reader = csv.reader(io.StringIO(text))
        header = next(reader)
        tables[name] = [header, *reader]
    return tables


def check_against_readme(tables) -> dict[str, list[dict]]:
    """Every file README.csv names is there with exactly its columns, in its order, and every
    cell is of its column's type; nothing is in the zip that README.csv does not name."""
    readme = [
        dict(zip(tables["README.csv"][0], row, strict=True)) for row in tables["README.csv"][1:]
    ]
    assert tables["README.csv"][0] == ["file", "column", "type", "description"]
    described = {row["file"] for row in readme}
    assert described == set(tables), "README.csv names every file of the zip, and only those"
    rows_by_file = {}
    for name in described:
        columns = [(r["column"], r["type"]) for r in readme if r["file"] == name and r["column"]]
        assert all(r["description"] for r in readme if r["file"] == name)
        header, *rows = tables[name]
        assert header == [column for column, _type in columns], name
        for row in rows:
            assert len(row) == len(header), (name, row)
            for (column, kind), value in zip(columns, row, strict=True):
                assert_typed(kind, value, f"{name}:{column}")
        rows_by_file[name] = [dict(zip(header, row, strict=True)) for row in rows]
    return rows_by_file


def assert_typed(kind: str, value: str, where: str) -> None:
    if value == "":
        return  # no value
    if kind == "integer":
        int(value)
    elif kind == "decimal":
        number = float(value)
        assert "fraction" not in where or 0 <= number <= 1, where
        assert "%" not in value and "," not in value, where
    elif kind == "boolean":
        assert value in ("true", "false"), (where, value)
    elif kind == "datetime":
        parsed = datetime.datetime.fromisoformat(value)
        assert parsed.tzinfo is not None, (where, value)
    elif kind == "date":
        assert len(value) == 10, (where, value)
        datetime.date.fromisoformat(value)
    else:
        assert kind == "text", (where, kind)


def check_the_class(rows, classroom):
    students = {row["name"]: row for row in rows["students.csv"]}
    assert set(students) == {"Ana", "'=Ben"}  # guarded against formulas, as every CSV is
    for enrollment in classroom.enrollments.all():
        child = enrollment.student
        answers = Attempt.objects.filter(user=child).count()
        mine = [row for row in rows["answers.csv"] if row["student_id"] == str(child.pk)]
        assert len(mine) == answers > 0
        [row] = [row for row in rows["students.csv"] if row["student_id"] == str(child.pk)]
        assert int(row["answers"]) == answers
        right = Attempt.objects.filter(user=child, correct=True).count()
        assert int(row["right_answers"]) == right
        assert float(row["accuracy_fraction"]) == pytest.approx(right / answers, abs=1e-4)
        skills = [r for r in rows["skills.csv"] if r["student_id"] == str(child.pk)]
        assert sum(int(r["answers"]) for r in skills) == answers

    ana = students["Ana"]["student_id"]
    late = [r for r in rows["answers.csv"] if r["student_id"] == ana][:2]
    # The school's zone with its offset, and the school's day.
    assert [r["answered_at"] for r in late] == ["2026-11-03T00:30:00+01:00"] * 2
    assert [r["school_day"] for r in late] == ["2026-11-03"] * 2
    assert [(r["operand_1"], r["operator"], r["operand_2"], r["answer"]) for r in late] == [
        ("3", "+", "4", "7"),
        ("3", "+", "4", "8"),
    ]
    assert [(r["correct"], r["fluent"], r["slip"]) for r in late] == [
        ("true", "true", ""),
        ("false", "false", "off_by_one"),
    ]
    [add] = [
        r for r in rows["skills.csv"] if r["student_id"] == ana and r["skill"] == "add.within10"
    ]
    assert (add["answers"], add["right_answers"], add["accuracy_fraction"]) == ("2", "1", "0.5")
    facts = {
        (r["operation"], r["first"], r["second"]): r
        for r in rows["facts.csv"]
        if r["student_id"] == ana
    }
    assert facts["add", "3", "4"]["latest_answers"] == "2"
    assert facts["add", "3", "4"]["last_seen"] == "2026-11-03"
    assert facts["mul", "6", "7"]["level"] == "practising"

    ben = students["'=Ben"]["student_id"]
    [seated] = rows["sessions.csv"]
    assert (seated["student_id"], seated["answers"], seated["right_answers"]) == (ben, "2", "2")
    assert {r["where"] for r in rows["answers.csv"] if r["student_id"] == ben} == {"lesson"}
    # The class's homework is set for both: Ana started her one game, Ben has not.
    homework = {r["student_id"]: r for r in rows["homework.csv"]}
    assert set(homework) == {ana, ben}
    assert (homework[ana]["items"], homework[ana]["finished"]) == ("1", "false")
    items = {r["student_id"]: r["state"] for r in rows["homework_items.csv"]}
    assert items == {ana: "started", ben: "not_started"}


def test_the_class_page_downloads_every_childs_answers_and_figures_as_csv_tables(client, classroom):
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:roster_class", args=[classroom.pk])).content.decode()
    url = reverse("classroom:roster_class_tables", args=[classroom.pk])
    assert url in page

    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Cache-Control"] == "no-store"
    assert 'attachment; filename="class-6b-' in response["Content-Disposition"]
    rows = check_against_readme(read_zip(b"".join(response.streaming_content)))
    assert {
        "README.csv",
        "students.csv",
        "answers.csv",
        "games.csv",
        "skills.csv",
        "weeks.csv",
        "facts.csv",
        "homework.csv",
        "homework_items.csv",
        "sessions.csv",
    } == set(rows)
    check_the_class(rows, classroom)
    [access] = DataAccess.objects.all()
    assert (access.kind, access.viewer, access.student, access.page) == (
        "class_tables",
        classroom.teacher,
        None,
        url,
    )
    assert access.viewer_name == "Ms Rivera <rivera@example.org>"


def test_the_readme_speaks_the_teachers_language_and_the_columns_stay_english(client, classroom):
    client.force_login(classroom.teacher)
    url = reverse("classroom:roster_class_tables", args=[classroom.pk])
    english = read_zip(b"".join(client.get(url).streaming_content))
    spanish = read_zip(b"".join(client.get(url, HTTP_ACCEPT_LANGUAGE="es").streaming_content))
    assert {n: t[0] for n, t in spanish.items()} == {n: t[0] for n, t in english.items()}
    check_against_readme(spanish)
    describe = {(r[0], r[1]): r[3] for r in spanish["README.csv"][1:]}
    assert describe["answers.csv", "correct"] == "true si la respuesta era correcta."


def test_another_teacher_gets_nothing_and_nothing_is_recorded(client, classroom):
    client.force_login(make_teacher(email="other@example.org"))
    response = client.get(reverse("classroom:roster_class_tables", args=[classroom.pk]))
    assert response.status_code == 404
    assert not DataAccess.objects.exists()


def test_an_empty_class_exports_every_table_with_its_header(client):
    classroom = make_class(make_teacher(), name="New class")
    client.force_login(classroom.teacher)
    response = client.get(reverse("classroom:roster_class_tables", args=[classroom.pk]))
    rows = check_against_readme(read_zip(b"".join(response.streaming_content)))
    assert all(not rows[name] for name in rows if name != "README.csv")


def test_the_command_writes_the_same_export_and_is_recorded(classroom, tmp_path):
    output = tmp_path / "class.zip"
    out = io.StringIO()

    call_command("export_class", classroom.code.lower(), "--output", str(output), stdout=out)

    assert str(output) in out.getvalue()
    assert not (tmp_path / "class.zip.part").exists()
    rows = check_against_readme(read_zip(output.read_bytes()))
    check_the_class(rows, classroom)
    [access] = DataAccess.objects.all()
    assert (access.kind, access.viewer, access.student) == ("class_tables", None, None)
    assert access.viewer_name.startswith("manage.py export_class (operator ")
    assert access.page == f"manage.py export_class {classroom.code} --output class.zip"

    call_command(
        "export_class", classroom.code, "--output", str(output), "--language", "es", stdout=out
    )
    spanish = read_zip(output.read_bytes())
    assert ["answers.csv", "correct", "boolean", "true si la respuesta era correcta."] in spanish[
        "README.csv"
    ]


def test_the_command_refuses_an_unknown_class(tmp_path):
    with pytest.raises(CommandError, match="no class has the code"):
        call_command("export_class", "NOPE", "--output", str(tmp_path / "x.zip"))
    assert not (tmp_path / "x.zip").exists()
    assert not DataAccess.objects.exists()
