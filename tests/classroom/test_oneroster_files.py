"""OneRoster 1.2 files as districts' systems write them, through ``manage.py import_oneroster``:
users.csv without a role and each user's roles in roles.csv, ``enabledUser``, userProfiles.csv
and the demographics ignored (nothing of them is stored), ``tobedeleted`` in a delta on every
file, and the 1.1 layout still read (tools.oneroster_zip writes the 1.2 binding's headers)."""

import csv
import io
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from accounts.models import Role
from classroom.models import Classroom, Enrollment
from games.models import Attempt
from tests.classroom.test_oneroster_import import counts, enrol, run, school_zip, user
from tests.factories import make_attempts
from tools.oneroster_zip import COLUMNS, OneRosterZip

pytestmark = pytest.mark.django_db
User = get_user_model()


def header(data: bytes, name: str) -> list[str]:
    text = zipfile.ZipFile(io.BytesIO(data)).read(name).decode("utf-8-sig")
    return next(csv.reader(io.StringIO(text)))


def test_the_test_zips_have_the_1_2_bindings_files_and_headers():
    data = school_zip().build()
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    assert {"manifest.csv", "users.csv", "roles.csv", "userProfiles.csv"} <= names
    users = header(data, "users.csv")
    assert "role" not in users and "orgSourcedIds" not in users
    assert set(COLUMNS["users.csv"]) <= set(users)
    assert set(COLUMNS["roles.csv"]) <= set(header(data, "roles.csv"))
    manifest = dict(
        csv.reader(
            io.StringIO(zipfile.ZipFile(io.BytesIO(data)).read("manifest.csv").decode("utf-8-sig"))
        )
    )
    assert manifest["oneroster.version"] == "1.2"
    assert (manifest["file.roles"], manifest["file.userProfiles"]) == ("bulk", "bulk")
    assert manifest["file.lineItemScoreScales"] == "absent"


def test_a_1_1_zip_with_the_role_in_users_csv_imports_alike(tmp_path):
    builder = school_zip(version="1.1")
    assert "role" in header(builder.build(), "users.csv")
    output = run(tmp_path, builder)
    assert "created: 1 class, 3 enrolments, 3 students, 1 teacher" in output
    assert "refused: 0 lines" in output


def test_nothing_of_a_childs_e_mail_ids_password_birth_date_or_demographics_is_stored(tmp_path):
    """Every row of every table after the import, as text: none of what the files say of a
    child beyond their name (docs/oneroster.md, "What is stored")."""
    run(tmp_path, school_zip())
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    stored = dump.getvalue()
    assert "Ana L\\u00f3pez, Jr." in stored or "Ana López, Jr." in stored  # the name is kept
    assert "marta.ruiz@hill.example" in stored  # a teacher signs in with their e-mail
    for secret in (
        "ana@kids.example",  # a child's e-mail
        "ana.lopez7",  # username
        "900417",  # identifier
        "STATE-55501",  # userMasterIdentifier
        "555 010",  # phone, sms
        "Kitten-42",  # the SIS's password
        "she/her",  # pronouns
        "allergic",  # an extension column
        "2016-07-13",  # demographics: birth date
        "Guadalajara",  # demographics: city of birth
        "ana.reads",  # userProfiles.csv: another application's username
        "Puppy-77",  # ... and its password
    ):
        assert secret not in stored, secret


def test_a_delta_of_users_without_roles_renames_a_child(tmp_path):
    """A 1.2 delta sends a changed user in users.csv, and roles.csv only if a role changed."""
    run(tmp_path, school_zip())
    delta = OneRosterZip().add(
        "users.csv", [user("u2", "Benjamin", "Okafor")], "delta", roles=False
    )

    output = run(tmp_path, delta, name="delta.zip")

    assert "refused: 0 lines" in output
    assert "updated: 1 student" in output
    assert User.objects.filter(display_name="Benjamin Okafor", role=Role.STUDENT).exists()


