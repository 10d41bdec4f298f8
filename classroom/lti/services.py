"""Writes of LTI launches and of this tool's setup (docs/lti.md). Keyword-only."""

from __future__ import annotations

import datetime as dt
import itertools
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from lti_tool.lti_core.constants import ContextRole
from lti_tool.lti_core.utils import normalize_role
from lti_tool.models import Key, LtiDeployment, LtiRegistration

from accounts.models import Role, User
from classroom.lti import dynamic_registration, grades, links
from classroom.lti.models import (
    LtiCourse,
    LtiFrameOrigins,
    LtiPerson,
    LtiRegistrationLink,
    LtiUsedNonce,
)
from classroom.lti.tool import CheckedLaunch, Refused
from classroom.models import Enrollment
from classroom.services import classroom_add_student, classroom_create

CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
NAME_LENGTH = User._meta.get_field("display_name").max_length
CLASS_NAME_LENGTH = 80
MEMBERSHIPS_URL_LENGTH = LtiCourse._meta.get_field("memberships_url").max_length


@dataclass(frozen=True)
class Accepted:
    user: User
    landing_url: str
    backend: str


def launch_accept(*, launch: CheckedLaunch) -> Accepted:
    """Signs a launch's person into their account here: an Instructor into the class of the
    platform's course (made, with their teacher account, at their first launch), a Learner into
    the same class as a student (an account with no password and no e-mail, made at their first
    launch). Spends the launch's nonce first. Raises Refused, having written nothing, for a
    replayed launch or a person this tool cannot sign in."""
    claims = launch.claims
    roles = {normalize_role(role) for role in claims.get(CLAIM + "roles") or []}
    context = claims.get(CLAIM + "context") or {}
    links.link_of(claims)  # a link naming what this site does not have is refused before writing
    with transaction.atomic():
        _nonce_spend(claims)
        if not context.get("id"):
            raise Refused("launch outside a course", status=403, kind="no_course")
        if ContextRole.INSTRUCTOR in roles:
            return _instructor_launch(launch, context)
        if ContextRole.LEARNER in roles:
            return _learner_launch(launch, context)
        raise Refused(f"no role this tool serves: {sorted(roles)}", status=403, kind="role")


def _nonce_spend(claims: dict) -> None:
    now = timezone.now()
    expires_at = dt.datetime.fromtimestamp(int(claims["exp"]), tz=dt.UTC)
    try:
        with transaction.atomic():
            LtiUsedNonce.objects.create(
                issuer=claims["iss"], nonce=str(claims["nonce"]), expires_at=expires_at
            )
    except IntegrityError as error:
        raise Refused("nonce already used: a replayed launch", kind="replayed") from error
    LtiUsedNonce.objects.filter(expires_at__lt=now).delete()


def person_name(claims: dict) -> str:
    """A person's name in a launch's claims or a class list's member (the same keys)."""
    name = claims.get("name") or " ".join(
        part for part in (claims.get("given_name"), claims.get("family_name")) if part
    )
    return (name or "").strip()[:NAME_LENGTH]


def _person(launch: CheckedLaunch) -> LtiPerson | None:
    return (
        LtiPerson.objects.select_related("user")
        .filter(registration=launch.registration, sub=str(launch.claims["sub"]))
        .first()
    )


def _instructor_launch(launch: CheckedLaunch, context: dict) -> Accepted:
    person = _person(launch)
    if person is None:
        teacher = User(
            username=f"lti-{uuid.uuid4().hex[:16]}",
            role=Role.TEACHER,
            display_name=person_name(launch.claims),
        )
        teacher.set_unusable_password()  # signs in through the platform only
        teacher.save()
        LtiPerson.objects.create(
            registration=launch.registration,
            sub=str(launch.claims["sub"]),
            user=teacher,
            imported_name=teacher.display_name,
        )
    else:
        teacher = person.user
        if teacher.role != Role.TEACHER or not teacher.is_active:
            raise Refused("instructor whose account is not a teacher's", status=403, kind="role")
    course = (
        LtiCourse.objects.select_related("classroom")
        .filter(deployment=launch.deployment, context_id=str(context["id"]))
        .first()
    )
    if course is None:
        name = (context.get("title") or context.get("label") or "").strip()
        classroom = classroom_create(teacher=teacher, name=name[:CLASS_NAME_LENGTH] or "LTI")
        course = LtiCourse.objects.create(
            deployment=launch.deployment, context_id=str(context["id"]), classroom=classroom
        )
    elif course.classroom.teacher_id != teacher.pk:
        # A class here has one teacher: a second instructor of the course is not let in.
        raise Refused("the course's class is another teacher's", status=403, kind="other_teacher")
    _memberships_url_note(course, launch.claims)
    grades.endpoint_store(course=course, claims=launch.claims)
    return Accepted(
        user=teacher,
        landing_url=links.teacher_landing(launch.claims, course.classroom),
        backend="django.contrib.auth.backends.ModelBackend",
    )


def _learner_launch(launch: CheckedLaunch, context: dict) -> Accepted:
    course = (
        LtiCourse.objects.select_related("classroom__teacher")
        .filter(deployment=launch.deployment, context_id=str(context["id"]))
        .first()
    )
    if course is None:
        raise Refused(
            "learner before any instructor opened the course", status=403, kind="not_ready"
        )
    classroom = course.classroom
    _memberships_url_note(course, launch.claims)
    grades.endpoint_store(course=course, claims=launch.claims)
    person = _person(launch)
    if person is None:
        student = classroom_add_student(
            classroom=classroom, display_name=person_name(launch.claims) or "?"
        )
        LtiPerson.objects.create(
            registration=launch.registration,
            sub=str(launch.claims["sub"]),
            user=student,
            imported_name=student.display_name,
        )
    else:
        student = person.user
        if student.role != Role.STUDENT or not student.is_active:
            raise Refused("learner whose account is not a student's", status=403, kind="role")
        Enrollment.objects.get_or_create(classroom=classroom, student=student)
    return Accepted(
        user=student,
        landing_url=links.learner_landing(launch.claims, classroom, student),
        backend="accounts.backends.StudentSecretBackend",
    )


