"""The user a session is signed in as, read without writing: what a socket's handshake needs.

``django.contrib.auth.get_user`` moves a session signed under a key of ``SECRET_KEY_FALLBACKS``
to the current key by giving it a new session key, which only a response can hand the browser:
done on a socket's handshake, it would leave the page's cookie naming a deleted session, so the
child's next page would be signed out. Here the same checks are made and nothing is written; the
page's next request moves the session."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.models import AnonymousUser
from django.utils.crypto import constant_time_compare


def user_of_session(session):
    """The active user ``session`` is signed in as, or ``AnonymousUser`` when it is not, or no
    longer (a new secret or password, a key no longer in force, the account gone)."""
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return AnonymousUser()
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return AnonymousUser()
    user = load_backend(backend_path).get_user(user_id)
    if user is None:
        return AnonymousUser()
    stored = session.get(HASH_SESSION_KEY)
    if not stored:
        return AnonymousUser()
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    if any(constant_time_compare(stored, expected) for expected in hashes):
        return user
    return AnonymousUser()
