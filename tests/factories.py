"""Small builders for test data, going through the real services."""

import itertools

from accounts.services import teacher_create
from classroom.services import classroom_add_student, classroom_create

TEACHER_PASSWORD = "a-long-teacher-password-42"


_numbers = itertools.count(1)


def make_teacher(email=None, name="Teacher One"):
    email = email or f"teacher{next(_numbers)}@example.org"
    return teacher_create(email=email, password=TEACHER_PASSWORD, display_name=name)


def make_class(teacher=None, name="Class 4A"):
    return classroom_create(teacher=teacher or make_teacher(), name=name)


def make_student(classroom, name="Ana", kind="pin", secret="4321"):
    return classroom_add_student(
        classroom=classroom, display_name=name, secret_kind=kind, secret=secret
    )


def session_cookie_for(user) -> str:
    """The Cookie header of a signed-in session, for sockets and raw HTTP clients."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = (
        "accounts.backends.StudentSecretBackend"
        if user.role == "student"
        else "django.contrib.auth.backends.ModelBackend"
    )
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def make_match(game="mia", variant="express", players=(), bots=(), teacher=None, **kwargs):
    """A playing match: ``players`` are users, then ``bots`` levels fill the next seats."""
    from games.services import SeatSpec, match_create

    seats = [SeatSpec(name=user.display_name or user.username, user=user) for user in players]
    seats += [SeatSpec(name=f"Bot {i + 1}", bot_level=level) for i, level in enumerate(bots)]
    return match_create(game=game, variant=variant, seats=seats, created_by=teacher, **kwargs)
