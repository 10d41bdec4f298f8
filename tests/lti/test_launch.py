"""LTI 1.3 launches end to end: the independent platform (lti1p3platform) logs a person in through
the tool's OIDC login and posts its signed launch; the tool fetches the platform's key set over
HTTP on 127.0.0.1. Teachers and children are signed in; every launch the tool must refuse is
answered with a page, one log line, and no row written anywhere."""

import datetime as dt
import hashlib
import hmac
import json
import logging
import re

import jwt
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from classroom.lti import services
from classroom.lti.models import LtiCourse, LtiPerson, LtiUsedNonce
from classroom.models import Assignment, Classroom, Enrollment

from .platform import (
    INSTRUCTOR,
    LEARNER,
    Course,
    KeySetServer,
    Person,
    Platform,
    auth_params_of,
    path_of,
    rsa_key_pair,
)

pytestmark = pytest.mark.django_db

User = get_user_model()
TEACHER = Person(sub="teacher-7", roles=[INSTRUCTOR], name="Ana Ruiz", email="ana@school.test")
CHILD = Person(sub="child-42", roles=[LEARNER], name="Leo Díaz", email="leo@school.test")
COURSE = Course(id="course-3B", title="3B maths")


@pytest.fixture
def key_set():
    server = KeySetServer()
    yield server
    server.close()


@pytest.fixture
def platform(key_set):
    services.keys_rotate(rotate=False)  # the tool's own key, as `manage.py lti_keys` makes it
    platform = Platform(
        issuer="https://moodle.school.test",
        client_id="client-abc",
        deployment_id="deployment-1",
        key_set=key_set,
    )
    platform.publish_key()
    services.registration_save(
        name="School Moodle",
        issuer=platform.issuer,
        client_id=platform.client_id,
        deployment_ids=[platform.deployment_id],
        keyset_url=key_set.url,
        auth_url=platform.auth_url,
        token_url=platform.token_url,
    )
    return platform


def login(client: Client, platform: Platform, person: Person) -> dict:
    """The OIDC login: the tool answers with the way to the platform's authorization endpoint."""
    response = client.get(path_of(platform.login_url(person)))
    assert response.status_code == 302, response.content
    params = auth_params_of(response["Location"])
    assert response["Location"].startswith(platform.auth_url + "?")
    assert params["redirect_uri"] == "http://testserver/lti/launch/"
    assert params["client_id"] == platform.client_id
    assert params["nonce"] and params["state"]
    return params


def launch_form(client, platform, person, course=COURSE) -> dict:
    return platform.id_token(login(client, platform, person), person, course)


def post(client, form: dict, id_token: str | None = None):
    return client.post(
        path_of(form["launch_url"]),
        {"id_token": id_token or form["id_token"], "state": form["state"]},
    )


def launch(client, platform, person, course=COURSE):
    return post(client, launch_form(client, platform, person, course))


def claims_of(id_token: str) -> dict:
    return jwt.decode(id_token, options={"verify_signature": False})


def all_rows() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def assert_refused_writing_nothing(caplog, send, *, status=400, says: str):
    before = all_rows()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        response = send()
    assert response.status_code == status, response.content
    assert says in response.content.decode()
    assert all_rows() == before
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 1, [r.getMessage() for r in lines]
    assert lines[0].name == "classroom.lti"
    return lines[0].getMessage()


# --- launches that sign in -------------------------------------------------------------------


def test_a_teachers_first_launch_makes_their_account_and_class_and_lands_on_it(platform, key_set):
    client = Client()
    response = launch(client, platform, TEACHER)

    assert response.status_code == 302
    classroom = Classroom.objects.get()
    assert response["Location"] == f"/teacher/classes/{classroom.pk}/"
    assert classroom.name == "3B maths"
    teacher = classroom.teacher
    assert teacher.is_teacher and teacher.display_name == "Ana Ruiz"
    assert not teacher.has_usable_password() and teacher.email == ""
    assert LtiPerson.objects.get().user == teacher
    course = LtiCourse.objects.get()
    assert (course.context_id, course.classroom) == ("course-3B", classroom)
    assert key_set.requests >= 1  # the platform's keys were fetched over HTTP
    assert client.get(response["Location"]).status_code == 200  # signed in as that teacher

    # Their next launch signs the same teacher into the same class.
    again = launch(Client(), platform, TEACHER)
    assert again["Location"] == f"/teacher/classes/{classroom.pk}/"
    assert (User.objects.count(), Classroom.objects.count()) == (1, 1)