def _memberships_url_note(course: LtiCourse, claims: dict) -> None:
    """The course's member list, where the platform offers it (Names and Role Provisioning): the
    roster sync reads it (``roster``). The latest launch that names it says where it is."""
    url = str((claims.get(NRPS_CLAIM) or {}).get("context_memberships_url") or "")
    if (
        url.startswith(("https://", "http://"))
        and url != course.memberships_url
        and len(url) <= MEMBERSHIPS_URL_LENGTH
    ):
        course.memberships_url = url
        course.save(update_fields=["memberships_url"])


# --- setup ---------------------------------------------------------------------------------------


@transaction.atomic
def registration_save(
    *,
    name: str,
    issuer: str,
    client_id: str,
    deployment_ids: list[str],
    keyset_url: str,
    auth_url: str,
    token_url: str,
    frame_origins: list[str] | None = None,
) -> LtiRegistration:
    """A platform's registration as its admin gave it, keyed by (issuer, client id); saving the
    same pair again updates it. Its deployments are those listed: others are deactivated (their
    launches refused), not deleted, so that their classes stay linked if they come back.
    ``frame_origins``: where the platform shows this tool in a frame (empty: its issuer's origin;
    None: as before)."""
    registration, _created = LtiRegistration.objects.update_or_create(
        issuer=issuer,
        client_id=client_id,
        defaults={
            "name": name or issuer,
            "keyset_url": keyset_url,
            "auth_url": auth_url,
            "token_url": token_url,
            "is_active": True,
        },
    )
    for deployment_id in deployment_ids:
        LtiDeployment.objects.update_or_create(
            registration=registration, deployment_id=deployment_id, defaults={"is_active": True}
        )
    registration.deployments.exclude(deployment_id__in=deployment_ids).update(is_active=False)
    if frame_origins is not None:
        LtiFrameOrigins.objects.update_or_create(
            registration=registration, defaults={"origins": frame_origins}
        )
    return registration


@dataclass(frozen=True)
class Rotation:
    created: Key | None
    retired: int


@transaction.atomic
def keys_rotate(*, rotate: bool) -> Rotation:
    """This tool's signing key: made if there is none (or ``rotate``: a new one, which signs from
    now on). A key replaced more than ``LTI_OLD_KEY_KEPT_HOURS`` ago leaves the key set: until
    then what it signed can still be checked by platforms."""
    keys = list(Key.objects.active().order_by("datetime_created", "pk"))
    created = Key.objects.generate() if rotate or not keys else None
    if created is not None:
        keys.append(created)
    cutoff = timezone.now() - dt.timedelta(hours=settings.LTI_OLD_KEY_KEPT_HOURS)
    retired = [
        key.pk
        for key, successor in itertools.pairwise(keys)
        if successor.datetime_created <= cutoff
    ]
    Key.objects.filter(pk__in=retired).update(is_active=False)
    return Rotation(created=created, retired=len(retired))


# --- dynamic registration (classroom/lti/dynamic_registration.py) -------------------------------


def registration_link_create(*, created_by: User, name: str = "") -> LtiRegistrationLink:
    """A one-time registration link, valid for ``LINK_DAYS``. Links that expired unused go."""
    now = timezone.now()
    LtiRegistrationLink.objects.filter(used_at__isnull=True, expires_at__lte=now).delete()
    return LtiRegistrationLink.objects.create(
        name=name.strip()[:255],
        created_by=created_by,
        expires_at=now + dt.timedelta(days=dynamic_registration.LINK_DAYS),
    )


def registration_link_withdraw(*, link_id: int) -> None:
    """An unused link taken back: it registers nothing after this."""
    LtiRegistrationLink.objects.filter(pk=link_id, used_at__isnull=True).delete()


@transaction.atomic
def dynamic_registration_save(
    *,
    platform: dynamic_registration.PlatformConfiguration,
    answer: dynamic_registration.PlatformAnswer,
    link: LtiRegistrationLink | None,
    name: str,
) -> LtiRegistration:
    """The registration the platform answered, saved as a manual one is (``registration_save``:
    keyed by issuer and client id), its deployment added to those already active for the pair.
    Spends the link first: a link used meanwhile (or expired) refuses, having written nothing."""
    now = timezone.now()
    if link is not None:
        spent = LtiRegistrationLink.objects.filter(
            pk=link.pk, used_at__isnull=True, expires_at__gt=now
        ).update(used_at=now)
        if not spent:
            raise dynamic_registration.RegistrationRefused(
                "bad_link", f"registration link {link.pk} used or expired meanwhile", status=403
            )
    deployment_ids = list(
        LtiDeployment.objects.filter(
            registration__issuer=platform.issuer,
            registration__client_id=answer.client_id,
            is_active=True,
        ).values_list("deployment_id", flat=True)
    )
    if answer.deployment_id and answer.deployment_id not in deployment_ids:
        deployment_ids.append(answer.deployment_id)
    registration = registration_save(
        name=name,
        issuer=platform.issuer,
        client_id=answer.client_id,
        deployment_ids=deployment_ids,
        keyset_url=platform.jwks_uri,
        auth_url=platform.authorization_endpoint,
        token_url=platform.token_endpoint,
    )
    if link is not None:
        LtiRegistrationLink.objects.filter(pk=link.pk).update(registration=registration)
    return registration
