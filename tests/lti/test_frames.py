"""Inside a learning platform's frame (classroom/lti/frames.py, docs/lti.md "Inside a frame"),
through the real login and launch: the independent platform (lti1p3platform) drives them over
HTTPS (the test client's ``secure=True``). A session a launch started has cookies a frame of
another site keeps (``SameSite=None; Secure``) and pages that only its platform may frame; every
other sign-in and page stays ``SameSite=Lax`` and ``frame-ancestors 'none'``. A login inside a
frame first answers the cookie check page. The browser side (a platform page on another origin,
third-party cookies allowed and blocked) is tests/browser/test_lti_frames.py."""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiRegistration

from classroom.lti import services
from classroom.lti.models import LtiFrameOrigins
from classroom.lti.selectors import frame_origins_of
from classroom.models import Classroom
from tests.factories import TEACHER_PASSWORD, make_class, make_teacher

from .platform import (
    INSTRUCTOR,
    LEARNER,
    Course,
    KeySetServer,
    Person,
    Platform,
    auth_params_of,
    path_of,
)

pytestmark = pytest.mark.django_db

User = get_user_model()
TEACHER = Person(sub="teacher-7", roles=[INSTRUCTOR], name="Ana Ruiz")
CHILD = Person(sub="child-42", roles=[LEARNER], name="Leo Díaz")
COURSE = Course(id="course-3B", title="3B maths")
# Canvas-like: one issuer for every school, the school's pages at an address of its own.
CANVAS_ISSUER = "https://canvas.test"
SCHOOL_CANVAS = "https://school.canvas.test"
# Moodle-like: the issuer is the address of the platform's pages.
MOODLE_ISSUER = "https://moodle.school.test/moodle"
MOODLE_ORIGIN = "https://moodle.school.test"


@pytest.fixture
def key_set():
    server = KeySetServer()
    yield server
    server.close()


def register(key_set, issuer, client_id, *, frame_origins=None, scheme="https") -> Platform:
    platform = Platform(
        issuer=issuer,
        client_id=client_id,
        deployment_id="deployment-1",
        key_set=key_set,
        tool_login_url=f"{scheme}://testserver/lti/login/",
        tool_launch_url=f"{scheme}://testserver/lti/launch/",
    )
    platform.publish_key()
    services.registration_save(
        name=issuer,
        issuer=issuer,
        client_id=client_id,
        deployment_ids=[platform.deployment_id],
        keyset_url=key_set.url,
        auth_url=platform.auth_url,
        token_url=platform.token_url,
        frame_origins=frame_origins,
    )
    return platform


@pytest.fixture
def canvas(key_set):
    services.keys_rotate(rotate=False)
    return register(key_set, CANVAS_ISSUER, "client-canvas", frame_origins=[SCHOOL_CANVAS])


@pytest.fixture
def moodle(key_set):
    services.keys_rotate(rotate=False)
    return register(key_set, MOODLE_ISSUER, "client-moodle")  # no frame origins entered


def login(client, platform, person, *, secure=True, **headers):
    return client.get(path_of(platform.login_url(person)), secure=secure, **headers)


def launch(client, platform, person, *, secure=True, course=COURSE):
    response = login(client, platform, person, secure=secure)
    assert response.status_code == 302, response.content
    form = platform.id_token(auth_params_of(response["Location"]), person, course)
    return client.post(
        path_of(form["launch_url"]),
        {"id_token": form["id_token"], "state": form["state"]},
        secure=secure,
    )


def directives(response) -> dict[str, str]:
    policy = response["Content-Security-Policy"]
    named = (part.strip().partition(" ") for part in policy.split(";") if part.strip())
    return {name: value for name, _space, value in named}


def frame_ancestors(response) -> str:
    return directives(response)["frame-ancestors"]


def assert_frame_cookie(morsel):
    assert morsel.value
    assert morsel["samesite"] == "None"
    assert morsel["secure"] is True


def assert_not_framed(response):
    assert frame_ancestors(response) == "'none'"
    assert response["X-Frame-Options"] == "DENY"


# --- cookies -------------------------------------------------------------------------------------


def test_the_logins_state_cookie_is_samesite_none_and_secure_over_https(canvas):
    response = login(Client(), canvas, TEACHER)

    assert response.status_code == 302
    state = [name for name in response.cookies if name.startswith("lti1p3-state-")]
    assert len(state) == 1
    assert_frame_cookie(response.cookies[state[0]])
    assert_frame_cookie(response.cookies["lti1p3-session-id"])