def test_a_childs_launch_makes_a_student_of_the_class_with_no_password_nor_email(platform):
    launch(Client(), platform, TEACHER)
    classroom = Classroom.objects.get()

    client = Client()
    response = launch(client, platform, CHILD)

    assert response.status_code == 302 and response["Location"] == "/me/"
    child = User.objects.get(lti_person__sub="child-42")
    assert child.is_student and child.display_name == "Leo Díaz"
    assert child.email == "" and not child.has_usable_password() and child.secret_hash == ""
    assert Enrollment.objects.filter(classroom=classroom, student=child).exists()
    assert not any("leo@school.test" in str(value) for value in User.objects.values_list())
    home = client.get("/me/")
    assert home.status_code == 200 and home.wsgi_request.user == child

    # Again: the same child, still one enrolment.
    launch(Client(), platform, CHILD)
    assert User.objects.filter(role="student").count() == 1
    assert Enrollment.objects.count() == 1


def test_the_class_page_says_a_child_from_the_platform_signs_in_there(platform):
    """A child who came by a launch has no secret of this site, and needs none: their row says
    they sign in from the learning platform, not the warning a child with no way in gets."""
    teacher = Client()
    launch(teacher, platform, TEACHER)
    classroom = Classroom.objects.get()
    launch(Client(), platform, CHILD)
    page = teacher.get(f"/teacher/classes/{classroom.pk}/").content.decode()
    (row,) = re.findall(r"<tr>\s*<th scope=\"row\">.*?</tr>", page, re.S)
    assert "Leo Díaz" in row
    assert "No secret yet" not in row
    assert "<td>Learning platform</td>" in row


@pytest.mark.parametrize(
    ("locale", "language"), [("es_mx", "es"), ("es-ES", "es"), ("fr", "fr"), ("tlh", "")]
)
def test_the_platforms_language_for_the_person_is_the_pages_language(platform, locale, language):
    """Moodle and Canvas say the person's language on the platform (launch_presentation's
    locale): the pages follow it, as the language menu's choice would, on a browser in English."""
    launch(Client(), platform, TEACHER)
    child = Client(HTTP_ACCEPT_LANGUAGE="en")
    message = platform.launch_message(login(child, platform, CHILD), CHILD, COURSE)
    message.set_extra_claims(
        {"https://purl.imsglobal.org/spec/lti/claim/launch_presentation": {"locale": locale}}
    )
    response = post(child, message.lti_launch())
    assert response.status_code == 302
    cookie = response.cookies.get("django_language")
    assert (cookie.value if cookie else "") == language
    page = child.get(response["Location"]).content.decode()
    assert f'<html lang="{language or "en"}"' in page


def test_a_link_to_a_homework_lands_the_child_on_it(platform):
    launch(Client(), platform, TEACHER)
    classroom = Classroom.objects.get()
    homework = Assignment.objects.create(
        classroom=classroom,
        title="Sums to 20",
        kind=Assignment.Kind.PUZZLES,
        game="mia",
        variant="square",
        due_at=timezone.now() + dt.timedelta(days=3),
    )
    platform.custom = {"assignment": str(homework.pk)}
    response = launch(Client(), platform, CHILD)
    assert response["Location"] == f"/me/homework/{homework.pk}/"


def test_canvas_one_issuer_many_client_ids_each_its_own_registration(platform, key_set):
    other = Platform(
        issuer=platform.issuer,
        client_id="client-second",
        deployment_id="deployment-9",
        key_set=key_set,
        private_key=platform.private_key,
        public_key=platform.public_key,
    )
    services.registration_save(
        name="Second tool link",
        issuer=other.issuer,
        client_id=other.client_id,
        deployment_ids=[other.deployment_id],
        keyset_url=key_set.url,
        auth_url=other.auth_url,
        token_url=other.token_url,
    )
    assert launch(Client(), platform, TEACHER).status_code == 302
    response = launch(Client(), other, Person("teacher-8", [INSTRUCTOR], "Bea"), Course("c-2"))
    assert response.status_code == 302
    assert LtiCourse.objects.filter(deployment__registration__client_id="client-second").exists()


