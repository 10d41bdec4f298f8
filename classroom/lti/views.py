"""The tool's endpoints under /lti/ (docs/lti.md): thin, the checks in ``tool``, the writes in
``services``. A refused login or launch answers a page that says what to do, logs one line with
the reason, and has written nothing."""

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth import login
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.log import log_response
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from lti_tool.models import Key

from classroom.lti import deep_linking, deep_linking_views, frames, selectors, services, tool
from classroom.lti.forms import RegistrationForm

REFUSALS = {
    "expired": _(
        "This link from your learning platform has expired. Go back to the course and open it "
        "again."
    ),
    "stale": _(
        "This launch could not be checked: it may have been opened before. Go back to the course "
        "and open the link again."
    ),
    "replayed": _(
        "This launch has already been used. Go back to the course and open the link again."
    ),
    "unknown_platform": _(
        "This learning platform is not registered here, or not for this course. Ask the school's "
        "administrator to register it (and its deployment) on this site."
    ),
    "invalid": _("This launch could not be checked, so nobody was signed in."),
    "not_set_up": _("This site is not set up for learning platforms yet. Try again later."),
    "no_course": _("Open this tool from inside a course of your learning platform."),
    "role": _("This tool is for the course's teachers and students."),
    "other_teacher": _(
        "This course's class here belongs to another teacher of the course: ask them to share it."
    ),
    "not_ready": _(
        "Your teacher has not opened this tool in the course yet. Try again after they have."
    ),
    "deep_link_role": _("Only the course's teachers choose what this tool's links open."),
    "bad_link": _(
        "This link opens a game or homework that this course's class does not have here. Ask "
        "the course's teacher to choose again what the link opens."
    ),
}


def _refused(request, refusal: tool.Refused):
    response = render(
        request,
        "classroom/lti/refused.html",
        {"message": REFUSALS.get(refusal.kind, REFUSALS["invalid"])},
        status=refusal.status,
    )
    # Shown in the frame of whichever registered platform sent the launch (docs/lti.md).
    frames.allow_framing(request, selectors.frame_origins_of_every_platform())
    # The one line of the refusal, with its reason; Django's own line for a 4xx is then not added.
    log_response(
        "LTI %s refused (%s): %s",
        request.path,
        refusal.kind,
        refusal.reason,
        response=response,
        request=request,
        logger=tool.logger,
    )
    return response


@csrf_exempt
@never_cache
@require_http_methods(["GET", "POST"])
def oidc_login(request):
    """Third-party initiated login: the platform names itself, the tool answers with the way back
    to the platform's authorization endpoint, and always to this tool's own launch URL."""
    try:
        if frames.login_needs_cookie_check(request):  # inside a frame (docs/lti.md)
            return frames.cookie_check(request, tool.login_registration(request))
        return tool.oidc_login_response(
            request, target_link_uri=request.build_absolute_uri(reverse("lti:launch"))
        )
    except tool.Refused as refusal:
        return _refused(request, refusal)


@csrf_exempt
@never_cache
@require_POST
def launch(request):
    try:
        checked = tool.launch_checked(request)
        frames.allow_framing_by_platform(request, checked.registration)
        if deep_linking.is_request(checked.claims):
            return deep_linking_views.picker(request, checked)
        accepted = services.launch_accept(launch=checked)
    except tool.Refused as refusal:
        return _refused(request, refusal)
    login(request, accepted.user, backend=accepted.backend)
    frames.session_mark_launched(request, checked.registration)
    response = redirect(accepted.landing_url)
    language = tool.launch_language(checked.claims)
    if language:
        # The person's language on the platform, for this browser as the language menu sets it:
        # a language they chose here still comes first (accounts.languages).
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


@require_GET
def jwks(request):
    """This tool's public keys, the ones platforms check its signed messages with."""
    return JsonResponse(Key.objects.as_jwks())


@staff_member_required
@require_http_methods(["GET", "POST"])
def registration(request):
    """A platform's registration, entered by the site's administrator from what the platform's
    own admin page shows; and what to enter there, this tool's URLs."""
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.registration_save(**form.cleaned_data)
        return redirect("lti:registration")
    return render(
        request,
        "classroom/lti/registration.html",
        {
            "form": form,
            "tool_urls": selectors.tool_urls(request),
            "registrations": selectors.registrations(),
            "registration_links": selectors.registration_links_open(request),
            "has_key": Key.objects.active().exists(),
        },
    )