def test_a_launch_over_https_gives_cookies_a_platforms_frame_keeps(canvas):
    client = Client()
    response = launch(client, canvas, TEACHER)

    assert response.status_code == 302
    assert_frame_cookie(response.cookies["sessionid"])
    assert_frame_cookie(response.cookies["csrftoken"])  # rotated at sign-in
    # The session goes on in the frame: its next cookies are marked too (here the language's).
    page = client.get(response["Location"], secure=True)
    assert page.status_code == 200
    changed = client.post(
        "/i18n/setlang/", {"language": "es", "next": response["Location"]}, secure=True
    )
    assert changed.status_code == 302
    assert_frame_cookie(changed.cookies["django_language"])


def test_a_childs_launch_over_https_gives_cookies_a_platforms_frame_keeps(canvas):
    launch(Client(), canvas, TEACHER)
    response = launch(Client(), canvas, CHILD)

    assert response["Location"] == "/me/"
    assert_frame_cookie(response.cookies["sessionid"])


def test_an_ordinary_sign_in_keeps_samesite_lax(canvas):
    launch(Client(), canvas, TEACHER)  # a launched session elsewhere changes nothing here
    make_teacher(email="t@example.org")
    client = Client()
    response = client.post(
        reverse("accounts:login"),
        {"username": "t@example.org", "password": TEACHER_PASSWORD},
        secure=True,
    )

    assert response.status_code == 302
    assert response.cookies["sessionid"]["samesite"] == "Lax"
    assert response.cookies["csrftoken"]["samesite"] == "Lax"


def test_over_plain_http_a_launchs_cookies_stay_lax(key_set):
    services.keys_rotate(rotate=False)
    platform = register(key_set, MOODLE_ISSUER, "client-http", scheme="http")
    response = launch(Client(), platform, TEACHER, secure=False)

    assert response.status_code == 302
    # SameSite=None without Secure is refused by browsers: nothing changes over HTTP.
    assert response.cookies["sessionid"]["samesite"] == "Lax"


# --- who may frame which page --------------------------------------------------------------------


def test_a_launched_sessions_pages_may_be_framed_by_its_platforms_entered_origins_only(
    canvas, moodle
):
    client = Client()
    landing = launch(client, canvas, TEACHER)["Location"]
    page = client.get(landing, secure=True)

    assert page.status_code == 200
    assert frame_ancestors(page) == SCHOOL_CANVAS  # not the issuer's, nor Moodle's
    assert "X-Frame-Options" not in page
    # Everything else of the policy stays as it is.
    assert directives(page)["script-src"] == "'self'"
    assert directives(page)["default-src"] == "'self'"


def test_a_platform_with_no_frame_origins_entered_is_its_issuers_origin(canvas, moodle):
    client = Client()
    launch(client, moodle, TEACHER)
    classroom = Classroom.objects.get()
    page = client.get(f"/teacher/classes/{classroom.pk}/", secure=True)

    assert frame_ancestors(page) == MOODLE_ORIGIN


def test_a_childs_pages_may_be_framed_by_the_platform(canvas):
    launch(Client(), canvas, TEACHER)
    client = Client()
    launch(client, canvas, CHILD)
    home = client.get("/me/", secure=True)

    assert home.status_code == 200
    assert frame_ancestors(home) == SCHOOL_CANVAS


def test_every_other_page_may_be_framed_by_nobody(canvas):
    teacher = make_teacher(email="t@example.org")
    classroom = make_class(teacher)
    client = Client()
    client.post(
        reverse("accounts:login"),
        {"username": "t@example.org", "password": TEACHER_PASSWORD},
        secure=True,
    )

    assert_not_framed(client.get(f"/teacher/classes/{classroom.pk}/", secure=True))
    assert_not_framed(Client().get("/", secure=True))
    assert_not_framed(Client().get("/accounts/login/", secure=True))


def test_a_switched_off_platform_frames_its_sessions_no_more(canvas):
    client = Client()
    landing = launch(client, canvas, TEACHER)["Location"]
    LtiRegistration.objects.update(is_active=False)

    assert_not_framed(client.get(landing, secure=True))


def test_a_refused_launch_is_shown_in_the_frame_of_a_registered_platform_only(canvas, moodle):
    response = launch(Client(), canvas, CHILD)  # before any teacher opened the course

    assert response.status_code == 403
    assert set(frame_ancestors(response).split()) == {SCHOOL_CANVAS, MOODLE_ORIGIN}
    assert "X-Frame-Options" not in response


# --- the login inside a frame --------------------------------------------------------------------


class Scripts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts, self.links = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.scripts.append(attrs)
        if tag == "a" and "/lti/login/" in (attrs.get("href") or ""):
            self.links.append(attrs)