# --- launches refused, nothing written -------------------------------------------------------


def test_a_child_before_any_teacher_is_refused(platform, caplog):
    client = Client()
    form = launch_form(client, platform, CHILD)
    assert_refused_writing_nothing(
        caplog, lambda: post(client, form), status=403, says="has not opened this tool"
    )


def test_a_tampered_token_is_refused(platform, caplog):
    client = Client()
    form = launch_form(client, platform, TEACHER)
    header, _body, signature = form["id_token"].split(".")
    claims = claims_of(form["id_token"])
    claims["sub"] = "somebody-else"
    forged_body = jwt.utils.base64url_encode(json.dumps(claims).encode()).decode()
    tampered = f"{header}.{forged_body}.{signature}"
    line = assert_refused_writing_nothing(
        caplog, lambda: post(client, form, tampered), says="could not be checked"
    )
    assert "Signature verification failed" in line


def test_an_expired_token_is_refused(platform, caplog):
    client = Client()
    platform.id_token_seconds = -120
    form = launch_form(client, platform, TEACHER)
    line = assert_refused_writing_nothing(caplog, lambda: post(client, form), says="expired")
    assert "expired" in line


def test_a_token_without_expiry_is_refused(platform, caplog):
    client = Client()
    form = launch_form(client, platform, TEACHER)
    claims = claims_of(form["id_token"])
    del claims["exp"]
    line = assert_refused_writing_nothing(
        caplog, lambda: post(client, form, platform.signed(claims)), says="could not be checked"
    )
    assert "exp" in line


@pytest.mark.parametrize("browser", ["same", "another"])
def test_a_replayed_launch_is_refused(platform, caplog, browser):
    client = Client()
    form = launch_form(client, platform, TEACHER)
    assert post(client, form).status_code == 302
    assert LtiUsedNonce.objects.count() == 1
    replayer = client if browser == "same" else Client()
    line = assert_refused_writing_nothing(
        caplog, lambda: post(replayer, form), says="already been used"
    )
    assert "replayed" in line


def test_a_launch_for_an_unregistered_deployment_is_refused(platform, key_set, caplog):
    platform.deployment_id = "deployment-nobody-entered"
    client = Client()
    form = launch_form(client, platform, TEACHER)
    line = assert_refused_writing_nothing(
        caplog, lambda: post(client, form), says="not registered here"
    )
    assert "deployment" in line
    assert not LtiDeployment.objects.filter(deployment_id="deployment-nobody-entered").exists()


def test_a_launch_for_a_deactivated_deployment_is_refused(platform, caplog):
    LtiDeployment.objects.update(is_active=False)
    client = Client()
    form = launch_form(client, platform, TEACHER)
    assert_refused_writing_nothing(caplog, lambda: post(client, form), says="not registered here")


def test_a_token_signed_by_another_platforms_key_is_refused(platform, caplog):
    client = Client()
    form = launch_form(client, platform, TEACHER)
    claims = claims_of(form["id_token"])
    other_private, other_public = rsa_key_pair()
    impostor = Platform(
        issuer="x",
        client_id="x",
        deployment_id="x",
        key_set=platform.key_set,
        private_key=other_private,
        public_key=other_public,
    )
    # Under its own key id (not in the platform's key set), and under the platform's.
    line = assert_refused_writing_nothing(
        caplog, lambda: post(client, form, impostor.signed(claims)), says="could not be checked"
    )
    assert "Unable to find public key" in line
    line = assert_refused_writing_nothing(
        caplog,
        lambda: post(client, form, impostor.signed(claims, kid=platform.kid)),
        says="could not be checked",
    )
    assert "Signature verification failed" in line


def test_a_token_for_another_audience_is_refused(platform, caplog):
    client = Client()
    form = launch_form(client, platform, TEACHER)
    claims = claims_of(form["id_token"])
    claims["aud"] = claims["azp"] = "some-other-tool"
    line = assert_refused_writing_nothing(
        caplog, lambda: post(client, form, platform.signed(claims)), says="not registered here"
    )
    assert "Registration not found" in line


