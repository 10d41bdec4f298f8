"""Inside a learning platform's frame (docs/lti.md, "Inside a frame").

A platform may show this tool in an iframe of its own pages: another site's frame, where a browser
sends and accepts only cookies marked ``SameSite=None; Secure``, and where this site's pages are
framed only if their Content-Security-Policy names the platform. What this module does, for the
sessions a launch started and for nothing else:

- **Cookies.** pylti1p3 marks its own cookies (the login's state) ``SameSite=None; Secure`` over
  HTTPS. ``LtiFrameMiddleware`` marks so, over HTTPS, the session, CSRF and language cookies of a
  session a launch started (``session_mark_launched``). Every other session keeps
  ``SameSite=Lax``; over plain HTTP nothing changes (a browser refuses ``None`` without
  ``Secure``).
- **Framing.** ``ContentSecurityPolicyMiddleware`` (django-csp's middleware, extended as its
  documentation says, through ``get_policy_parts``) gives such a session's pages
  ``frame-ancestors`` with the frame origins of the platform whose launch started it
  (``selectors.frame_origins_of``), and ``LtiFrameMiddleware`` drops their ``X-Frame-Options``,
  which cannot name an origin. Every other page keeps ``frame-ancestors 'none'`` and ``DENY``.
- **Browsers that block third-party cookies** (Safari; Chrome and Firefox by a setting). A login
  inside a frame (``Sec-Fetch-Dest: iframe``) first answers a page that tries a cookie
  (``classroom/lti/cookie_check.html`` with ``static/js/lti/cookie-check.js``): if the frame
  keeps it the login goes on in the frame, otherwise the page offers "Open in a new window",
  where the same login runs at the top level and signs the person in there. pylti1p3's own page
  for this has an inline script, which this site's CSP forbids.
"""

from __future__ import annotations

from urllib.parse import urlencode

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.shortcuts import render
from django.urls import reverse
from django.utils.deprecation import MiddlewareMixin

from accounts.middleware import DATABASE_OUTAGES
from classroom.lti import selectors

# The registration whose launch started this session (its primary key).
SESSION_KEY = "lti_registration"
# A login that has passed the cookie check in its frame (or runs in a window of its own).
CHECKED_PARAM = "cookies_checked"
# A platform's login request, as pylti1p3 reads it, carried to the login the check page goes on to.
LOGIN_PARAMS = (
    "iss",
    "login_hint",
    "target_link_uri",
    "lti_message_hint",
    "lti_deployment_id",
    "client_id",
)
FRAME_DESTINATIONS = {"iframe", "frame"}


def session_mark_launched(request, registration) -> None:
    """This session was started by a launch from ``registration``'s platform: its cookies work in
    the platform's frame and its pages may be framed by the platform."""
    request.session[SESSION_KEY] = registration.pk


def allow_framing(request, origins) -> None:
    """This response may be framed by ``origins`` (and no other), whoever is signed in."""
    request.lti_frame_origins = tuple(origins)


def allow_framing_by_platform(request, registration) -> None:
    allow_framing(request, selectors.frame_origins_of(registration.pk))


def frame_origins(request) -> tuple[str, ...]:
    """The origins that may frame the response to ``request``: those a view allowed, else those
    of the platform whose launch started the session; none (``'none'``) otherwise."""
    origins = getattr(request, "lti_frame_origins", None)
    if origins is None:
        origins = request.lti_frame_origins = _launched_session_origins(request)
    return origins


def _launched_session_origins(request) -> tuple[str, ...]:
    # The health probes read no session (accounts/middleware.py); a request with no session
    # cookie has no session to read.
    # Nor does a page that found the database down: a second read would wait its connect timeout
    # again before the "try again in a minute" page leaves.
    if (
        request.path_info in settings.HEALTH_PROBE_PATHS
        or settings.SESSION_COOKIE_NAME not in request.COOKIES
        or not hasattr(request, "session")
        or hasattr(request, "database_outage")
    ):
        return ()
    try:
        registration_id = request.session.get(SESSION_KEY)
        return tuple(selectors.frame_origins_of(registration_id)) if registration_id else ()
    except DATABASE_OUTAGES:
        return ()  # the page says "try again in a minute"; it need not be framed


def _launched_session(request) -> bool:
    if hasattr(request, "database_outage"):
        return False
    try:
        return bool(hasattr(request, "session") and request.session.get(SESSION_KEY))
    except DATABASE_OUTAGES:
        return False


# --- the login inside a frame --------------------------------------------------------------------


def _param(request, name: str) -> str:
    return request.GET.get(name) or request.POST.get(name) or ""


def login_needs_cookie_check(request) -> bool:
    """A login inside a frame that has not been through the cookie check yet. A browser that says
    nothing of where the page goes (older than 2023) goes straight on, as at the top level."""
    return request.headers.get("Sec-Fetch-Dest") in FRAME_DESTINATIONS and not _param(
        request, CHECKED_PARAM
    )


def checked_login_url(request) -> str:
    """The same login, past the check: in this frame if it keeps cookies, else in a new window."""
    params = {name: value for name in LOGIN_PARAMS if (value := _param(request, name))}
    params[CHECKED_PARAM] = "1"
    return f"{reverse('lti:login')}?{urlencode(params)}"


def cookie_check(request, registration):
    """The page that tries a cookie in the platform's frame (framed by that platform only)."""
    allow_framing_by_platform(request, registration)
    return render(
        request, "classroom/lti/cookie_check.html", {"login_url": checked_login_url(request)}
    )


# --- middleware ----------------------------------------------------------------------------------


def _frame_cookie_names() -> tuple[str, ...]:
    return (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME)


class LtiFrameMiddleware(MiddlewareMixin):
    """Marks the cookies of a session a launch started ``SameSite=None; Secure`` (over HTTPS), and
    drops ``X-Frame-Options`` from a response that a platform may frame. It reads what
    ``SessionMiddleware``, ``CsrfViewMiddleware`` and ``XFrameOptionsMiddleware`` set, so it comes
    before them in ``MIDDLEWARE`` (a response passes the middleware in reverse order)."""

    def process_response(self, request, response):
        names = [
            name
            for name in _frame_cookie_names()
            if name in response.cookies and response.cookies[name].value  # not a deletion
        ]
        if names and request.is_secure() and _launched_session(request):
            for name in names:
                response.cookies[name]["samesite"] = "None"
                response.cookies[name]["secure"] = True
        if frame_origins(request):
            # X-Frame-Options cannot name an origin; frame-ancestors says who may frame the page.
            del response["X-Frame-Options"]
        return response


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's policy (``CONTENT_SECURITY_POLICY``), with ``frame-ancestors`` naming the
    platform's frame origins where ``frame_origins`` gives some. A view's own policy (django-csp's
    ``csp`` or ``csp_replace`` naming ``frame-ancestors``) comes first."""

    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if report_only or parts.config is not None or "frame-ancestors" in (parts.replace or {}):
            return parts
        origins = frame_origins(request)
        if origins:
            parts.replace = {**(parts.replace or {}), "frame-ancestors": list(origins)}
        return parts
