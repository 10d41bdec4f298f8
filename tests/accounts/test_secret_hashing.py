"""Children's secrets are stored as keyed hashes (accounts/secret_hashing.py, docs/security.md):
cheap to check, useless without the key, and the PBKDF2 hashes from before move over at the next
sign-in. tests/conftest.py narrows PASSWORD_HASHERS to MD5 for speed; the student hash does not
go through PASSWORD_HASHERS, so these tests exercise the real one."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.test import Client
from django.urls import reverse

from accounts.secret_hashing import ALGORITHM
from classroom.roster.cards import card_token
from classroom.roster.selectors import card_secret
from tests.factories import make_class, make_student

pytestmark = pytest.mark.django_db


def secret_url(classroom, student):
    return reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": student.pk}
    )


def stored_hash(student) -> str:
    return get_user_model().objects.get(pk=student.pk).secret_hash


def test_a_secret_is_stored_as_a_keyed_hash_whatever_the_password_hashers():
    ben = make_student(make_class(), "Ben", secret="2468")
    assert stored_hash(ben).startswith(f"{ALGORITHM}$")
    assert "2468" not in stored_hash(ben)


def test_two_children_with_the_same_pin_store_different_hashes():
    classroom = make_class()
    assert stored_hash(make_student(classroom, "Ana", secret="1234")) != stored_hash(
        make_student(classroom, "Ben", secret="1234")
    )


def test_a_stolen_database_without_the_key_tests_no_guess(settings):
    ben = make_student(make_class(), "Ben", secret="2468")
    assert ben.check_student_secret("2468")
    settings.STUDENT_SECRET_KEY = "the thief's guess at the key"
    assert not ben.check_student_secret("2468")


def test_a_rotated_secret_key_still_checks_and_moves_the_hash_to_the_new_key(settings, client):
    classroom = make_class()
    ben = make_student(classroom, "Ben", secret="2468")
    old_hash = stored_hash(ben)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a brand new secret key for the rotation test"
    assert client.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302
    assert stored_hash(ben) != old_hash
    settings.SECRET_KEY_FALLBACKS = []
    assert get_user_model().objects.get(pk=ben.pk).check_student_secret("2468")


@pytest.fixture
def pbkdf2_era_student(settings):
    """A child whose PIN was stored by Django's PBKDF2, as every secret was before."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    classroom = make_class()
    ben = make_student(classroom, "Ben", secret="2468")
    get_user_model().objects.filter(pk=ben.pk).update(secret_hash=make_password("pin:2468"))
    ben.refresh_from_db()
    assert ben.secret_hash.startswith("pbkdf2_sha256$")
    return classroom, ben


def test_a_stored_pbkdf2_hash_verifies_once_and_is_rewritten_keyed(client, pbkdf2_era_student):
    classroom, ben = pbkdf2_era_student
    assert client.post(secret_url(classroom, ben), {"secret": "9999"}).status_code == 200
    assert stored_hash(ben).startswith("pbkdf2_sha256$")  # a wrong PIN rewrites nothing
    assert client.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302
    assert stored_hash(ben).startswith(f"{ALGORITHM}$")
    client.logout()
    assert client.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302


def test_a_card_printed_before_the_move_still_signs_in(client, pbkdf2_era_student):
    classroom, ben = pbkdf2_era_student
    printed = card_token(ben)
    assert client.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302
    ben.refresh_from_db()
    assert ben.secret_hash.startswith(f"{ALGORITHM}$")
    client.logout()
    response = client.post(reverse("classroom:roster_card"), {"token": printed})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(ben.pk)


def test_a_childs_other_sessions_survive_the_hash_moving_to_a_rotated_key(settings):
    classroom = make_class()
    ben = make_student(classroom, "Ben", secret="2468")
    tablet, laptop = Client(), Client()
    assert tablet.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a brand new secret key for the rotation test"
    before = stored_hash(ben)
    assert laptop.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302
    assert stored_hash(ben) != before  # moved to the new key...
    home = reverse("classroom:student_home")
    assert tablet.get(home).status_code == 200  # ...and the tablet is still signed in
    settings.SECRET_KEY_FALLBACKS = []
    assert tablet.get(home).status_code == 200
    assert laptop.get(home).status_code == 200


def test_a_new_secret_still_ends_the_childs_sessions():
    classroom = make_class()
    ben = make_student(classroom, "Ben", secret="2468")
    tablet = Client()
    assert tablet.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302
    ben.set_student_secret("pin", "8642")
    ben.save()
    assert tablet.get(reverse("classroom:student_home")).status_code == 302


def test_a_rotated_student_secret_key_checks_under_its_fallback(settings, client):
    settings.STUDENT_SECRET_KEY = "the first student key"
    classroom = make_class()
    ben = make_student(classroom, "Ben", secret="2468")
    settings.STUDENT_SECRET_KEY = "the second student key"
    settings.STUDENT_SECRET_KEY_FALLBACKS = ["the first student key"]
    assert client.post(secret_url(classroom, ben), {"secret": "2468"}).status_code == 302
    settings.STUDENT_SECRET_KEY_FALLBACKS = []
    assert get_user_model().objects.get(pk=ben.pk).check_student_secret("2468")


def test_the_operators_command_moves_every_child_with_a_card_copy_to_the_new_key(settings):
    from django.core.management import call_command

    from classroom.roster.services import student_add
    from classroom.roster.student_secrets import Secret

    classroom = make_class()
    ana, _secret = student_add(
        classroom=classroom, display_name="Ana", secret=Secret("pin", "2468")
    )
    make_student(classroom, "Ben", secret="1357")  # set by another path: no copy of it here
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a brand new secret key for the rotation test"
    out = io.StringIO()
    call_command("move_to_new_key", stdout=out)
    assert "moved to the current key: 1\n" in out.getvalue()
    assert "no copy here, moving at their next sign-in: 1\n" in out.getvalue()
    settings.SECRET_KEY_FALLBACKS = []
    assert get_user_model().objects.get(pk=ana.pk).check_student_secret("2468")
    ana.refresh_from_db()
    assert card_secret(ana) == Secret("pin", "2468")  # the card can still be printed
    out = io.StringIO()
    call_command("move_to_new_key", stdout=out)
    assert "already under it: 1\n" in out.getvalue()
