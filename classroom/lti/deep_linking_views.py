"""Deep Linking's pages (docs/lti.md, "Deep Linking"): thin, the checks and the signed answer in
``deep_linking``, what a link opens in ``links``.

The picker answers the platform's deep-linking launch (``views.launch`` hands it over), often
inside the platform's frame, where this site's cookies may not come back: its form carries the
signed picking instead of a CSRF token, and its answer needs no session. The answer page posts the
signed LtiDeepLinkingResponse to the platform's return URL, by its Continue button or at once by
its script (no inline script: CSP)."""

from urllib.parse import urlsplit

from csp.decorators import csp_update
from django.contrib.auth import login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.log import log_response
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

import engine
from accounts.permissions import student_required
from classroom.homework import selectors as homework_selectors
from classroom.lti import deep_linking, links, tool
from classroom.models import Assignment, Classroom
from games import catalog

REFUSALS = {
    "expired": _(
        "This choice waited too long. Go back to the course and choose what the link opens again."
    ),
    "replayed": _(
        "This choice has already been sent to the course. To change it, edit the link in the "
        "course and choose again."
    ),
    "unknown_platform": _(
        "This learning platform is no longer registered here. Ask the school's administrator."
    ),
    "role": _("This course's class here is no longer yours."),
    "invalid": _("This choice could not be checked, so nothing was sent to the course."),
}


def _refused(request, refusal: tool.Refused):
    response = render(
        request,
        "classroom/lti/refused.html",
        {"message": REFUSALS.get(refusal.kind, REFUSALS["invalid"])},
        status=refusal.status,
    )
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


def picker(request, checked: tool.CheckedLaunch):
    """The teacher's choice of what the link opens; raises Refused (the launch's page) for
    anyone but an Instructor, having written nothing."""
    picking = deep_linking.picking_start(launch=checked)
    login(request, picking.teacher, backend="django.contrib.auth.backends.ModelBackend")
    return _picker_page(request, picking, deep_linking.DeepLinkForm(classroom=picking.classroom))


def _picker_page(request, picking: deep_linking.Picking, form, status: int = 200):
    return render(
        request,
        "classroom/lti/deep_link_picker.html",
        {
            "form": form,
            "groups": form.option_groups(),
            "classroom": picking.classroom,
            "picking": picking.token,
        },
        status=status,
    )


@csrf_exempt  # no cookie may come back inside the platform's frame: the signed picking stands in
@never_cache
@require_POST
def deep_link_answer(request):
    """The teacher's choice (or their Cancel), signed as an LtiDeepLinkingResponse."""
    try:
        picking = deep_linking.picking_of(request.POST.get("picking", ""))
        if "cancel" in request.POST:
            choice = deep_linking.Choice(link=None)
        else:
            form = deep_linking.DeepLinkForm(request.POST, classroom=picking.classroom)
            if not form.is_valid():
                return _picker_page(request, picking, form)
            choice = form.cleaned_data["choice"]
        token = deep_linking.answer_jwt(
            picking=picking,
            choice=choice,
            launch_url=request.build_absolute_uri(reverse("lti:launch")),
        )
    except tool.Refused as refusal:
        return _refused(request, refusal)
    parts = urlsplit(picking.return_url)

    # The page's form goes to the platform: its origin, and only it, joins the form-action.
    @csp_update({"form-action": [f"{parts.scheme}://{parts.netloc}"]})
    def page(request):
        return render(
            request,
            "classroom/lti/deep_link_return.html",
            {"return_url": picking.return_url, "jwt": token, "choice": choice},
        )

    return page(request)


@student_required
def game_waiting(request, classroom_id, game, variant):
    """A child's game link while the class's lesson of that game is not open: says so; once it
    is, this address leads to it."""
    classroom = get_object_or_404(Classroom, pk=classroom_id, enrollments__student=request.user)
    try:
        links.game_link(game=game, variant=variant, options={})
    except engine.SetupError as error:
        raise Http404 from error
    session = links.running_session(classroom=classroom, game=game, variant=variant)
    if session is not None:
        return redirect("classroom:sessions_lobby", session_id=session.pk)
    return render(
        request,
        "classroom/lti/link_waiting.html",
        {
            "game_title": catalog.game_and_variant_title(game, variant, child=True),
            "classroom": classroom,
        },
    )


@student_required
def practice_not_set(request, assignment_id):
    """A child's link to a personal practice set for other children of the class."""
    assignment = get_object_or_404(
        Assignment, pk=assignment_id, classroom__enrollments__student=request.user
    )
    if homework_selectors.student_assignment(student=request.user, assignment_id=assignment.pk):
        return redirect("classroom:homework_student", assignment_id=assignment.pk)
    return render(
        request,
        "classroom/lti/link_waiting.html",
        {"assignment": assignment, "classroom": assignment.classroom},
    )
