"""Reads of the LTI setup."""

from django.core import signing
from django.urls import reverse
from django.utils import timezone
from lti_tool.models import LtiRegistration

from classroom.lti.grades import SCOPE_SCORE
from classroom.lti.models import (
    LtiCourse,
    LtiFrameOrigins,
    LtiGradeService,
    LtiPerson,
    LtiRegistrationLink,
    origin_of,
)


def tool_urls(request) -> dict[str, str]:
    """What a platform's admin enters about this tool, absolute as the platform reaches it."""
    return {
        "login": request.build_absolute_uri(reverse("lti:login")),
        "launch": request.build_absolute_uri(reverse("lti:launch")),
        "jwks": request.build_absolute_uri(reverse("lti:jwks")),
    }


def registrations():
    return (
        LtiRegistration.objects.prefetch_related("deployments")
        .select_related("frame_origins")
        .order_by("issuer", "client_id")
    )


# --- registration links (dynamic registration) ---------------------------------------------------

LINK_SALT = "classroom.lti.registration-link"


def registration_link_token(link: LtiRegistrationLink) -> str:
    """The link's part of its URL: its id, signed with the site's secret key (so that the URL
    can be shown again on /lti/registrations/ while nothing secret is stored)."""
    return signing.Signer(salt=LINK_SALT).sign(str(link.pk))


def registration_link_url(request, link: LtiRegistrationLink) -> str:
    return request.build_absolute_uri(
        reverse("lti:register_link", args=[registration_link_token(link)])
    )


def registration_link_usable(token: str) -> LtiRegistrationLink | None:
    """The link the token names, if it is still good: unused, not expired, not withdrawn."""
    try:
        link_id = int(signing.Signer(salt=LINK_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    return LtiRegistrationLink.objects.filter(
        pk=link_id, used_at__isnull=True, expires_at__gt=timezone.now()
    ).first()


def registration_links_open(request) -> list[dict]:
    """The links not used yet and still good, newest first, with their URLs."""
    links = LtiRegistrationLink.objects.filter(
        used_at__isnull=True, expires_at__gt=timezone.now()
    ).order_by("-created_at", "-pk")
    return [{"link": link, "url": registration_link_url(request, link)} for link in links]


# --- grades back to the platform -----------------------------------------------------------------

SCORES_SHOWN = 60  # of those a run sent, the page lists this many


def grades_panel(*, course) -> dict:
    """What a linked class's page shows of its grades going back to the platform
    (grades_panel.html): the course's gradebook service, if the platform offered one, and
    whether it takes scores; the latest run; and the scores it sent, by homework and child
    (four queries)."""
    service = LtiGradeService.objects.filter(course=course).first()
    run = course.grade_runs.first()
    scores = []
    if run is not None and run.sent:
        scores = list(
            run.scores.select_related("student", "line_item__assignment").order_by(
                "line_item__assignment__due_at",
                "line_item__assignment_id",
                "-line_item__figure",  # the result, then the mastery figure
                "student__display_name",
                "student_id",
            )[: SCORES_SHOWN + 1]
        )
    return {
        "service": service,
        "can_send": service is not None and SCOPE_SCORE in service.scopes,
        "run": run,
        "scores": scores[:SCORES_SHOWN],
        "more": run.scores.count() - SCORES_SHOWN if len(scores) > SCORES_SHOWN else 0,
    }


def _frame_origins(registration: LtiRegistration) -> list[str]:
    try:
        entered = registration.frame_origins.origins
    except LtiFrameOrigins.DoesNotExist:
        entered = []
    issuer = origin_of(registration.issuer)
    return list(entered) or ([issuer] if issuer else [])


def frame_origins_of(registration_id: int) -> list[str]:
    """The origins that may frame the pages of a session this registration's launch started
    (docs/lti.md, "Inside a frame"): those its administrator entered, else its issuer's; none
    for a registration switched off or gone."""
    registration = (
        LtiRegistration.objects.active()
        .filter(pk=registration_id)
        .select_related("frame_origins")
        .first()
    )
    return _frame_origins(registration) if registration is not None else []


def frame_origins_of_every_platform() -> list[str]:
    """Every active registration's frame origins: a refused launch's page, shown in the frame of
    whichever platform sent it."""
    origins = {}
    for registration in LtiRegistration.objects.active().select_related("frame_origins"):
        origins.update(dict.fromkeys(_frame_origins(registration)))
    return list(origins)


# --- a linked class's page ---------------------------------------------------------------------


def linked_course(*, classroom) -> LtiCourse | None:
    """The platform's course the class is linked to, if it is."""
    return (
        LtiCourse.objects.filter(classroom=classroom)
        .select_related("deployment__registration")
        .first()
    )


def from_platform(*, students) -> set[int]:
    """The ids of those of ``students`` who came by a platform's launch (one query)."""
    return set(LtiPerson.objects.filter(user__in=students).values_list("user_id", flat=True))


def class_panel(*, classroom) -> dict | None:
    """What the class's page shows of its learning platform (classroom/lti/class_panel.html):
    the course, the latest roster sync, the grades' part; None for a class no course is linked to
    (one query)."""
    course = linked_course(classroom=classroom)
    if course is None:
        return None
    return {
        "course": course,
        "roster_sync": course.roster_syncs.select_related("requested_by").first(),
        "grades": grades_panel(course=course),
    }
