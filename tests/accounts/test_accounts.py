import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts.models import Role
from tests.factories import TEACHER_PASSWORD, make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_signup_creates_a_teacher_and_signs_them_in(client):
    response = client.post(
        reverse("accounts:signup"),
        {
            "display_name": "Ms. Rivera",
            "email": "Rivera@School.example",
            "password1": "counting-sheep-77",
            "password2": "counting-sheep-77",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:teacher_home")
    teacher = User.objects.get(username="rivera@school.example")
    assert teacher.role == Role.TEACHER
    assert teacher.email == "rivera@school.example"
    assert client.get(reverse("classroom:teacher_home")).status_code == 200


def test_signup_refuses_a_taken_email_and_weak_or_mismatched_passwords(client):
    make_teacher(email="taken@example.org")
    response = client.post(
        reverse("accounts:signup"),
        {"display_name": "X", "email": "TAKEN@example.org", "password1": "abc", "password2": "abd"},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "email" in form.errors
    assert "password2" in form.errors
    response = client.post(
        reverse("accounts:signup"),
        {"display_name": "X", "email": "new@example.org", "password1": "123", "password2": "123"},
    )
    assert "password1" in response.context["form"].errors
    assert User.objects.filter(role=Role.TEACHER).count() == 1


def test_teacher_logs_in_with_email_and_password_and_out_again(client):
    make_teacher(email="t@example.org")
    response = client.post(
        reverse("accounts:login"), {"username": "T@Example.org", "password": TEACHER_PASSWORD}
    )
    assert response.status_code == 302
    assert client.get(reverse("classroom:teacher_home")).status_code == 200
    client.post(reverse("accounts:logout"))
    assert client.get(reverse("classroom:teacher_home")).status_code == 302


@pytest.mark.parametrize(
    "data",
    [
        {"username": "t@example.org", "password": "wrong"},
        {"username": "nobody@example.org", "password": TEACHER_PASSWORD},
        {"username": "not an email", "password": "x"},
        {"username": "", "password": ""},
        {"username": "t@example.org" * 40, "password": "x" * 5000},
    ],
)
def test_bad_teacher_login_input_is_refused_with_a_message(client, data):
    make_teacher(email="t@example.org")
    response = client.post(reverse("accounts:login"), data)
    assert response.status_code == 200
    assert response.context["form"].errors
    assert "_auth_user_id" not in client.session


def test_a_student_cannot_use_the_teacher_login(client):
    student = make_student(make_class())
    student.set_password("student-password-1")
    student.save()
    response = client.post(
        reverse("accounts:login"), {"username": student.username, "password": "student-password-1"}
    )
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_password_change(client):
    teacher = make_teacher()
    client.force_login(teacher)
    response = client.post(
        reverse("accounts:password_change"),
        {
            "old_password": TEACHER_PASSWORD,
            "new_password1": "another-long-password-9",
            "new_password2": "another-long-password-9",
        },
    )
    assert response.status_code == 302
    teacher.refresh_from_db()
    assert teacher.check_password("another-long-password-9")


def test_password_reset_sends_a_link_that_sets_a_new_password(client):
    teacher = make_teacher(email="reset@example.org")
    response = client.post(reverse("accounts:password_reset"), {"email": "reset@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/password/reset/" in line)
    path = link.split("://", 1)[1].split("/", 1)[1]
    response = client.get("/" + path, follow=True)
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "fresh-start-2026!", "new_password2": "fresh-start-2026!"}
    )
    assert response.status_code == 302
    teacher.refresh_from_db()
    assert teacher.check_password("fresh-start-2026!")


def test_password_reset_says_nothing_about_unknown_addresses(client):
    response = client.post(reverse("accounts:password_reset"), {"email": "ghost@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_students_have_no_email_and_no_usable_password():
    student = make_student(make_class())
    assert student.email == ""
    assert not student.has_usable_password()
    assert student.role == Role.STUDENT