def test_an_unsigned_token_alg_none_is_refused(platform, caplog):
    client = Client()
    form = launch_form(client, platform, TEACHER)
    claims = claims_of(form["id_token"])
    assert_refused_writing_nothing(
        caplog,
        lambda: post(client, form, platform.signed(claims, algorithm="none")),
        says="could not be checked",
    )


def test_a_token_in_hs256_with_the_public_key_as_secret_is_refused(platform, caplog):
    client = Client()
    form = launch_form(client, platform, TEACHER)
    claims = claims_of(form["id_token"])
    # The classic confusion: the platform's public key, which anyone can fetch, as an HMAC secret
    # (PyJWT will not sign so, hence by hand).
    header = {"kid": platform.kid, "alg": "HS256", "typ": "JWT"}
    signing_input = ".".join(
        jwt.utils.base64url_encode(json.dumps(part).encode()).decode() for part in (header, claims)
    )
    mac = hmac.new(platform.public_key.encode(), signing_input.encode(), hashlib.sha256).digest()
    forged = f"{signing_input}.{jwt.utils.base64url_encode(mac).decode()}"
    assert_refused_writing_nothing(
        caplog, lambda: post(client, form, forged), says="could not be checked"
    )


def test_a_login_from_an_unregistered_platform_is_refused(platform, caplog):
    stranger = Platform(
        issuer="https://stranger.test", client_id="c", deployment_id="d", key_set=platform.key_set
    )
    assert_refused_writing_nothing(
        caplog,
        lambda: Client().get(path_of(stranger.login_url(TEACHER))),
        says="not registered here",
    )


# --- the tool's keys and registrations ------------------------------------------------------


def test_keys_are_made_rotated_and_the_old_one_kept_for_its_period(db, settings):
    settings.LTI_OLD_KEY_KEPT_HOURS = 24
    call_command("lti_keys")
    first = Key.objects.get()
    call_command("lti_keys")
    assert Key.objects.count() == 1  # no rotation asked

    call_command("lti_keys", "--rotate")
    second = Key.objects.latest()
    kids = {key["kid"] for key in Client().get("/lti/.well-known/jwks.json").json()["keys"]}
    assert kids == {str(first), str(second)}  # the old key still checks what it signed

    # A day after the rotation the next run takes the old key out; the new one signs on.
    Key.objects.filter(pk=first.pk).update(datetime_created=timezone.now() - dt.timedelta(days=9))
    Key.objects.filter(pk=second.pk).update(
        datetime_created=timezone.now() - dt.timedelta(hours=25)
    )
    call_command("lti_keys")
    kids = {key["kid"] for key in Client().get("/lti/.well-known/jwks.json").json()["keys"]}
    assert kids == {str(second)}
    assert LtiRegistration.objects.count() == 0


def test_the_registration_page_shows_the_tools_urls_and_takes_a_platform(db, admin_client):
    page = admin_client.get("/lti/registrations/")
    text = page.content.decode()
    for url in ("/lti/login/", "/lti/launch/", "/lti/.well-known/jwks.json"):
        assert f"http://testserver{url}" in text
    response = admin_client.post(
        "/lti/registrations/",
        {
            "name": "Canvas",
            "issuer": "https://canvas.instructure.com",
            "client_id": "10000000000001",
            "deployment_ids": "1:abc\n2:def\n",
            "keyset_url": "https://sso.canvaslms.com/api/lti/security/jwks",
            "auth_url": "https://sso.canvaslms.com/api/lti/authorize_redirect",
            "token_url": "https://sso.canvaslms.com/login/oauth2/token",
        },
    )
    assert response.status_code == 302
    registration = LtiRegistration.objects.get()
    assert registration.client_id == "10000000000001"
    assert set(
        registration.deployments.filter(is_active=True).values_list("deployment_id", flat=True)
    ) == {"1:abc", "2:def"}


def test_the_registration_page_is_for_staff_only(db, client):
    teacher = User.objects.create_user("t@school.test", password="x", role="teacher")
    client.force_login(teacher)
    response = client.get("/lti/registrations/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
