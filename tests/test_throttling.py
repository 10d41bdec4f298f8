"""Sign-in throttling for a school behind one address (docs/security.md).

django-axes locks an account at one address; hourly budgets bound the failures from one address,
the guesses at one class's children, and the wrong class codes from one address."""

import pytest
from django.urls import reverse

from tests.factories import TEACHER_PASSWORD, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
SCHOOL = "10.0.0.1"


def secret_url(classroom, student):
    return reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": student.pk}
    )


def student_post(client, classroom, student, secret, ip=SCHOOL):
    client.logout()
    return client.post(secret_url(classroom, student), {"secret": secret}, REMOTE_ADDR=ip)


def signed_in(response) -> bool:
    return response.status_code == 302


def teacher_post(client, email, password, ip=SCHOOL):
    client.logout()
    return client.post(
        reverse("accounts:login"), {"username": email, "password": password}, REMOTE_ADDR=ip
    )


def test_a_class_of_30_behind_one_address_with_a_few_typos_each_all_sign_in(client):
    """The defaults: a whole class at one school address, each child missing 3 times."""
    classroom = make_class()
    teacher_email = classroom.teacher.email
    children = [make_student(classroom, f"Child {n:02d}", secret=f"{1000 + n}") for n in range(30)]
    # All at once, as in a lesson: the typos come before anyone is in.
    for typo in ("0000", "9999", "1111"):
        for child in children:
            assert student_post(client, classroom, child, typo).status_code == 200
    for n, child in enumerate(children):
        assert signed_in(student_post(client, classroom, child, f"{1000 + n}"))
    # ...and their teacher, at the same address, is not locked by their typos.
    assert signed_in(teacher_post(client, teacher_email, TEACHER_PASSWORD))


@pytest.fixture
def low_limits(settings):
    settings.AXES_FAILURE_LIMIT = 3


def test_wrong_pins_lock_only_that_child_and_only_at_that_address(client, low_limits):
    classroom = make_class()
    ben = make_student(classroom, "Ben", secret="2468")
    ana = make_student(classroom, "Ana", secret="1357")
    for _ in range(2):
        assert student_post(client, classroom, ben, "0000").status_code == 200
    assert student_post(client, classroom, ben, "0000").status_code == 429
    assert student_post(client, classroom, ben, "2468").status_code == 429  # locked here
    assert signed_in(student_post(client, classroom, ana, "1357"))  # a classmate is not
    assert signed_in(student_post(client, classroom, ben, "2468", ip="10.9.9.9"))  # nor at home


def test_a_teacher_is_locked_at_the_guessing_address_only(client, low_limits):
    make_teacher(email="t@example.org")
    for _ in range(3):
        teacher_post(client, "t@example.org", "nope", ip="203.0.113.7")
    assert (
        teacher_post(client, "t@example.org", TEACHER_PASSWORD, ip="203.0.113.7").status_code == 429
    )
    assert signed_in(teacher_post(client, "t@example.org", TEACHER_PASSWORD))


def test_guessing_across_a_class_from_many_addresses_hits_the_class_budget(client, settings):
    settings.SIGN_IN_GUESS_BUDGETS = {**settings.SIGN_IN_GUESS_BUDGETS, "class": 5}
    classroom = make_class()
    children = [make_student(classroom, f"Child {n}", secret=f"{2000 + n}") for n in range(5)]
    for n, child in enumerate(children):
        assert (
            student_post(client, classroom, child, "0000", ip=f"198.51.100.{n}").status_code == 200
        )
    # The class's hour is spent: no more guesses at its children, from anywhere.
    assert (
        student_post(client, classroom, children[0], "0001", ip="198.51.100.99").status_code == 429
    )
    # Another class is not affected.
    other = make_class(make_teacher())
    zoe = make_student(other, "Zoe", secret="4444")
    assert signed_in(student_post(client, other, zoe, "4444", ip="198.51.100.99"))


def test_an_address_that_sprays_failures_hits_its_budget(client, settings):
    settings.SIGN_IN_GUESS_BUDGETS = {**settings.SIGN_IN_GUESS_BUDGETS, "address": 4}
    make_teacher(email="t@example.org")
    classrooms = [make_class(make_teacher()) for _ in range(4)]
    for n, classroom in enumerate(classrooms):
        child = make_student(classroom, f"Child {n}", secret="2468")
        assert student_post(client, classroom, child, "0000", ip="192.0.2.1").status_code == 200
    late = make_student(classrooms[0], "Late", secret="1357")
    assert student_post(client, classrooms[0], late, "1357", ip="192.0.2.1").status_code == 429
    assert (
        teacher_post(client, "t@example.org", TEACHER_PASSWORD, ip="192.0.2.1").status_code == 429
    )
    assert signed_in(student_post(client, classrooms[0], late, "1357", ip="192.0.2.2"))


def test_the_class_code_step_is_throttled_per_address(client, settings):
    settings.SIGN_IN_GUESS_BUDGETS = {**settings.SIGN_IN_GUESS_BUDGETS, "class_code": 3}
    classroom = make_class()
    code_url = reverse("classroom:student_login")
    for wrong in ("AAAAAA", "BBBBBB"):
        response = client.post(code_url, {"code": wrong}, REMOTE_ADDR="192.0.2.5")
        assert response.status_code == 200 and b"No class has that code" in response.content
    # A code tried in the address bar (the roster of names) counts too.
    roster = reverse("classroom:student_login_roster", kwargs={"code": "CCCCCC"})
    assert client.get(roster, REMOTE_ADDR="192.0.2.5").status_code == 404
    # Spent: even the right code, and the roster page, wait an hour from this address.
    assert (
        client.post(code_url, {"code": classroom.code}, REMOTE_ADDR="192.0.2.5").status_code == 429
    )
    right_roster = reverse("classroom:student_login_roster", kwargs={"code": classroom.code})
    assert client.get(right_roster, REMOTE_ADDR="192.0.2.5").status_code == 429
    # Another address is not affected.
    assert (
        client.post(code_url, {"code": classroom.code}, REMOTE_ADDR="192.0.2.6").status_code == 302
    )


def test_a_success_clears_the_failures(client, low_limits):
    classroom = make_class()
    ben = make_student(classroom, name="Ben", secret="2468")
    for _ in range(2):
        student_post(client, classroom, ben, "0000")
    assert signed_in(student_post(client, classroom, ben, "2468"))
    for _ in range(2):
        student_post(client, classroom, ben, "0000")
    assert signed_in(student_post(client, classroom, ben, "2468"))
