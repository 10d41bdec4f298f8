"""A signed-in session made directly, as signing in would leave it: for the load test's thousand
students and for the tests' sockets, raw HTTP clients and browsers. One way, so that both follow
the session engine and the authentication backends the site uses."""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

from accounts.models import Role

STUDENT_BACKEND = "accounts.backends.StudentSecretBackend"
TEACHER_BACKEND = "django.contrib.auth.backends.ModelBackend"


def signed_in_cookie(user, backend: str | None = None) -> str:
    """The Cookie header (``name=key``) of a new session signed in as ``user``: students through
    their secret's backend, everybody else through the password's, unless ``backend`` is given."""
    if backend is None:
        backend = STUDENT_BACKEND if user.role == Role.STUDENT else TEACHER_BACKEND
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = backend
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save(must_create=True)
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def cookie_parts(cookie: str) -> tuple[str, str]:
    """The cookie's name and value (the session key), e.g. for a browser context's cookies."""
    name, value = cookie.split("=", 1)
    return name, value


def session_key(cookie: str) -> str:
    return cookie_parts(cookie)[1]


def signed_out(cookies) -> None:
    """Deletes the sessions of these cookies."""
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    for cookie in cookies:
        store_class(session_key=session_key(cookie)).delete()
