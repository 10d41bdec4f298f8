"""Rotating SECRET_KEY as docs/security.md says, on real Daphne processes started with the
operator's environment: the old key moves to SECRET_KEY_FALLBACKS, then leaves it.

While the old key is a fallback every child and teacher signs in and stays signed in (pages and
sockets), and each child's hash moves to the new key at their sign-in; once it has left, what was
seen during the rotation goes on and a session never seen then has ended (page and socket)."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
import websockets
from django.conf import global_settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import TEACHER_PASSWORD, make_class, make_student
from tools.loadtest.servers import DaphneFleet, origin_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services, pytest.mark.slow]

OLD_KEY = "the school's first secret key retired after a leak 1b2c3d"
NEW_KEY = "the school's second secret key in force from today 9f8e7d"
WAIT_S = 10
CLOSE_SIGNED_OUT = 4401


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One browser: its own cookies (session, CSRF, device), kept across server restarts."""

    def __init__(self):
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), NoRedirect
        )

    def get(self, url: str) -> tuple[int, str, str]:
        return self._open(urllib.request.Request(url))

    def post(self, url: str, fields: dict) -> tuple[int, str, str]:
        _status, _location, page = self.get(url)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token}).encode()
        return self._open(urllib.request.Request(url, data=body, method="POST"))

    def _open(self, request) -> tuple[int, str, str]:
        try:
            with self.opener.open(request, timeout=WAIT_S) as answer:
                return answer.status, "", answer.read().decode()
        except urllib.error.HTTPError as answer:
            return answer.code, answer.headers.get("Location", ""), answer.read().decode()

    def cookie_header(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)


def socket_answer(base: str, browser: Browser) -> str:
    """What the student's sessions socket answers: "sessions" (accepted) or "closed <code>"."""

    async def ask():
        async with websockets.connect(
            f"{base}/ws/student/",
            origin=origin_for(base),
            additional_headers={"Cookie": browser.cookie_header()},
            proxy=None,
            open_timeout=WAIT_S,
        ) as ws:
            try:
                return json.loads(await asyncio.wait_for(ws.recv(), WAIT_S))["type"]
            except websockets.ConnectionClosed as closed:
                return f"closed {closed.rcvd.code if closed.rcvd else 1006}"

    return asyncio.run(ask())


def servers_with(env: dict) -> DaphneFleet:
    return DaphneFleet(1, env={"SECRET_KEY_FALLBACKS": "", **env})


def http_base(fleet: DaphneFleet) -> str:
    return origin_for(fleet.urls[0])


def sign_in_child(base: str, browser: Browser, classroom, child, pin: str) -> bool:
    url = base + reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": child.pk}
    )
    status, location, _page = browser.post(url, {"secret": pin})
    return status == 302 and location == reverse("classroom:student_home")


def sign_in_teacher(base: str, browser: Browser, email: str) -> bool:
    status, _location, _page = browser.post(
        base + reverse("accounts:login"), {"username": email, "password": TEACHER_PASSWORD}
    )
    return status == 302


def home_is_open(base: str, browser: Browser, url_name: str) -> bool:
    return browser.get(base + reverse(url_name))[0] == 200


def hash_checks_under(settings, child, pin: str, key: str) -> bool:
    """Whether ``child``'s stored hash checks ``pin`` with ``key`` alone."""
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = key, []
    return get_user_model().objects.get(pk=child.pk).check_student_secret(pin)


@pytest.mark.timeout(150)
def test_a_rotated_secret_key_keeps_every_child_and_teacher_signing_in(services, settings):
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = OLD_KEY, []
    # The servers check passwords with the site's hashers, not the tests' quick one.
    settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
    classroom = make_class()
    email = classroom.teacher.email
    ana = make_student(classroom, "Ana", secret="2468")
    ben = make_student(classroom, "Ben", secret="1357")
    cara = make_student(classroom, "Cara", secret="9753")
    anas_tablet, caras_tablet, teachers_laptop = Browser(), Browser(), Browser()

    with servers_with({"SECRET_KEY": OLD_KEY}) as fleet:
        base = http_base(fleet)
        assert sign_in_child(base, anas_tablet, classroom, ana, "2468")
        assert sign_in_child(base, caras_tablet, classroom, cara, "9753")
        assert sign_in_teacher(base, teachers_laptop, email)

    # The rotation: the new key in force, the old one a fallback.
    with servers_with({"SECRET_KEY": NEW_KEY, "SECRET_KEY_FALLBACKS": OLD_KEY}) as fleet:
        base, sockets = http_base(fleet), fleet.urls[0]
        # Signed in before: the socket first (it must not end the page's session), then pages.
        assert socket_answer(sockets, anas_tablet) == "sessions", fleet.log_tail()
        assert home_is_open(base, anas_tablet, "classroom:student_home")
        assert socket_answer(sockets, anas_tablet) == "sessions"
        assert home_is_open(base, teachers_laptop, "classroom:teacher_home")
        # Signing in afresh: the right PIN and password are right.
        bens_tablet = Browser()
        assert sign_in_child(base, bens_tablet, classroom, ben, "1357")
        assert sign_in_teacher(base, Browser(), email)
        assert sign_in_child(base, Browser(), classroom, ana, "2468")

    assert hash_checks_under(settings, ben, "1357", NEW_KEY)
    assert hash_checks_under(settings, ana, "2468", NEW_KEY)
    assert not hash_checks_under(settings, cara, "9753", NEW_KEY)  # not signed in since

    # The old key gone.
    with servers_with({"SECRET_KEY": NEW_KEY}) as fleet:
        base, sockets = http_base(fleet), fleet.urls[0]
        for tablet in (anas_tablet, bens_tablet):
            assert home_is_open(base, tablet, "classroom:student_home")
            assert socket_answer(sockets, tablet) == "sessions"
        assert home_is_open(base, teachers_laptop, "classroom:teacher_home")
        assert sign_in_child(base, Browser(), classroom, ben, "1357")
        assert sign_in_teacher(base, Browser(), email)
        # Cara's session was never seen during the rotation: it has ended, socket and page.
        assert socket_answer(sockets, caras_tablet) == f"closed {CLOSE_SIGNED_OUT}"
        assert not home_is_open(base, caras_tablet, "classroom:student_home")
