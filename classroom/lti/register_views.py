"""LTI Dynamic Registration's pages (docs/lti.md, "Registering by one URL"): thin, the calls to
the platform in ``dynamic_registration``, the writes in ``services``.

A platform opens the registration address in a frame of its own admin page (Moodle, Canvas), a
cross-site frame: this site's session cookie (SameSite=Lax) is not sent there, and where the
browser blocks third-party cookies no cookie would be. So what lets a registration through is a
one-time link made by the site's administrator on /lti/registrations/ (``register_link``), not a
sign-in; its pages may be framed by any HTTPS site (the platform's admin page is on whatever
domain the school's platform has), and its form needs no CSRF cookie (the link in the URL is the
credential, and it is spent by the registration). /lti/register/ itself serves the site's
administrator when signed in in the same browser window (a platform that opens the address as a
page of its own); anyone else, in a frame or not, is told to ask for a link."""

from csp.decorators import csp_replace
from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.log import log_response
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from lti_tool.models import Key

from classroom.lti import dynamic_registration, selectors, services
from classroom.lti.dynamic_registration import RegistrationRefused
from classroom.lti.tool import logger

# The platform's admin page frames the registration: any HTTPS site (or one on this machine, a
# platform under development).
FRAMED_BY_PLATFORMS = {"frame-ancestors": ["https:", "http://localhost:*", "http://127.0.0.1:*"]}

REFUSALS = {
    "bad_link": _(
        "This registration link has been used, has expired or was withdrawn. Ask this site's "
        "administrator for a new one."
    ),
    "not_from_platform": _(
        "Open this address from your learning platform: paste it where the platform registers a "
        "tool by its URL (in Moodle, “Tool URL” under Manage tools; in Canvas, Developer Keys, "
        "LTI Registration)."
    ),
    "bad_configuration_url": _(
        "The learning platform gave an address for its configuration that this site will not "
        "fetch (it must be an https:// address). Start the registration again from the platform."
    ),
    "unreachable": _(
        "The learning platform did not send its configuration, or did not answer in time. Check "
        "that this site can reach it, and start the registration again from the platform."
    ),
    "bad_configuration": _(
        "The learning platform's configuration lacks what a registration needs: its issuer, its "
        "registration endpoint, its authorization and token URLs and its key set."
    ),
    "issuer_mismatch": _(
        "The learning platform's configuration names another site as its issuer than the site it "
        "came from, so it cannot be trusted."
    ),
    "platform_refused": _("The learning platform refused the registration."),
    "bad_answer": _("The learning platform's answer gave no client ID for this tool."),
    "not_set_up": _(
        "This site has no signing key yet: run “python manage.py lti_keys” on the server, then "
        "start the registration again."
    ),
}


def _refused(request, refusal: RegistrationRefused):
    response = render(
        request,
        "classroom/lti/register_refused.html",
        {
            "message": REFUSALS.get(refusal.kind, REFUSALS["bad_answer"]),
            "detail": refusal.detail,
        },
        status=refusal.status,
    )
    # One line with the reason; never the link nor the query string (the platform's token): both
    # are credentials.
    log_response(
        "LTI %s refused (%s): %s",
        reverse("lti:register") + ("<link>/" if request.resolver_match.kwargs else ""),
        refusal.kind,
        refusal.reason,
        response=response,
        request=request,
        logger=logger,
    )
    return response


def _register(request, *, link):
    """The registration itself. GET: the platform's configuration is fetched and checked, and the
    page asks to register. POST: fetched and checked again, the tool's configuration is posted
    to the platform, and its answer saved. A refusal at any step has written nothing."""
    config_url = request.GET.get("openid_configuration", "")
    token = request.GET.get("registration_token", "")
    try:
        if not config_url:
            raise RegistrationRefused(
                "not_from_platform", "no openid_configuration parameter", status=400
            )
        if not Key.objects.active().exists():
            raise RegistrationRefused("not_set_up", "no key of this tool's yet", status=503)
        platform = dynamic_registration.platform_configuration(url=config_url, token=token)
        name = (link.name if link else "") or platform.label
        if request.method == "GET":
            return render(
                request,
                "classroom/lti/register_confirm.html",
                {"platform": platform, "name": name, "link": link},
            )
        tool = dynamic_registration.tool_configuration(
            urls={**selectors.tool_urls(request), "logo": request.build_absolute_uri(_logo())},
            domain=request.get_host(),
            name=gettext("Arithmetic games classroom"),
            description=gettext(
                "Children practise adding, subtracting and multiplying by playing real tabletop "
                "games."
            ),
        )
        answer = dynamic_registration.platform_register(platform=platform, token=token, tool=tool)
        registration = services.dynamic_registration_save(
            platform=platform, answer=answer, link=link, name=name
        )
    except RegistrationRefused as refusal:
        return _refused(request, refusal)
    logger.info(
        "LTI registered by dynamic registration: %s, client id %s, deployment %s",
        registration.issuer,
        registration.client_id,
        answer.deployment_id or "(none)",
    )
    return render(
        request,
        "classroom/lti/register_done.html",
        {"registration": registration, "deployment_id": answer.deployment_id},
    )


def _logo() -> str:
    # Not the hashed name of the static files' manifest: the platform keeps this URL for good.
    return f"{settings.STATIC_URL}img/favicon.svg"


@never_cache
@require_http_methods(["GET", "POST"])
def register(request):
    """/lti/register/: the site's administrator, signed in in this window, registers the
    platform that opened it; anyone else is told how to get a registration link."""
    if not (request.user.is_active and request.user.is_staff):
        return _needs_a_link(request)
    return _register(request, link=None)


@xframe_options_exempt
@csp_replace(FRAMED_BY_PLATFORMS)
def _needs_a_link(request):
    return render(request, "classroom/lti/register_needs_link.html", status=403)


@csrf_exempt
@xframe_options_exempt
@csp_replace(FRAMED_BY_PLATFORMS)
@never_cache
@require_http_methods(["GET", "POST"])
def register_link(request, token: str):
    """/lti/register/<link>/: a one-time registration link, in the platform's frame."""
    link = selectors.registration_link_usable(token)
    if link is None:
        return _refused(
            request, RegistrationRefused("bad_link", "unknown, used or expired link", status=403)
        )
    return _register(request, link=link)


@staff_member_required
@require_POST
def registration_link_create(request):
    services.registration_link_create(created_by=request.user, name=request.POST.get("name", ""))
    return redirect(reverse("lti:registration") + "#registration-links")


@staff_member_required
@require_POST
def registration_link_withdraw(request, link_id: int):
    services.registration_link_withdraw(link_id=link_id)
    return redirect(reverse("lti:registration") + "#registration-links")
