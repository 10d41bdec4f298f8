from xml.etree import ElementTree

import pytest
from django.urls import reverse

from accounts.models import SecretKind
from accounts.pictures import PICTURES
from tests.factories import make_class, make_student, make_teacher

pytestmark = pytest.mark.django_db


@pytest.fixture
def classroom():
    return make_class(name="Class 2C")


def secret_url(classroom, student):
    return reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": student.pk}
    )


def test_class_codes_are_short_and_unambiguous(classroom):
    assert len(classroom.code) == 6
    assert not set(classroom.code) & set("0O1IL5S2Z")


def test_class_code_step_accepts_what_a_child_types(client, classroom):
    typed = classroom.code[:3].lower() + " - " + classroom.code[3:].lower()
    response = client.post(reverse("classroom:student_login"), {"code": typed})
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "classroom:student_login_roster", kwargs={"code": classroom.code}
    )


@pytest.mark.parametrize("typed", ["", "ZZZZZZ", "x" * 200, "<script>"])
def test_class_code_step_refuses_unknown_codes(client, classroom, typed):
    response = client.post(reverse("classroom:student_login"), {"code": typed})
    assert response.status_code == 200
    assert response.context["form"].errors


def test_roster_lists_the_class_names_only(client, classroom):
    make_student(classroom, name="Zoe")
    make_student(classroom, name="Ana")
    make_student(make_class(name="Other class"), name="Stranger")
    response = client.get(
        reverse("classroom:student_login_roster", kwargs={"code": classroom.code})
    )
    names = [e.student.display_name for e in response.context["roster"]]
    assert names == ["Ana", "Zoe"]
    assert b"Stranger" not in response.content


def test_unknown_class_roster_is_404(client):
    assert (
        client.get(reverse("classroom:student_login_roster", kwargs={"code": "QQQQQQ"})).status_code
        == 404
    )


def test_student_signs_in_with_a_pin(client, classroom):
    ben = make_student(classroom, name="Ben", kind=SecretKind.PIN, secret="2468")
    response = client.post(secret_url(classroom, ben), {"secret": "2468"})
    assert response.status_code == 302
    assert response["Location"] == reverse("classroom:student_home")
    assert client.session["_auth_user_id"] == str(ben.pk)
    assert b"Class 2C" in client.get(reverse("classroom:student_home")).content


def test_student_signs_in_with_a_picture_password(client, classroom):
    ana = make_student(classroom, name="Ana", kind=SecretKind.PICTURE, secret="cat-sun-star")
    response = client.post(secret_url(classroom, ana), {"secret": "cat-sun-star"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(ana.pk)


@pytest.mark.parametrize(
    "wrong", ["sun-cat-star", "cat-sun", "cat-sun-star-dog-fish-tree", "", "x" * 100, "1234"]
)
def test_wrong_picture_password_is_refused_kindly(client, classroom, wrong):
    ana = make_student(classroom, name="Ana", kind=SecretKind.PICTURE, secret="cat-sun-star")
    response = client.post(secret_url(classroom, ana), {"secret": wrong})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert response.context["form"].errors


def test_wrong_pin_is_refused(client, classroom):
    ben = make_student(classroom, name="Ben", kind=SecretKind.PIN, secret="2468")
    response = client.post(secret_url(classroom, ben), {"secret": "2469"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "PIN is not right" in response.content.decode()


def test_a_student_cannot_sign_in_through_another_class(client, classroom):
    other = make_class(name="Other")
    ben = make_student(other, name="Ben", secret="2468")
    assert client.get(secret_url(classroom, ben)).status_code == 404
    assert client.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 404
    assert "_auth_user_id" not in client.session


def test_a_teacher_is_not_on_the_roster(client, classroom):
    teacher = make_teacher(email="t2@example.org")
    assert client.get(secret_url(classroom, teacher)).status_code == 404


def test_deactivated_student_cannot_sign_in(client, classroom):
    ben = make_student(classroom, name="Ben", secret="2468")
    ben.is_active = False
    ben.save()
    assert client.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 404


def test_student_without_a_secret_is_told_to_ask_the_teacher(client, classroom):
    from classroom.services import classroom_add_student

    kim = classroom_add_student(classroom=classroom, display_name="Kim")
    response = client.get(secret_url(classroom, kim))
    assert b"Ask your teacher" in response.content
    assert client.post(secret_url(classroom, kim), {"secret": "1234"}).status_code == 200
    assert "_auth_user_id" not in client.session


def test_secrets_are_stored_hashed(classroom):
    ben = make_student(classroom, name="Ben", secret="2468")
    assert "2468" not in ben.secret_hash
    assert ben.check_student_secret("2468")
    assert ben.check_student_secret(" 2468 ")
    assert not ben.check_student_secret("8642")


def test_the_picture_grid_shows_the_drawn_pictures_with_their_names(client, classroom):
    ana = make_student(classroom, name="Ana", kind=SecretKind.PICTURE, secret="cat-sun-star")
    page = client.get(secret_url(classroom, ana)).content.decode()
    for key, (emoji, label) in PICTURES.items():
        assert f'aria-label="{label}"><img src="/accounts/pictures/{key}.svg" alt=""' in page
        assert emoji not in page


def test_each_picture_is_an_svg_a_browser_may_keep(client):
    drawings = set()
    for key in PICTURES:
        response = client.get(reverse("accounts:picture", kwargs={"key": key}))
        assert response.status_code == 200
        assert response["Content-Type"] == "image/svg+xml"
        assert "public" in response["Cache-Control"]
        root = ElementTree.fromstring(response.content)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.get("viewBox") == "0 0 100 100"
        drawings.add(response.content)
    assert len(drawings) == len(PICTURES)  # nine different pictures
    assert client.get("/accounts/pictures/unicorn.svg").status_code == 404
    assert client.post(reverse("accounts:picture", kwargs={"key": "cat"})).status_code == 405