def test_a_role_that_is_not_oneroster_is_named_at_its_line_of_roles_csv(tmp_path):
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example"),
        user("u1", "Ana", "López"),
        user("u2", "Ben", "Okafor", "techer"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher"),
        enrol("e-u1", "c1", "u1"),
        enrol("e-u2", "c1", "u2"),
    ]
    output = run(tmp_path, school_zip(users=users, enrollments=enrolments), "--dry-run")
    refused = [line.strip() for line in output.splitlines() if line.startswith("  ")]
    assert refused == [
        "enrollments.csv line 4: the user u2 was refused (see users.csv).",
        "roles.csv line 4: the role “techer” is not a OneRoster role.",
        "users.csv line 4: the user's role was refused (see roles.csv line 4).",
    ]


def enabled_zip(**enabled):
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example",
             enabledUser=enabled.get("t1", "true")),
        user("u1", "Ana", "López", enabledUser=enabled.get("u1", "true")),
        user("u2", "Ben", "Okafor", enabledUser=enabled.get("u2", "TRUE")),
    ]  # fmt: skip
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher"),
        enrol("e-u1", "c1", "u1"),
        enrol("e-u2", "c1", "u2"),
    ]
    return school_zip(users=users, enrollments=enrolments)


def test_enabled_user_false_makes_no_account_for_a_new_child_and_refuses_other_values(tmp_path):
    output = run(tmp_path, enabled_zip(u1="false", u2="yes"))

    assert "created: 1 class, 1 teacher" in output
    refused = [line.strip() for line in output.splitlines() if line.startswith("  ")]
    assert refused == [
        "enrollments.csv line 4: the user u2 was refused (see users.csv).",
        "users.csv line 4: enabledUser is “yes”, neither true nor false.",
    ]
    assert "left out: 2 rows" in output  # Ana, and her enrolment: she may not sign in
    assert not User.objects.filter(role=Role.STUDENT).exists()


def test_a_new_teacher_who_may_not_sign_in_gets_no_account(tmp_path):
    output = run(tmp_path, enabled_zip(t1="false"))
    refused = [line.strip() for line in output.splitlines() if line.startswith("  ")]
    assert refused[:2] == [
        "classes.csv line 2: the class has no teacher to import: its teacher t1 was refused (see "
        "enrollments.csv line 2).",
        "enrollments.csv line 2: the user t1 was refused (see users.csv).",
    ]
    assert (
        "users.csv line 2: enabledUser is false: no account is made for a teacher who may not "
        "sign in." in refused
    )
    assert counts()[:3] == (0, 0, 0)


def test_a_child_disabled_in_a_delta_cannot_sign_in_keeps_their_history_and_comes_back(
    tmp_path, client
):
    run(tmp_path, enabled_zip())
    ana = User.objects.get(display_name="Ana López")
    make_attempts(ana, [(3, "+", 4, 7, 1500)])
    off = OneRosterZip().add(
        "users.csv", [user("u1", "Ana", "López", enabledUser="false")], "delta", roles=False
    )

    output = run(tmp_path, off, name="delta.zip")

    assert "updated: 1 student" in output
    ana.refresh_from_db()
    assert not ana.is_active  # the sign-in page no longer lists her, nor takes her secret
    assert Attempt.objects.filter(user=ana).count() == 1
    assert Enrollment.objects.filter(student=ana).exists()
    classroom = Classroom.objects.get()
    names = reverse("classroom:student_login_roster", args=[classroom.code])
    page = client.get(names).content.decode()
    assert "Ana López" not in page and "Ben Okafor" in page
    client.force_login(classroom.teacher)
    page = client.get(reverse("classroom:roster_class", args=[classroom.pk])).content.decode()
    assert "Ana López" in page and "Sign-in turned off" in page  # her teacher still sees her
    client.logout()
    assert "updated: nothing" in run(tmp_path, off, name="delta.zip")  # the same again

    on = OneRosterZip().add(
        "users.csv", [user("u1", "Ana", "López", enabledUser="true")], "delta", roles=False
    )
    assert "updated: 1 student" in run(tmp_path, on, name="delta.zip")
    ana.refresh_from_db()
    assert ana.is_active