def test_a_login_inside_a_frame_first_answers_the_cookie_check_page(canvas, moodle):
    client = Client()
    response = login(client, canvas, TEACHER, HTTP_SEC_FETCH_DEST="iframe")

    assert response.status_code == 200
    # No state yet: the check may send the login on to a new window, which makes its own.
    assert not [name for name in response.cookies if name.startswith("lti1p3")]
    page = Scripts()
    page.feed(response.content.decode())
    # No inline script: a module from static/.
    assert page.scripts and all(script.get("src") for script in page.scripts)
    assert any(s["src"].endswith("js/lti/cookie-check.js") for s in page.scripts)
    assert "Open in a new window" in response.content.decode()
    # The way on, in this frame or a new window, is the same login with the platform's parameters.
    link = page.links[0]
    assert link["target"] == "_blank"
    params = auth_params_of(link["href"])
    asked = auth_params_of(canvas.login_url(TEACHER))
    assert params == {**asked, "cookies_checked": "1"}
    # Framed by the platform that asked, only.
    assert frame_ancestors(response) == SCHOOL_CANVAS
    assert "X-Frame-Options" not in response

    # Past the check (in the frame, or at the top level of a new window) the login goes on.
    on = client.get(link["href"], secure=True, HTTP_SEC_FETCH_DEST="iframe")
    assert on.status_code == 302
    assert on["Location"].startswith(canvas.auth_url + "?")
    form = canvas.id_token(auth_params_of(on["Location"]), TEACHER, COURSE)
    landed = client.post(
        path_of(form["launch_url"]),
        {"id_token": form["id_token"], "state": form["state"]},
        secure=True,
    )
    assert landed.status_code == 302
    assert client.get(landed["Location"], secure=True).context["user"].display_name == "Ana Ruiz"


def test_the_cookie_check_page_speaks_spanish(canvas):
    response = login(
        Client(), canvas, CHILD, HTTP_SEC_FETCH_DEST="iframe", HTTP_ACCEPT_LANGUAGE="es"
    )

    page = response.content.decode()
    assert "Abrir en una ventana nueva" in page
    assert "Este navegador no deja que los juegos mantengan tu sesión" in page


def test_a_login_at_the_top_level_goes_straight_to_the_platform(canvas):
    response = login(Client(), canvas, TEACHER, HTTP_SEC_FETCH_DEST="document")

    assert response.status_code == 302
    assert response["Location"].startswith(canvas.auth_url + "?")


def test_a_login_inside_a_frame_from_an_unregistered_platform_is_refused(canvas, key_set):
    stranger = Platform(
        issuer="https://stranger.test",
        client_id="client-x",
        deployment_id="d",
        key_set=key_set,
        tool_login_url="https://testserver/lti/login/",
        tool_launch_url="https://testserver/lti/launch/",
    )
    response = login(Client(), stranger, TEACHER, HTTP_SEC_FETCH_DEST="iframe")

    assert response.status_code == 400
    assert "is not registered here" in response.content.decode()
    assert frame_ancestors(response) == SCHOOL_CANVAS  # never the stranger's


# --- the administrator enters the frame origins --------------------------------------------------


def test_the_registration_page_takes_the_platforms_frame_origins(db, admin_client, key_set):
    form = {
        "name": "District Canvas",
        "issuer": CANVAS_ISSUER,
        "client_id": "10000000000001",
        "deployment_ids": "dep-1",
        "keyset_url": key_set.url,
        "auth_url": "https://sso.canvas.test/api/lti/authorize_redirect",
        "token_url": "https://sso.canvas.test/login/oauth2/token",
    }
    wrong = admin_client.post(
        "/lti/registrations/", {**form, "frame_origins": "school.canvas.test"}
    )
    assert wrong.status_code == 200
    assert re.search(r"“school\.canvas\.test” is not a web address", wrong.content.decode())
    assert not LtiRegistration.objects.exists()

    saved = admin_client.post(
        "/lti/registrations/",
        {
            **form,
            # A page's address gives its origin; the same origin twice is kept once.
            "frame_origins": "https://School.Canvas.test/courses/12\n\nhttps://school.canvas.test:443\n"
            "https://beta.school.canvas.test",
        },
    )
    assert saved.status_code == 302
    origins = LtiFrameOrigins.objects.get(registration__client_id="10000000000001").origins
    assert origins == [SCHOOL_CANVAS, "https://beta.school.canvas.test"]
    page = admin_client.get("/lti/registrations/").content.decode()
    assert f"{SCHOOL_CANVAS}, https://beta.school.canvas.test" in page

    # Saved again with the field empty: the issuer's origin.
    admin_client.post("/lti/registrations/", {**form, "frame_origins": ""})
    registration = LtiRegistration.objects.get()
    assert registration.frame_origins.origins == []
    assert frame_origins_of(registration.pk) == [CANVAS_ISSUER]
