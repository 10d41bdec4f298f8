"""LTI Deep Linking 2.0 (docs/lti.md, "Deep Linking"): a course's teacher, inside the learning
platform, picks what a link opens (a game with its variant and options, a homework, or a personal
practice of the course's class); the tool answers with an LtiDeepLinkingResponse signed with its
own key (pylti1p3's ``DeepLink``, django-lti's ``Key``), and the platform saves the link with the
custom parameters ``classroom.lti.links`` reads back at each launch.

Between the request and the answer the teacher's choice is a page of its own, often inside the
platform's frame, where this site's cookies may not come back: what the answer needs is carried by
the page's form, signed (``Picking.token``), and spent once."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from urllib.parse import urlsplit

from django import forms
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from lti_tool.lti_core.constants import ContextRole
from lti_tool.lti_core.utils import normalize_role
from lti_tool.models import LtiDeployment
from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource

import engine
from classroom.lti import links, services
from classroom.lti.models import LtiCourse, LtiUsedNonce
from classroom.lti.tool import CheckedLaunch, Refused
from classroom.models import Assignment, Classroom
from classroom.sessions.forms import SessionCreateForm
from games import catalog

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
SETTINGS_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
TOKEN_SALT = "classroom.lti.deep_linking.picking"
# How long the teacher may take to choose: the answer is signed when they choose.
PICKING_SECONDS = 60 * 60


def is_request(claims: dict) -> bool:
    return claims.get(CLAIM + "message_type") == DEEP_LINKING_REQUEST


@dataclass(frozen=True)
class Picking:
    """A deep-linking request accepted: who picks, for which class, and where the answer goes."""

    teacher: object
    classroom: Classroom
    deployment: LtiDeployment
    nonce: str
    settings: dict

    @property
    def return_url(self) -> str:
        return self.settings["deep_link_return_url"]

    @property
    def token(self) -> str:
        return signing.dumps(
            {
                "d": self.deployment.pk,
                "c": self.classroom.pk,
                "t": self.teacher.pk,
                "n": self.nonce,
                "s": self.settings,
            },
            salt=TOKEN_SALT,
            compress=True,
        )


def picking_start(*, launch: CheckedLaunch) -> Picking:
    """A deep-linking request, from an Instructor only: signs them in as any teacher's launch
    does (their account and the course's class made at their first launch, the nonce spent).
    Raises Refused, having written nothing, for anyone else or a request with nowhere to answer."""
    claims = launch.claims
    roles = {normalize_role(role) for role in claims.get(CLAIM + "roles") or []}
    if ContextRole.INSTRUCTOR not in roles:
        raise Refused(f"deep linking by {sorted(roles)}", status=403, kind="deep_link_role")
    settings = dict(claims.get(SETTINGS_CLAIM) or {})
    if urlsplit(str(settings.get("deep_link_return_url", ""))).scheme not in ("https", "http"):
        raise Refused(f"deep linking return URL {settings.get('deep_link_return_url')!r}")
    accepted = services.launch_accept(launch=launch)
    context_id = str((claims.get(CLAIM + "context") or {})["id"])
    course = LtiCourse.objects.select_related("classroom").get(
        deployment=launch.deployment, context_id=context_id
    )
    return Picking(
        teacher=accepted.user,
        classroom=course.classroom,
        deployment=launch.deployment,
        nonce=str(claims["nonce"]),
        settings=settings,
    )


def picking_of(token: str) -> Picking:
    """The picking a form's token carries, if this site signed it within ``PICKING_SECONDS`` and
    its platform, deployment and the teacher's class are still here. Raises Refused."""
    try:
        data = signing.loads(token, salt=TOKEN_SALT, max_age=PICKING_SECONDS)
    except signing.SignatureExpired as error:
        raise Refused(f"deep linking choice: {error}", kind="expired") from error
    except signing.BadSignature as error:
        raise Refused(f"deep linking choice: {error}") from error
    deployment = (
        LtiDeployment.objects.active()
        .filter(pk=data["d"], registration__is_active=True)
        .select_related("registration")
        .first()
    )
    if deployment is None:
        raise Refused(
            "deep linking choice for a deployment no longer active", kind="unknown_platform"
        )
    classroom = Classroom.objects.filter(pk=data["c"], teacher_id=data["t"]).first()
    teacher = get_user_model().objects.filter(pk=data["t"], is_active=True).first()
    if classroom is None or teacher is None:
        raise Refused(
            "deep linking choice for a class no longer the teacher's", status=403, kind="role"
        )
    return Picking(
        teacher=teacher,
        classroom=classroom,
        deployment=deployment,
        nonce=data["n"],
        settings=data["s"],
    )


@dataclass(frozen=True)
class Choice:
    """What the teacher chose (None: nothing, the teacher cancelled) and its title."""

    link: links.Link | None
    title: str = ""


def answer_jwt(*, picking: Picking, choice: Choice, launch_url: str) -> str:
    """The signed LtiDeepLinkingResponse: one resource link to ``launch_url`` with the choice's
    custom parameters (none if cancelled). A picking is answered once: a second answer is refused
    (Refused "replayed"), having written nothing."""
    registration = picking.deployment.registration
    marker = "deep-link-answer:" + hashlib.sha256(picking.nonce.encode()).hexdigest()
    try:
        with transaction.atomic():
            LtiUsedNonce.objects.create(
                issuer=registration.issuer,
                nonce=marker,
                expires_at=timezone.now() + dt.timedelta(seconds=PICKING_SECONDS),
            )
    except IntegrityError as error:
        raise Refused("deep linking choice already answered", kind="replayed") from error
    resources = []
    if choice.link is not None:
        resources.append(
            DeepLinkResource()
            .set_url(launch_url)
            .set_title(choice.title)
            .set_custom_params(links.custom_parameters(choice.link))
        )
    deep_link = DeepLink(
        registration.to_registration(), picking.deployment.deployment_id, picking.settings
    )
    return deep_link.get_response_jwt(resources)


# --- the teacher's page ----------------------------------------------------------------------


class Kind:
    GAME = "game"
    HOMEWORK = "homework"
    PERSONAL = "personal"


class DeepLinkForm(SessionCreateForm):
    """The choice: a game (its variant and options, as for a new lesson), a homework or a
    personal practice of the class. Only the chosen kind's fields count."""

    kind = forms.ChoiceField(
        label=_("What the link opens"),
        widget=forms.RadioSelect,
        initial=Kind.GAME,
        choices=[
            (Kind.GAME, _("A game for a lesson")),
            (Kind.HOMEWORK, _("Homework")),
            (Kind.PERSONAL, _("Personal practice")),
        ],
    )
    homework = forms.TypedChoiceField(label=_("Homework"), coerce=int, required=False)
    personal = forms.TypedChoiceField(label=_("Personal practice"), coerce=int, required=False)

    LESSON_FIELDS = ("table_size", "bot_level", "team_mode", "projector_names", "projector_top")

    def __init__(self, *args, classroom: Classroom, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.LESSON_FIELDS:  # chosen when the lesson opens, not in the link
            del self.fields[name]
        self.fields["variant"].required = False
        assignments = list(
            Assignment.objects.filter(classroom=classroom).order_by("-due_at", "-pk")
        )
        self.assignments = {assignment.pk: assignment for assignment in assignments}
        for name, personal in (("homework", False), ("personal", True)):
            self.fields[name].choices = [
                (a.pk, _assignment_label(a))
                for a in assignments
                if (a.kind == Assignment.Kind.PERSONAL) == personal
            ]

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind")
        if kind != Kind.GAME:  # the game's fields were on the page, but do not count
            for name in list(self.errors):
                if name == "variant" or name.startswith("opt__"):
                    del self.errors[name]
        if kind == Kind.GAME:
            cleaned["choice"] = self._game_choice(cleaned)
        elif kind in (Kind.HOMEWORK, Kind.PERSONAL):
            assignment = self.assignments.get(cleaned.get(kind))
            if assignment is None:
                self.add_error(kind, _("Choose one from the list."))
            else:
                cleaned["choice"] = Choice(
                    link=links.AssignmentLink(assignment_id=assignment.pk), title=assignment.title
                )
        return cleaned

    def _game_choice(self, cleaned) -> Choice | None:
        if not cleaned.get("game"):
            if "variant" not in self.errors:
                self.add_error("variant", _("Choose a game and its variant."))
            return None
        try:
            link = links.game_link(
                game=cleaned["game"], variant=cleaned["variant_name"], options=cleaned["options"]
            )
        except engine.SetupError as error:
            self.add_engine_error(error)
            return None
        return Choice(link=link, title=catalog.game_and_variant_title(link.game, link.variant))


def _assignment_label(assignment: Assignment) -> str:
    due = formats.date_format(timezone.localtime(assignment.due_at), "SHORT_DATE_FORMAT")
    return str(_("%(title)s (due %(date)s)") % {"title": assignment.title, "date": due})