def test_a_teacher_disabled_in_a_delta_is_kept(tmp_path):
    run(tmp_path, enabled_zip())
    off = OneRosterZip().add(
        "users.csv",
        [user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example", enabledUser="false")],
        "delta",
        roles=False,
    )
    output = run(tmp_path, off, name="delta.zip")
    assert (
        "users.csv line 2: the teacher is kept: a teacher's account is closed here, not by an "
        "import." in output
    )
    assert User.objects.get(role=Role.TEACHER).is_active


def test_tobedeleted_on_every_file_of_a_delta(tmp_path):
    """What each kind of deleted row does: orgs, terms, courses, roles, demographics and user
    profiles are not stored (nothing to do, nothing refused); an enrolment or a child ends in
    the class; a class or a teacher is kept and named; a class's new teacher takes it."""
    run(tmp_path, school_zip())
    ben = User.objects.get(display_name="Ben Okafor")
    make_attempts(ben, [(3, "+", 4, 7, 1500)])
    gone = {"status": "tobedeleted", "dateLastModified": "2026-10-01T08:00:00.000Z"}
    delta = (
        OneRosterZip()
        .add("orgs.csv", [{"sourcedId": "d1", **gone}], "delta")
        .add("academicSessions.csv", [{"sourcedId": "y26", **gone}], "delta")
        .add("courses.csv", [{"sourcedId": "math3", **gone}], "delta")
        .add("classes.csv", [{"sourcedId": "c1", **gone}], "delta")
        .add(
            "users.csv",
            [
                {"sourcedId": "u3", **gone},
                user("t2", "Tom", "Lee", "teacher", email="tom@hill.example"),
            ],
            "delta",
        )
        .add("roles.csv", [{"sourcedId": "role-9", **gone}], "delta")
        .add(
            "enrollments.csv",
            [
                {"sourcedId": "e-u2", **gone},
                {"sourcedId": "e-t1", **gone},
                enrol("e-t2", "c1", "t2", "teacher", primary="true"),
            ],
            "delta",
        )
        .add("demographics.csv", [{"sourcedId": "u1", **gone}], "delta")
        .add("userProfiles.csv", [{"sourcedId": "p1", **gone}], "delta")
    )

    output = run(tmp_path, delta, name="delta.zip")

    refused = [line.strip() for line in output.splitlines() if line.startswith("  ")]
    assert refused == [
        "classes.csv line 2: the class is kept: a class and its history are deleted here by its "
        "teacher, not by an import."
    ]
    assert "dropped: 2 enrolments" in output
    classroom = Classroom.objects.get()
    assert classroom.teacher.email == "tom@hill.example"
    roster = set(classroom.enrollments.values_list("student__display_name", flat=True))
    assert roster == {"Ana López, Jr."}
    assert Attempt.objects.filter(user=ben).count() == 1  # Ben left the class, not his answers
    assert User.objects.filter(email="marta.ruiz@hill.example").exists()
    again = run(tmp_path, delta, name="delta.zip")
    assert "created: nothing" in again and "updated: nothing" in again
    assert "dropped: nothing" in again


def test_verbose_output_names_each_change(tmp_path):
    path = tmp_path / "roster.zip"
    path.write_bytes(school_zip().build())
    out = io.StringIO()
    call_command("import_oneroster", str(path), "--dry-run", "-v", "2", stdout=out)
    lines = [line.strip() for line in out.getvalue().splitlines()]
    assert "class c1 (Math 3, room 2 Hill)" in lines
    assert "teacher t1 (Marta Ruiz)" in lines
    assert "student u3 (Carlita Díaz)" in lines
    assert "enrolment e-u1 (u1 in c1)" in lines


def test_roles_statuses_and_role_types_are_read_whatever_their_capitals(tmp_path):
    """Some systems write "Student", "Active" or "Primary": the standard's words, read as such."""
    users = [
        user("t1", "Marta", "Ruiz", "Teacher", email="marta@hill.example"),
        user("u1", "Ana", "López", "STUDENT", status="Active"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "Teacher", primary="TRUE"),
        enrol("e-u1", "c1", "u1", "Student", status="ACTIVE"),
    ]
    builder = school_zip(users=users, enrollments=enrolments)
    roles = builder.written_files()["roles.csv"][2]
    for role in roles:
        role["roleType"] = "Primary"
    builder.add("roles.csv", roles)

    output = run(tmp_path, builder)

    assert "refused: 0 lines" in output
    assert "created: 1 class, 1 enrolment, 1 student, 1 teacher" in output


def test_a_teacher_enrolled_twice_in_a_class_is_its_one_teacher(tmp_path):
    users = [
        user("t1", "Marta", "Ruiz", "teacher", email="marta@hill.example"),
        user("u1", "Ana", "López"),
    ]
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher", primary="true"),
        enrol("e-t1-again", "c1", "t1", "teacher", primary="false"),
        enrol("e-u1", "c1", "u1"),
    ]
    output = run(tmp_path, school_zip(users=users, enrollments=enrolments))
    assert "refused: 0 lines" in output
    assert Classroom.objects.get().teacher.email == "marta@hill.example"


