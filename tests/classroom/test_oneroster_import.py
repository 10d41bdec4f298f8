"""OneRoster 1.2 import through ``python manage.py import_oneroster``: zips written as districts'
systems write them (tools.oneroster_zip: BOM, CRLF, quoted commas and line breaks, columns in
another order, ``metadata.*`` columns, files the platform does not read)."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from accounts.models import Role
from classroom.models import Classroom, Enrollment, LoginCard
from classroom.oneroster.models import OneRosterLink
from games.models import Attempt
from tests.factories import make_attempts, make_class, make_teacher
from tools.oneroster_zip import OneRosterZip

pytestmark = pytest.mark.django_db
User = get_user_model()

ORGS = [
    {"sourcedId": "d1", "name": "North District", "type": "district"},
    {"sourcedId": "s1", "name": "Hill School, Main St", "type": "school", "parentSourcedId": "d1"},
]
TERMS = [
    {"sourcedId": "y26", "title": "2026", "type": "schoolYear", "startDate": "2026-09-01",
     "endDate": "2027-06-30", "schoolYear": "2027"},
]  # fmt: skip
COURSES = [{"sourcedId": "math3", "title": "Math 3", "orgSourcedId": "s1"}]


def klass(sid, title, **extra):
    return {"sourcedId": sid, "title": title, "courseSourcedId": "math3", "classType":
            "homeroom", "schoolSourcedId": "s1", "termSourcedIds": "y26", **extra}  # fmt: skip


def user(sid, given, family, role="student", **extra):
    row = {"sourcedId": sid, "enabledUser": "true", "role": role, "orgSourcedIds": "s1",
           "givenName": given, "familyName": family, **extra}  # fmt: skip
    return row


def enrol(sid, class_sid, user_sid, role="student", **extra):
    return {"sourcedId": sid, "classSourcedId": class_sid, "schoolSourcedId": "s1",
            "userSourcedId": user_sid, "role": role, **extra}  # fmt: skip


def school_zip(version="1.2", **changes):
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="Marta.Ruiz@hill.example"),
        # A quoted line break in an extension column: the next row starts a line later.
        user(
            "u1",
            "Ana",
            "López, Jr.",
            grades="02",
            email="ana@kids.example",
            username="ana.lopez7",
            identifier="900417",
            userMasterIdentifier="STATE-55501",
            phone="+1 555 0100",
            sms="+1 555 0101",
            password="Kitten-42",
            pronouns="she/her",
            **{"metadata.notes": "allergic to nuts,\nsits near the door"},
        ),
        user("u2", "Ben", "Okafor", grades="05", birthDate="2017-03-01"),
        user("u3", "Carla", "Díaz", grades="02", preferredGivenName="Carlita"),
        user("g1", "Gina", "Okafor", "guardian", email="gina@home.example"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher", primary="true"),
        enrol("e-u1", "c1", "u1"),
        enrol("e-u2", "c1", "u2"),
        enrol("e-u3", "c1", "u3"),
    ]
    builder = (
        OneRosterZip(version=version)
        .add("orgs.csv", ORGS)
        .add("academicSessions.csv", TERMS)
        .add("courses.csv", COURSES)
        .add("classes.csv", changes.get("classes", [klass("c1", "Math 3, room 2\nHill")]))
        .add("users.csv", changes.get("users", users))
        .add("enrollments.csv", changes.get("enrollments", enrolments))
        .add(
            "demographics.csv",
            [
                {
                    "sourcedId": "u1",
                    "birthDate": "2016-07-13",
                    "sex": "female",
                    "asian": "false",
                    "hispanicOrLatinoEthnicity": "true",
                    "cityOfBirth": "Guadalajara",
                }
            ],
        )
        .add(
            "userProfiles.csv",
            [
                {
                    "sourcedId": "p1",
                    "userSourcedId": "u1",
                    "profileType": "reading-app",
                    "vendorId": "books.example",
                    "credentialType": "password",
                    "username": "ana.reads",
                    "password": "Puppy-77",
                }
            ],
        )
    )
    # A file of the district's own, not in the manifest.
    builder.extra["district-notes.txt"] = b"Exported nightly by the SIS.\r\n"
    return builder


def run(tmp_path, builder, *args, name="roster.zip"):
    path = tmp_path / name
    path.write_bytes(builder.build())
    out = io.StringIO()
    call_command("import_oneroster", str(path), *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def counts():
    return (
        Classroom.objects.count(),
        User.objects.filter(role=Role.TEACHER).count(),
        User.objects.filter(role=Role.STUDENT).count(),
        Enrollment.objects.count(),
        OneRosterLink.objects.count(),
    )


def test_a_schools_bulk_zip_makes_its_class_teacher_and_children(tmp_path):
    output = run(tmp_path, school_zip())

    assert "created: 1 class, 3 enrolments, 3 students, 1 teacher" in output
    assert "refused: 0 lines" in output
    assert "left out: 1 rows" in output  # the guardian: no account here
    assert (
        "Not read (this platform does not need them): demographics.csv, district-notes.txt, "
        "userProfiles.csv." in output
    )
    classroom = Classroom.objects.get()
    assert classroom.name == "Math 3, room 2 Hill"
    teacher = classroom.teacher
    assert (teacher.email, teacher.username, teacher.display_name, teacher.role) == (
        "marta.ruiz@hill.example",
        "marta.ruiz@hill.example",
        "Marta Ruiz",
        Role.TEACHER,
    )
    # A password nobody knows, that "Forgot your password?" can replace.
    assert teacher.has_usable_password()
    students = {s.display_name: s for s in User.objects.filter(role=Role.STUDENT)}
    assert set(students) == {"Ana López, Jr.", "Ben Okafor", "Carlita Díaz"}
    for student in students.values():
        assert student.email == "" and not student.has_usable_password()
        assert student.secret_hash and LoginCard.objects.filter(student=student).exists()
        assert Enrollment.objects.filter(classroom=classroom, student=student).exists()
    # By grade: pictures up to grade 2, a PIN after.
    assert students["Ana López, Jr."].secret_kind == "picture"
    assert students["Ben Okafor"].secret_kind == "pin"
    assert set(OneRosterLink.objects.values_list("kind", "sourced_id")) == {
        ("class", "c1"),
        ("teacher", "t1"),
        ("student", "u1"),
        ("student", "u2"),
        ("student", "u3"),
        ("enrollment", "e-u1"),
        ("enrollment", "e-u2"),
        ("enrollment", "e-u3"),
    }


def test_the_same_file_twice_changes_nothing(tmp_path):
    run(tmp_path, school_zip())
    before = counts()
    names = sorted(User.objects.values_list("display_name", "secret_hash"))

    output = run(tmp_path, school_zip())

    assert "created: nothing" in output and "updated: nothing" in output
    assert "dropped: nothing" in output
    assert counts() == before
    assert sorted(User.objects.values_list("display_name", "secret_hash")) == names


def test_a_dry_run_writes_nothing(tmp_path):
    output = run(tmp_path, school_zip(), "--dry-run")
    assert "created: 1 class, 3 enrolments, 3 students, 1 teacher" in output
    assert "dry run: nothing was written." in output
    assert counts() == (0, 0, 0, 0, 0)


def test_files_without_bom_with_lf_and_the_standards_column_order_read_alike(tmp_path):
    path = tmp_path / "plain.zip"
    path.write_bytes(school_zip().build(bom=False, crlf=False, shuffle_columns=False))
    call_command("import_oneroster", str(path), stdout=io.StringIO())
    assert counts()[:4] == (1, 1, 3, 3)


def test_a_delta_renames_adds_and_drops_and_keeps_the_dropped_childs_history(tmp_path):
    run(tmp_path, school_zip())
    ben = User.objects.get(display_name="Ben Okafor")
    make_attempts(ben, [(3, "+", 4, 7, 1500)])
    delta = (
        OneRosterZip()
        .add("users.csv", [user("u1", "Anita", "López"), user("u4", "Dev", "Patel")], "delta")
        .add(
            "enrollments.csv",
            [
                {"sourcedId": "e-u2", "status": "tobedeleted"},
                enrol("e-u4", "c1", "u4"),
            ],
            "delta",
        )
    )

    output = run(tmp_path, delta, name="delta.zip")

    assert "created: 1 enrolment, 1 student" in output
    assert "updated: 1 student" in output
    assert "dropped: 1 enrolment" in output
    classroom = Classroom.objects.get()
    roster = set(
        Enrollment.objects.filter(classroom=classroom).values_list(
            "student__display_name", flat=True
        )
    )
    assert roster == {"Anita López", "Carlita Díaz", "Dev Patel"}
    ben.refresh_from_db()  # still here, with what he answered
    assert Attempt.objects.filter(user=ben).count() == 1
    # The same delta again: nothing more.
    again = run(tmp_path, delta, name="delta.zip")
    assert "created: nothing" in again and "dropped: nothing" in again
    assert "updated: nothing" in again


def test_a_bulk_file_without_an_enrolment_ends_it(tmp_path):
    run(tmp_path, school_zip())
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher", primary="true"),
        enrol("e-u1", "c1", "u1"),
        enrol("e-u3", "c1", "u3"),
    ]
    output = run(tmp_path, school_zip(enrollments=enrolments))
    assert "dropped: 1 enrolment" in output
    assert not Enrollment.objects.filter(student__display_name="Ben Okafor").exists()
    assert User.objects.filter(display_name="Ben Okafor").exists()


def test_names_changed_here_are_kept_and_names_changed_there_are_taken(tmp_path):
    run(tmp_path, school_zip())
    teacher = User.objects.get(role=Role.TEACHER)
    teacher.display_name = "Ms. Ruiz"
    teacher.save()
    ana = User.objects.get(display_name="Ana López, Jr.")
    ana.display_name = "Ana L."
    ana.save()
    classroom = Classroom.objects.get()
    classroom.name = "Our math class"
    classroom.save()
    users = [
        user("t1", "Marta", "Ruiz-Soto", "teacher", email="marta.ruiz@hill.example"),
        user("u1", "Ana María", "López"),
        user("u2", "Benjamin", "Okafor"),
        user("u3", "Carla", "Díaz", preferredGivenName="Carlita"),
    ]
    output = run(tmp_path, school_zip(users=users, classes=[klass("c1", "Math 3 (2026)")]))

    assert "updated: 1 student" in output  # Ben only
    teacher.refresh_from_db()
    ana.refresh_from_db()
    classroom.refresh_from_db()
    assert (teacher.display_name, ana.display_name, classroom.name) == (
        "Ms. Ruiz",
        "Ana L.",
        "Our math class",
    )
    assert User.objects.filter(display_name="Benjamin Okafor").exists()
    # A later import of the same names changes nothing more, here or there.
    assert "updated: nothing" in run(
        tmp_path, school_zip(users=users, classes=[klass("c1", "Math 3 (2026)")])
    )


def test_a_teacher_with_an_account_here_is_linked_not_made_again(tmp_path):
    mine = make_teacher(email="marta.ruiz@hill.example", name="Marta")
    make_class(mine, name="My own class")
    output = run(tmp_path, school_zip())
    assert "teacher t1 (Marta Ruiz): the account already here" not in output  # -v 1: counts
    assert User.objects.filter(role=Role.TEACHER).count() == 1
    assert Classroom.objects.get(name__startswith="Math").teacher == mine
    mine.refresh_from_db()
    assert mine.display_name == "Marta"


def district_with_mistakes():
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example"),
        user("t2", "Tom", "Nomail", "teacher"),
        user("u1", "Ana", "López", **{"metadata.notes": "two\nlines"}),
        user("u2", "Ben", "Okafor", "techer"),
        user("u1", "Ana", "Again"),
        user("u3", "Carla", "Díaz"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher"),
        enrol("e-u1", "c1", "u1"),
        enrol("e-u2", "c1", "u2"),
        enrol("e-u3", "c9", "u3"),
        enrol("e-x", "c1", "nobody"),
    ]
    builder = school_zip(users=users, enrollments=enrolments)
    courses = [{"sourcedId": "math3", "title": "Math 3"}]  # orgSourcedId's column is missing
    builder.add("courses.csv", courses, columns=["sourcedId", "title", "schoolYearSourcedId"])
    return builder


DISTRICT_REFUSALS = [
    "courses.csv line 1: the required column “orgSourcedId” is missing. The file is not read.",
    "enrollments.csv line 4: the user u2 was refused (see users.csv).",
    "enrollments.csv line 5: the class c9 is not in classes.csv nor imported before.",
    "enrollments.csv line 6: the user nobody is not in users.csv nor imported before.",
    # A 1.2 zip gives roles in roles.csv: Ben's is on its line 5.
    "roles.csv line 5: the role “techer” is not a OneRoster role.",
    "users.csv line 3: a teacher needs an e-mail address to sign in here.",
    # Line 4's quoted line break puts the next rows a line further.
    "users.csv line 6: the user's role was refused (see roles.csv line 5).",
    "users.csv line 7: the sourcedId u1 is already on line 4.",
]


def test_a_district_zip_with_mistakes_names_each_line_and_imports_the_rest(tmp_path):
    output = run(tmp_path, district_with_mistakes(), "--dry-run")
    refused = [line.strip() for line in output.splitlines() if line.startswith("  ")]
    assert refused == DISTRICT_REFUSALS
    assert "refused: 8 lines" in output
    assert counts() == (0, 0, 0, 0, 0)

    output = run(tmp_path, district_with_mistakes())
    assert "created: 1 class, 1 enrolment, 1 student, 1 teacher" in output
    assert list(User.objects.filter(role=Role.STUDENT).values_list("display_name", flat=True)) == [
        "Ana López"
    ]


def test_a_zip_without_manifest_or_a_core_column_is_refused_whole(tmp_path):
    path = tmp_path / "bad.zip"
    path.write_bytes(b"PK not a zip")
    with pytest.raises(CommandError):
        call_command("import_oneroster", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    builder = school_zip()
    builder.add("users.csv", [user("u1", "Ana", "López")], columns=["sourcedId", "givenName"])
    path.write_bytes(builder.build())
    errors = io.StringIO()
    with pytest.raises(CommandError):
        call_command("import_oneroster", str(path), stdout=io.StringIO(), stderr=errors)
    assert "users.csv: the required column “enabledUser”, “familyName” is missing." in (
        errors.getvalue()
    )
    assert counts() == (0, 0, 0, 0, 0)


def test_a_deleted_child_leaves_the_class_and_a_deleted_teacher_or_class_is_kept(tmp_path):
    run(tmp_path, school_zip())
    delta = (
        OneRosterZip()
        .add("classes.csv", [{"sourcedId": "c1", "status": "tobedeleted"}], "delta")
        .add(
            "users.csv",
            [
                {"sourcedId": "t1", "status": "tobedeleted"},
                {"sourcedId": "u3", "status": "tobedeleted"},
            ],
            "delta",
        )
    )
    output = run(tmp_path, delta, name="delta.zip")
    assert "dropped: 1 enrolment" in output
    assert "classes.csv line 2: the class is kept" in output
    assert "users.csv line 2: the teacher is kept" in output
    carla = User.objects.get(display_name="Carlita Díaz")
    assert not Enrollment.objects.filter(student=carla).exists()
    assert Classroom.objects.get().teacher.display_name == "Marta Ruiz"


def test_two_teachers_with_one_e_mail_are_refused_not_a_crash(tmp_path):
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example"),
        user("t2", "Marta", "Ruiz Bis", "teacher", email="MARTA@hill.example"),
        user("u1", "Ana", "López"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher"),
        enrol("e-t2", "c1", "t2", "teacher"),
        enrol("e-u1", "c1", "u1"),
    ]
    output = run(tmp_path, school_zip(users=users, enrollments=enrolments))
    assert "users.csv line 3: the e-mail marta@hill.example is already a teacher's on line 2." in (
        output
    )
    assert "enrollments.csv line 3: the user t2 was refused (see users.csv)." in output
    assert User.objects.filter(role=Role.TEACHER).count() == 1
