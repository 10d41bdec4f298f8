"""The class hub, renaming and deleting a class, adding students, their names and secrets."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import SecretKind
from classroom.models import Classroom, Enrollment, LoginCard
from classroom.roster import selectors
from classroom.roster.student_secrets import Secret, generate_secret, parse_secret
from tests.classroom.roster_helpers import give_homework, join_session, record_attempts
from tests.factories import make_class, make_match, make_student, make_teacher

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def teacher():
    return make_teacher(name="Ms. Roster")


@pytest.fixture
def classroom(teacher):
    return make_class(teacher, name="Class 3B")


@pytest.fixture
def teacher_client(client, teacher):
    client.force_login(teacher)
    return client


def url(name, classroom, student=None, **kwargs):
    kwargs["classroom_id"] = classroom.pk
    if student is not None:
        kwargs["student_id"] = student.pk
    return reverse(f"classroom:{name}", kwargs=kwargs)


def signs_in(client, classroom, student, secret) -> bool:
    client.logout()
    response = client.post(
        reverse(
            "classroom:student_login_secret",
            kwargs={"code": classroom.code, "student_id": student.pk},
        ),
        {"secret": secret},
    )
    return response.status_code == 302 and client.session.get("_auth_user_id") == str(student.pk)


def add(teacher_client, classroom, name, kind="picture", secret=""):
    return teacher_client.post(
        url("roster_student_add", classroom), {"name": name, "kind": kind, "secret": secret}
    )


# --- the hub -------------------------------------------------------------------------------------


def test_class_page_shows_code_roster_and_the_ways_to_the_other_parts(teacher_client, classroom):
    make_student(classroom, name="Zoe")
    make_student(classroom, name="Ana", kind="picture", secret="cat-sun-star")
    response = teacher_client.get(url("roster_class", classroom))
    content = response.content.decode()
    assert response.status_code == 200
    assert classroom.code in content
    assert [row["student"].display_name for row in response.context["rows"]] == ["Ana", "Zoe"]
    for name in ("roster_student_add", "roster_import", "roster_cards", "roster_class_edit"):
        assert url(name, classroom) in content
    assert 'class="class-nav"' in content  # where sessions, homework, analytics and reports link


def test_every_part_of_a_class_reaches_the_others_and_marks_itself(teacher_client, classroom):
    parts = {
        reverse("classroom:roster_class", kwargs={"classroom_id": classroom.pk}): "Students",
        reverse("classroom:sessions_list", kwargs={"classroom_id": classroom.pk}): "Game sessions",
        reverse("classroom:homework_list", kwargs={"classroom_id": classroom.pk}): "Homework",
        reverse("classroom:progress_class", kwargs={"classroom_id": classroom.pk}): "Progress",
        reverse("classroom:progress_class_facts", args=[classroom.pk]): "Fact grids",
        reverse("classroom:progress_class_activity", args=[classroom.pk]): "Games and time",
        reverse("classroom:access_class_log", kwargs={"classroom_id": classroom.pk}): "Who looked",
        reverse("classroom:oneroster_gradebook", args=[classroom.pk]): "OneRoster results",
    }
    for page, name in parts.items():
        html = teacher_client.get(page).content.decode()
        nav = re.search(r'<nav class="class-nav".*?</nav>', html, re.S).group(0)
        assert re.findall(r'href="([^"]+)"', nav)[1:] == list(parts)  # after the class's title
        assert re.findall(r'aria-current="page">([^<]+)<', nav) == [name]


def test_teacher_home_links_each_class_to_its_page(teacher_client, classroom):
    content = teacher_client.get(reverse("classroom:teacher_home")).content.decode()
    assert url("roster_class", classroom) in content


def test_class_page_of_an_empty_class_says_what_to_do(teacher_client, classroom):
    content = teacher_client.get(url("roster_class", classroom)).content.decode()
    assert "No students yet" in content
    assert url("roster_cards", classroom) not in content


def test_rename_the_class(teacher_client, classroom):
    response = teacher_client.post(url("roster_class_edit", classroom), {"name": "  Class 3C "})
    assert response.status_code == 302
    classroom.refresh_from_db()
    assert classroom.name == "Class 3C"
    response = teacher_client.post(url("roster_class_edit", classroom), {"name": ""})
    assert response.status_code == 200 and response.context["form"].errors
    classroom.refresh_from_db()
    assert classroom.name == "Class 3C"


def test_deleting_a_class_asks_first_then_deletes_it_and_its_only_students(
    teacher_client, teacher, classroom
):
    ana = make_student(classroom, name="Ana")
    ben = make_student(classroom, name="Ben")
    other = make_class(teacher, name="Chess club")
    Enrollment.objects.create(classroom=other, student=ben)
    record_attempts(make_match(players=[ana], bots=["easy"]), ana)

    page = teacher_client.get(url("roster_class_delete", classroom))
    assert page.status_code == 200
    deletion = page.context["deletion"]
    assert (deletion.students, deletion.students_deleted, deletion.students_kept) == (2, 1, 1)
    assert Classroom.objects.filter(pk=classroom.pk).exists()  # the GET changed nothing

    response = teacher_client.post(url("roster_class_delete", classroom))
    assert response["Location"] == reverse("classroom:teacher_home")
    assert not Classroom.objects.filter(pk=classroom.pk).exists()
    assert not User.objects.filter(pk=ana.pk).exists()  # her only class: nobody could sign in
    assert list(ben.enrollments.values_list("classroom", flat=True)) == [other.pk]


# --- adding students -----------------------------------------------------------------------------


def test_add_a_student_with_a_pin_they_can_sign_in_with(teacher_client, classroom):
    response = add(teacher_client, classroom, "Ben", kind="pin", secret="2468")
    ben = User.objects.get(display_name="Ben")
    assert response["Location"] == url("roster_student", classroom, ben) + "?added=1"
    assert ben.enrollments.get().classroom == classroom
    # The page that shows the new student's secret offers the next one at once.
    page = teacher_client.get(response["Location"]).content.decode()
    assert "Add another student" in page and url("roster_student_add", classroom) in page
    again = teacher_client.get(url("roster_student", classroom, ben)).content.decode()
    assert "Add another student" not in again
    assert signs_in(teacher_client, classroom, ben, "2468")


def test_add_a_student_with_pictures_named_in_either_language(teacher_client, classroom):
    add(teacher_client, classroom, "Ana", kind="picture", secret="Gato, SOL 🌳")
    ana = User.objects.get(display_name="Ana")
    assert ana.secret_kind == SecretKind.PICTURE
    assert signs_in(teacher_client, classroom, ana, "cat-sun-tree")


@pytest.mark.parametrize("kind", ["picture", "pin"])
def test_add_a_student_without_a_secret_generates_one_shown_on_their_page(
    teacher_client, classroom, kind
):
    add(teacher_client, classroom, "Eva", kind=kind)
    eva = User.objects.get(display_name="Eva")
    assert eva.secret_kind == kind
    page = teacher_client.get(url("roster_student", classroom, eva))
    secret = page.context["secret"]
    assert secret.kind == kind
    content = page.content.decode()
    assert all(label in content for label in secret.spoken().split(", "))
    assert signs_in(teacher_client, classroom, eva, secret.value)


@pytest.mark.parametrize(
    ("kind", "secret", "message"),
    [
        ("pin", "12", "A PIN is 4 to 6 digits"),
        ("pin", "12ab", "A PIN is 4 to 6 digits"),
        ("picture", "cat sun unicorn", "Unknown picture: unicorn"),
        ("picture", "cat sun", "3 to 5 pictures"),
        ("picture", "cat dog fish apple star sun", "3 to 5 pictures"),
    ],
)
def test_a_wrong_secret_is_refused_and_nothing_is_added(
    teacher_client, classroom, kind, secret, message
):
    response = add(teacher_client, classroom, "Dan", kind=kind, secret=secret)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(display_name="Dan").exists()


@pytest.mark.parametrize("typed", ["ana", "  ANA ", "Ana"])
def test_a_name_already_in_the_class_is_refused(teacher_client, classroom, typed):
    make_student(classroom, name="Ana")
    response = add(teacher_client, classroom, typed)
    assert response.status_code == 200
    assert "already in this class" in response.content.decode()
    assert classroom.enrollments.count() == 1


def test_the_same_name_in_another_class_is_fine(teacher_client, classroom):
    make_student(make_class(name="Other"), name="Ana")
    add(teacher_client, classroom, "Ana")
    assert classroom.enrollments.count() == 1


# --- one student: name and secret ----------------------------------------------------------------


def test_rename_a_student(teacher_client, classroom):
    ana = make_student(classroom, name="Ana")
    make_student(classroom, name="Ben")
    response = teacher_client.post(url("roster_student_rename", classroom, ana), {"name": "Ana M"})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert ana.display_name == "Ana M"
    refused = teacher_client.post(url("roster_student_rename", classroom, ana), {"name": "ben"})
    assert refused.status_code == 400
    ana.refresh_from_db()
    assert ana.display_name == "Ana M"
    # Keeping one's own name (in another case) is not a clash.
    teacher_client.post(url("roster_student_rename", classroom, ana), {"name": "ANA M"})
    ana.refresh_from_db()
    assert ana.display_name == "ANA M"


def test_reset_a_secret_the_old_one_stops_working(teacher_client, classroom):
    ana = make_student(classroom, name="Ana", kind="pin", secret="4321")
    response = teacher_client.post(
        url("roster_student_secret", classroom, ana), {"kind": "picture", "secret": "dog ball car"}
    )
    assert response.status_code == 302
    ana.refresh_from_db()
    assert not signs_in(teacher_client, classroom, ana, "4321")
    assert signs_in(teacher_client, classroom, ana, "dog-ball-car")


def test_reset_to_a_generated_secret(teacher_client, classroom):
    ana = make_student(classroom, name="Ana", kind="pin", secret="4321")
    teacher_client.post(url("roster_student_secret", classroom, ana), {"kind": "pin", "secret": ""})
    ana.refresh_from_db()
    secret = selectors.card_secret(ana)
    assert secret.is_pin and secret.value != "4321"
    assert signs_in(teacher_client, classroom, ana, secret.value)


def test_a_bad_secret_keeps_the_old_one(teacher_client, classroom):
    ana = make_student(classroom, name="Ana", kind="pin", secret="4321")
    response = teacher_client.post(
        url("roster_student_secret", classroom, ana), {"kind": "pin", "secret": "1"}
    )
    assert response.status_code == 400
    assert signs_in(teacher_client, classroom, ana, "4321")


def test_a_secret_set_elsewhere_is_never_printed_stale(teacher_client, classroom):
    """The card copy belongs to the hash it was made with; another path makes it stale."""
    add(teacher_client, classroom, "Ana", kind="pin", secret="1357")
    ana = User.objects.get(display_name="Ana")
    assert selectors.card_secret(ana) == Secret("pin", "1357")
    ana.set_student_secret("pin", "8642")
    ana.save()
    ana = selectors.class_student(classroom=classroom, student_id=ana.pk)
    assert LoginCard.objects.filter(student=ana).exists()
    assert selectors.card_secret(ana) is None
    page = teacher_client.get(url("roster_student", classroom, ana)).content.decode()
    assert "1357" not in page and "cannot be shown" in page


def test_student_page_shows_secret_only_inside_a_disclosure(teacher_client, classroom):
    add(teacher_client, classroom, "Ana", kind="pin", secret="1357")
    ana = User.objects.get(display_name="Ana")
    content = teacher_client.get(url("roster_student", classroom, ana)).content.decode()
    # Teachers project their screens: the secret waits behind a click.
    assert content.index("<details") < content.index("1357")
    hub = teacher_client.get(url("roster_class", classroom)).content.decode()
    assert "1357" not in hub


# --- the secrets module --------------------------------------------------------------------------


def test_generated_secrets_are_valid_and_not_trivial():
    for _ in range(200):
        pin = generate_secret("pin")
        assert parse_secret("pin", pin.value) == pin
        assert pin.value not in {"0000", "1111", "1234", "4321", "0123", "9876"}
        pictures = generate_secret("picture")
        keys = pictures.value.split("-")
        assert len(keys) == 3 == len(set(keys))
        assert parse_secret("picture", pictures.value) == pictures


def test_delete_page_lists_what_goes(teacher_client, classroom):
    ana = make_student(classroom, name="Ana")
    ben = make_student(classroom, name="Ben")
    record_attempts(make_match(players=[ana, ben]), ana, count=4)
    record_attempts(make_match(players=[ana], bots=["easy"]), ana, count=2)
    join_session(classroom, ana)
    give_homework(classroom, ana)
    page = teacher_client.get(url("roster_student_delete", classroom, ana))
    deletion = page.context["deletion"]
    assert (deletion.attempts, deletion.own_matches, deletion.shared_matches) == (6, 2, 1)
    assert (deletion.lobby_visits, deletion.homework_items) == (1, 1)
    content = page.content.decode()
    assert "6 recorded answers" in content
    assert "2 games of their own" in content


def test_the_demo_class_prints_every_demo_students_secret():
    from classroom.demo import DEMO_STUDENTS, seed_demo

    classroom = seed_demo()
    seed_demo()  # again: safe, and the cards stay current
    printed = {
        s.display_name: selectors.card_secret(s)
        for s in selectors.class_students(classroom=classroom)
    }
    assert printed == {name: Secret(kind, secret) for name, kind, secret in DEMO_STUDENTS}


# --- the secret's kind and its own field (issue "The live lesson, second pass") ------------------


def test_digits_typed_as_a_picture_password_get_a_clear_message(teacher_client, classroom):
    response = add(teacher_client, classroom, "Dan", kind="picture", secret="4321")
    content = response.content.decode()
    assert response.status_code == 200
    assert "Unknown picture" not in content
    assert "is digits, not pictures" in content and "choose “PIN”" in content
    assert not User.objects.filter(display_name="Dan").exists()


def test_digits_typed_as_a_picture_password_are_explained_in_spanish(teacher_client, classroom):
    response = teacher_client.post(
        url("roster_student_add", classroom),
        {"name": "Dan", "kind": "picture", "secret": "4321"},
        HTTP_ACCEPT_LANGUAGE="es",
    )
    content = response.content.decode()
    assert "son cifras, no dibujos" in content
    assert "Unknown picture" not in content and "Dibujo desconocido" not in content


def test_a_pin_goes_in_its_own_field(teacher_client, classroom):
    response = teacher_client.post(
        url("roster_student_add", classroom),
        {"name": "Ben", "kind": "pin", "secret": "", "pin": "2468"},
    )
    assert response.status_code == 302
    ben = User.objects.get(display_name="Ben")
    assert ben.secret_kind == SecretKind.PIN
    assert signs_in(teacher_client, classroom, ben, "2468")


def test_a_pin_typed_while_pictures_are_chosen_is_refused_clearly(teacher_client, classroom):
    """Without scripts both fields show: a PIN under "Picture password" chosen is not ignored."""
    response = teacher_client.post(
        url("roster_student_add", classroom),
        {"name": "Ben", "kind": "picture", "secret": "", "pin": "2468"},
    )
    assert response.status_code == 200
    assert "You chose a picture password" in response.content.decode()
    assert not User.objects.filter(display_name="Ben").exists()


def test_pictures_typed_as_a_pin_are_refused_clearly(teacher_client, classroom):
    ana = make_student(classroom, name="Ana", kind="pin", secret="4321")
    response = teacher_client.post(
        url("roster_student_secret", classroom, ana),
        {"kind": "pin", "secret": "cat sun star", "pin": ""},
    )
    assert response.status_code == 400
    assert "choose “Picture password”" in response.content.decode()
    assert signs_in(teacher_client, classroom, ana, "4321")


def test_the_add_page_keeps_the_picker_with_the_pictures_and_the_pin_apart(
    teacher_client, classroom
):
    content = teacher_client.get(url("roster_student_add", classroom)).content.decode()
    picture_part = content.split('data-secret-for="picture"')[1].split("data-secret-for=")[0]
    pin_part = content.split('data-secret-for="pin"')[1]
    assert "data-picture-picker" in picture_part and 'name="secret"' in picture_part
    assert 'name="pin"' in pin_part and "data-picture-picker" not in pin_part
    assert 'inputmode="numeric"' in pin_part


def test_the_import_page_has_no_picker_only_the_names_of_the_pictures(teacher_client, classroom):
    content = teacher_client.get(url("roster_import", classroom)).content.decode()
    assert "data-picture-picker" not in content
    assert "Tap the pictures" not in content
    assert "The names of the pictures" in content