def test_a_class_whose_teacher_was_refused_says_which_line_to_look_at(tmp_path):
    users = [user("t1", "Marta", "Ruiz", "teacher"), user("u1", "Ana", "López")]  # no e-mail
    enrolments = [enrol("e-t1", "c1", "t1", "teacher"), enrol("e-u1", "c1", "u1")]
    output = run(tmp_path, school_zip(users=users, enrollments=enrolments), "--dry-run")
    assert (
        "classes.csv line 2: the class has no teacher to import: its teacher t1 was refused (see "
        "enrollments.csv line 2)." in output
    )


def test_the_command_names_children_left_out_as_they_may_not_sign_in(tmp_path):
    output = run(tmp_path, enabled_zip(u1="false"))
    assert "left out: 2 rows not needed here (other roles, users who may not sign in " in output


def test_a_zip_made_on_a_mac_from_a_folder_reads_alike(tmp_path):
    """A district's IT zips the export's folder on a Mac: the files sit in it, and __MACOSX holds
    a ._ copy of each file's metadata, which is no file of the export."""
    path = tmp_path / "folder.zip"
    path.write_bytes(school_zip().build(folder="lakeside_export"))
    out = io.StringIO()
    call_command("import_oneroster", str(path), stdout=out)
    assert "created: 1 class, 3 enrolments, 3 students, 1 teacher" in out.getvalue()
    assert (
        "Not read (this platform does not need them): demographics.csv, district-notes.txt, "
        "userProfiles.csv." in out.getvalue()
    )
    assert "._" not in out.getvalue()


def test_the_command_counts_one_line_and_no_new_child_in_words(tmp_path):
    """What a district's IT reads at the end of a run: "1 line", not "1 lines"; "no new
    children" when a second run made none, not "0 new children: print their login cards"."""
    enrolments = [
        enrol("e-t1", "c1", "t1", "teacher", primary="true"),
        enrol("e-u1", "c1", "u1"),
        enrol("e-u2", "c9", "u2"),  # a class the zip does not have
    ]
    output = run(tmp_path, school_zip(enrollments=enrolments))
    assert "refused: 1 line\n" in output
    assert "done. 1 new child: print their login card from their class's page." in output

    again = run(tmp_path, school_zip(enrollments=enrolments))
    assert "created: nothing" in again
    assert again.splitlines()[-1] == "done. No new children."
