"""Pages count and show days in the signed-in user's time zone (accounts.User.time_zone): a
teacher in Madrid reads an answer given at 00:30 on Monday as Monday's, whatever the site's
TIME_ZONE. A page in Arabic shows the digits its school chose (accounts/digits.py).

A signed-in person's pages are in their own language, their stored choice (accounts/languages.py),
whatever Django's LocaleMiddleware chose before from the cookie and the browser.

A database that is down (refusing connections, or hung past its connect timeout) is nobody's
fault on the page: the page says "try again in a minute" (HTTP 503, ``Retry-After``) instead of a
server error, and the log gets one line naming the cause, never a traceback. Here the user is read
before the view (this middleware), and the view reads what it needs (``DatabaseOutageMiddleware``);
both answer with ``database_unavailable``.

The health probes (``settings.HEALTH_PROBE_PATHS``) read no user: they touch nothing they do not
report on, whatever cookies come (a session cookie made ``/livez`` wait on the database).
"""

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.decorators import sync_and_async_middleware
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import get_language

from accounts import digits, languages

# What an unreachable or hung database raises through Django (psycopg's and its pool's errors,
# SQLite's "database is locked", a connection that broke), as opposed to a programming error.
DATABASE_OUTAGES = (OperationalError, InterfaceError)
# How soon the page asks to be tried again: a restart or a fail-over, not a request's round trip.
RETRY_AFTER_S = 60


def database_unavailable(request, outage: Exception) -> HttpResponse:
    """The "try again in a minute" page (HTTP 503). It is rendered without the request: its
    context processors would read the session and the user, from the database that is down.
    The cause is kept on the request for the one line ``django.request`` logs
    (config.log_filters.DatabaseOutagesNamed)."""
    request.database_outage = outage
    response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    return response


def _is_probe(request) -> bool:
    return request.path_info in settings.HEALTH_PROBE_PATHS


def _activate(user) -> None:
    if user is not None and user.is_authenticated and user.time_zone:
        timezone.activate(user.zone)
    else:
        timezone.deactivate()


def _choosing(user) -> bool:
    """Whether the page's digits are the school's to choose (accounts/digits.py)."""
    language = (get_language() or "").split("-")[0]
    return user is not None and user.is_authenticated and language in digits.CHOOSING_LANGUAGES


def _teachers_digits(user):
    """A student's pages show the digits their teacher chose (their first class's)."""
    return user.enrollments.order_by("id").values_list("classroom__teacher__digits", flat=True)


def _digits_of(user) -> str:
    if not _choosing(user):
        return digits.WESTERN
    return user.digits if user.is_teacher else _teachers_digits(user).first()


async def _digits_of_async(user) -> str:
    if not _choosing(user):
        return digits.WESTERN
    return user.digits if user.is_teacher else await _teachers_digits(user).afirst()


@sync_and_async_middleware
def user_time_zone_middleware(get_response):
    if iscoroutinefunction(get_response):

        async def middleware(request):
            if _is_probe(request):
                return await get_response(request)
            # request.user would query synchronously here, on the loop; the user read once
            # serves the view too (auser and user keep separate caches).
            try:
                request.user = await request.auser()
            except DATABASE_OUTAGES as outage:
                return database_unavailable(request, outage)
            languages.activate_stored(request)
            _activate(request.user)
            try:
                digits.activate(await _digits_of_async(request.user))
            except DATABASE_OUTAGES as outage:
                return database_unavailable(request, outage)
            return await get_response(request)

    else:

        def middleware(request):
            if _is_probe(request):
                return get_response(request)
            try:
                languages.activate_stored(request)
                _activate(getattr(request, "user", None))
                digits.activate(_digits_of(getattr(request, "user", None)))
            except DATABASE_OUTAGES as outage:
                return database_unavailable(request, outage)
            return get_response(request)

    return middleware


class DatabaseOutageMiddleware(MiddlewareMixin):
    """A view (or its template) that found the database down answers ``database_unavailable``."""

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_OUTAGES):
            return database_unavailable(request, exception)
        return None
