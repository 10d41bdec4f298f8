"""Failed logins are throttled per account and per address (django-axes)."""

import pytest
from django.urls import reverse

from tests.factories import TEACHER_PASSWORD, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def low_limit(settings):
    settings.AXES_FAILURE_LIMIT = 3


def student_post(client, classroom, student, secret, ip="10.0.0.1"):
    url = reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": student.pk}
    )
    return client.post(url, {"secret": secret}, REMOTE_ADDR=ip)


def test_student_account_is_locked_after_repeated_failures_even_from_new_addresses(client):
    classroom = make_class()
    ben = make_student(classroom, name="Ben", secret="2468")
    for i in range(2):
        assert student_post(client, classroom, ben, "0000", ip=f"10.0.0.{i + 1}").status_code == 200
    # The failure that reaches the limit is answered with the lockout page.
    assert student_post(client, classroom, ben, "0000", ip="10.0.0.3").status_code == 429
    response = student_post(client, classroom, ben, "2468", ip="10.0.9.9")
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session
    assert b"Too many tries" in response.content


def test_address_is_locked_after_failures_across_accounts(client):
    classroom = make_class()
    students = [make_student(classroom, name=f"S{i}", secret="2468") for i in range(4)]
    for student in students[:3]:
        student_post(client, classroom, student, "9999", ip="10.1.1.1")
    # Right secret of a fourth account, same address: still refused.
    assert student_post(client, classroom, students[3], "2468", ip="10.1.1.1").status_code == 429
    # The same account from another address is fine.
    assert student_post(client, classroom, students[3], "2468", ip="10.2.2.2").status_code == 302


def test_teacher_login_is_throttled_too(client):
    make_teacher(email="t@example.org")
    for _ in range(3):
        client.post(
            reverse("accounts:login"),
            {"username": "t@example.org", "password": "nope"},
            REMOTE_ADDR="10.3.3.3",
        )
    response = client.post(
        reverse("accounts:login"),
        {"username": "t@example.org", "password": TEACHER_PASSWORD},
        REMOTE_ADDR="10.4.4.4",
    )
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_success_clears_the_failures(client):
    classroom = make_class()
    ben = make_student(classroom, name="Ben", secret="2468")
    for _ in range(2):
        student_post(client, classroom, ben, "0000")
    assert student_post(client, classroom, ben, "2468").status_code == 302
    client.logout()
    for _ in range(2):
        student_post(client, classroom, ben, "0000")
    assert student_post(client, classroom, ben, "2468").status_code == 302
