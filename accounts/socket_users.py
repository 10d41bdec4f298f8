"""Who is on a socket: its user, read from the session within the socket's database wait, and the
language its texts are written in. The rest of what every socket shares is realtime/sockets.py."""

from __future__ import annotations

import logging

from channels.auth import AuthMiddleware, CookieMiddleware, SessionMiddleware

from accounts.session_users import user_of_session
from realtime.database_waits import bounded_database_sync_to_async
from realtime.sockets import CLOSE_TRY_AGAIN, OUTAGES

log = logging.getLogger(__name__)


def scope_language(scope) -> str:
    """The language a socket's texts are written in, chosen as a page's: its person's stored
    choice (accounts/languages.py), else as Django's LocaleMiddleware chooses: the language
    cookie (the site's language menu), else the browser's Accept-Language, else the site's
    default. A socket runs no middleware of Django's, so without this a Spanish child's socket
    spoke English."""
    from django.conf import settings
    from django.utils import translation
    from django.utils.translation import trans_real

    from accounts.languages import stored_language

    stored = stored_language(scope.get("user"))
    if stored:
        return stored
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            header = value.decode("latin-1")
            candidates += [code for code, _q in trans_real.parse_accept_lang_header(header)]
    for candidate in candidates:
        if candidate == "*":
            continue
        try:
            language = translation.get_supported_language_variant(candidate)
        except LookupError:
            continue
        if language in supported:
            return language
    return settings.LANGUAGE_CODE


def _user_of(scope):
    return user_of_session(scope["session"])


_user_within_the_wait = bounded_database_sync_to_async(_user_of)


class _AuthAnsweringOutages(AuthMiddleware):
    """Channels' ``AuthMiddleware``, whose reading of the session and the user is bounded like
    every database wait of a socket, and whose outage closes the handshake with 4503: it came
    before any consumer, so Daphne answered HTTP 500 with a traceback (and waited for ever on a
    hung database, holding the thread every socket's database calls share)."""

    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await _user_within_the_wait(scope)

    async def __call__(self, scope, receive, send):
        scope = dict(scope)
        self.populate_scope(scope)
        try:
            await self.resolve_scope(scope)
        except OUTAGES as outage:
            log.warning(
                "%s: socket told to try again, its user unread (%s: %s)",
                scope.get("path"),
                type(outage).__name__,
                outage,
            )
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
            return None
        return await self.inner(scope, receive, send)


def AuthMiddlewareStack(inner):
    """Channels' ``AuthMiddlewareStack`` with ``_AuthAnsweringOutages``."""
    return CookieMiddleware(SessionMiddleware(_AuthAnsweringOutages(inner)))
