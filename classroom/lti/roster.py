"""The class list from the learning platform (LTI Names and Role Provisioning, docs/lti.md): a
linked class's roster follows its course's member list, when its teacher asks or on the schedule.

A run reads the whole list first (every page, over HTTP, with pylti1p3's service client), then
changes the class in one transaction; a run that cannot read the list changes nothing and records
why. Learners become the class's children (a picture or PIN to sign in with, as any child here;
never an e-mail); a learner gone from the list, or listed Inactive or Deleted, leaves the class
and keeps their account, answers and figures. A child's new name on the platform is taken only
while the name here is still the platform's (``classroom.roster.synced_names``). A class here has
one teacher: another Instructor of the course is reported, not made its teacher. Children added
here by hand are never touched. django-lti's own roster sync is not used: it never takes out a
learner who is missing from the list."""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from dataclasses import dataclass
from functools import partial

import requests
from celery import current_app
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.utils import timezone
from lti_tool.lti_core.constants import ContextRole
from lti_tool.lti_core.utils import normalize_role
from pylti1p3.exception import LtiServiceException
from pylti1p3.names_roles import NamesRolesProvisioningService

from accounts.models import Role, SecretKind
from classroom.lti import tool
from classroom.lti.models import LtiCourse, LtiPerson, LtiRosterSync
from classroom.lti.services import person_name
from classroom.models import Enrollment
from classroom.roster.services import enrollment_remove, student_add
from classroom.roster.synced_names import source_name_to_take

logger = logging.getLogger("classroom.lti")

NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
# Found by name: the task calls these services (as classroom.progress does).
SYNC_TASK = "classroom.lti.tasks.sync_roster"
MAX_PAGES = 500  # a course of 500 pages of members is a loop, not a class
RUNS_KEPT = 20  # per course: the record of runs is for the teacher's page, not an archive
# A run still waiting or reading this long after it was asked for is taken as lost (its worker
# died): the teacher's next ask queues a new one.
LOST_AFTER = dt.timedelta(minutes=15)
GONE = {"inactive", "deleted"}
NAME_KEYS = ("name", "given_name", "family_name")

Failure = LtiRosterSync.Failure
Status = LtiRosterSync.Status


class SyncFailed(Exception):
    def __init__(self, failure: str, detail: str):
        super().__init__(detail)
        self.failure = failure
        self.detail = detail[:2000]


# --- asking for a run ----------------------------------------------------------------------------


def roster_sync_request(*, course: LtiCourse, requested_by=None) -> LtiRosterSync:
    """A run of the course's roster sync, queued for a Celery worker once this commits (run at
    once when Celery runs eagerly). ``requested_by``: the teacher who asked; None: the schedule.
    A run already waiting or under way is returned instead of queuing another."""
    with transaction.atomic():
        course = LtiCourse.objects.select_for_update().get(pk=course.pk)
        pending = (
            course.roster_syncs.filter(
                status__in=[Status.QUEUED, Status.RUNNING],
                created_at__gte=timezone.now() - LOST_AFTER,
            )
            .order_by("-created_at", "-pk")
            .first()
        )
        if pending is not None:
            return pending
        run = LtiRosterSync.objects.create(
            course=course,
            trigger=LtiRosterSync.Trigger.TEACHER
            if requested_by
            else LtiRosterSync.Trigger.SCHEDULE,
            requested_by=requested_by,
        )
        transaction.on_commit(partial(_enqueue, run.pk))
    return run


def _enqueue(run_id: int) -> None:
    current_app.tasks[SYNC_TASK].delay(run_id)


def roster_syncs_schedule() -> list[LtiRosterSync]:
    """The schedule's runs: one for every course whose platform offers its member list and whose
    registration and deployment are in force."""
    courses = LtiCourse.objects.exclude(memberships_url="").filter(
        deployment__is_active=True, deployment__registration__is_active=True
    )
    return [roster_sync_request(course=course) for course in courses.order_by("pk")]


# --- a run ---------------------------------------------------------------------------------------


def roster_sync_run(*, run_id: int) -> str:
    """Reads the course's member list and brings the class in line with it; returns the run's
    status. A run that is no longer waiting (done, or taken by another worker) is left alone,
    unless it was begun so long ago that its worker died: Celery delivers it again, and it runs."""
    with transaction.atomic():
        run = LtiRosterSync.objects.select_for_update().filter(pk=run_id).first()
        if run is None:
            return "gone"
        lost = run.status == Status.RUNNING and run.created_at < timezone.now() - LOST_AFTER
        if run.status != Status.QUEUED and not lost:
            return run.status
        run.status = Status.RUNNING
        run.save(update_fields=["status"])
    course = LtiCourse.objects.select_related("deployment__registration", "classroom").get(
        pk=run.course_id
    )
    try:
        members = _members_read(course)
        with transaction.atomic():
            changes = _apply(course.pk, members)
    except SyncFailed as failed:
        logger.warning(
            "LTI roster sync of class %s failed (%s): %s",
            course.classroom_id,
            failed.failure,
            failed.detail,
        )
        return _finish(run, status=Status.FAILED, failure=failed.failure, error=failed.detail)
    except Exception as error:  # recorded for the teacher's page, with its traceback in the log
        logger.exception("LTI roster sync of class %s failed", course.classroom_id)
        return _finish(
            run, status=Status.FAILED, failure=Failure.TOOL_ERROR, error=type(error).__name__
        )
    return _finish(run, status=Status.DONE, members=len(members), **changes.fields())


def _finish(run: LtiRosterSync, **fields) -> str:
    fields["finished_at"] = timezone.now()
    LtiRosterSync.objects.filter(pk=run.pk).update(**fields)
    old = run.course.roster_syncs.order_by("-created_at", "-pk").values_list("pk", flat=True)
    LtiRosterSync.objects.filter(pk__in=list(old[RUNS_KEPT:])).delete()
    return fields["status"]


def _members_read(course: LtiCourse) -> list[dict]:
    """Every member of the course, every page, as the platform lists them."""
    registration = course.deployment.registration
    if not course.memberships_url:
        raise SyncFailed(Failure.NO_SERVICE, "no launch has named the course's member list")
    if not (registration.is_active and course.deployment.is_active):
        raise SyncFailed(Failure.INACTIVE, f"registration {registration} or its deployment")
    connector = tool.service_connector(registration)
    try:
        connector.get_access_token([NRPS_SCOPE])
    except LtiServiceException as error:
        raise SyncFailed(Failure.TOKEN_REFUSED, _answer_of(error)) from error
    except ObjectDoesNotExist as error:  # no key of this tool's (manage.py lti_keys)
        raise SyncFailed(Failure.TOKEN_REFUSED, f"this tool has no key: {error}") from error
    except (KeyError, ValueError) as error:
        raise SyncFailed(
            Failure.TOKEN_REFUSED, f"no access token in the answer: {error}"
        ) from error
    except requests.RequestException as error:
        raise SyncFailed(Failure.UNREACHABLE, f"{registration.token_url}: {error}") from error
    service = NamesRolesProvisioningService(
        connector, {"context_memberships_url": course.memberships_url}
    )
    members: list[dict] = []
    url, seen = course.memberships_url, set()
    while url:
        if url in seen or len(seen) >= MAX_PAGES:
            raise SyncFailed(Failure.UNREADABLE, f"the pages do not end ({len(seen)} read)")
        seen.add(url)
        try:
            answer = service.get_nrps_data(members_url=url)
        except LtiServiceException as error:
            status = error.response.status_code
            failure = Failure.REFUSED if status in (401, 403) else Failure.PLATFORM_ERROR
            raise SyncFailed(failure, _answer_of(error)) from error
        except requests.RequestException as error:
            raise SyncFailed(Failure.UNREACHABLE, f"{url}: {error}") from error
        except ValueError as error:
            raise SyncFailed(Failure.UNREADABLE, f"{url}: not JSON ({error})") from error
        body = answer["body"]
        page = body.get("members") if isinstance(body, dict) else None
        if not isinstance(page, list) or not all(isinstance(m, dict) for m in page):
            raise SyncFailed(Failure.UNREADABLE, f"{url}: no list of members")
        members.extend(page)
        url = _next_page(answer["headers"])
    if not members:
        # A course's list has at least its teacher: an empty one is the platform's mistake, and
        # taking it at its word would take every child out of the class.
        raise SyncFailed(Failure.UNREADABLE, "the platform listed nobody in the course")
    return members


def _next_page(headers) -> str | None:
    """The next page's URL, from the ``Link: <...>; rel="next"`` header as the platform sent it.
    pylti1p3 2.0.0's own ``next_page_url`` is the header lowercased (dmitry-viskov/pylti1.3
    pull request 139), and a platform's page cursor may be case-sensitive."""
    for name, value in headers.items():
        if name.lower() == "link":
            for link in requests.utils.parse_header_links(value):
                if "next" in link.get("rel", "").lower().split() and link.get("url"):
                    return link["url"]
    return None


def _answer_of(error: LtiServiceException) -> str:
    response = error.response
    return f"HTTP {response.status_code} from {response.url}: {response.text[:500]}"


# --- changing the class --------------------------------------------------------------------------


@dataclass
class Changes:
    added: list[str]
    renamed: list[list[str]]
    dropped: list[str]
    notes: list[list[str]]

    def fields(self) -> dict:
        return {
            "added": self.added,
            "renamed": self.renamed,
            "dropped": self.dropped,
            "notes": self.notes,
        }


@dataclass(frozen=True)
class Member:
    sub: str
    name: str
    instructor: bool
    learner: bool
    active: bool


def _read(members: list[dict]) -> dict[str, Member]:
    """{user id: Member}: the platform's ids, names, whether an instructor or a learner of the
    course and whether active there (no status: Active)."""
    read = {}
    for data in members:
        sub = data.get("user_id")
        if not isinstance(sub, str | int) or not str(sub):
            continue
        roles = data.get("roles")
        roles = {normalize_role(str(r)) for r in roles} if isinstance(roles, list) else set()
        names = {key: data[key] for key in NAME_KEYS if isinstance(data.get(key), str)}
        read[str(sub)] = Member(
            sub=str(sub),
            name=person_name(names),
            instructor=ContextRole.INSTRUCTOR in roles,
            learner=ContextRole.LEARNER in roles,
            active=str(data.get("status") or "Active").lower() not in GONE,
        )
    return read


def _apply(course_id: int, members: list[dict]) -> Changes:
    """Brings the class in line with the member list; the course is held meanwhile, so that two
    runs change it one after the other."""
    course = (
        LtiCourse.objects.select_for_update()
        .select_related("deployment__registration", "classroom__teacher")
        .get(pk=course_id)
    )
    classroom = course.classroom
    registration = course.deployment.registration
    read = _read(members)
    changes = Changes(added=[], renamed=[], dropped=[], notes=[])
    persons = {
        person.sub: person
        for person in LtiPerson.objects.filter(registration=registration, sub__in=list(read))
        .select_related("user")
        .order_by("pk")
    }
    enrolled = set(
        Enrollment.objects.filter(classroom=classroom).values_list("student_id", flat=True)
    )
    secret_kind = None
    for member in read.values():
        if not member.active:
            continue
        person = persons.get(member.sub)
        if member.instructor:
            if person is None or person.user_id != classroom.teacher_id:
                changes.notes.append(["extra_instructor", member.name or member.sub, ""])
            continue
        if not member.learner:
            continue
        if person is None:
            secret_kind = secret_kind or _secret_kind_of(classroom)
            student, _secret = student_add(
                classroom=classroom, display_name=member.name or "?", generate=secret_kind
            )
            LtiPerson.objects.create(
                registration=registration,
                sub=member.sub,
                user=student,
                imported_name=student.display_name,
            )
            changes.added.append(student.display_name)
            continue
        student = person.user
        if student.role != Role.STUDENT or not student.is_active:
            changes.notes.append(["not_a_student", student.display_name, ""])
            continue
        _name_follow(person, member, changes)
        if student.pk not in enrolled:
            Enrollment.objects.create(classroom=classroom, student=student)
            changes.added.append(student.display_name)
    still_in = {
        person.user_id
        for sub, person in persons.items()
        if read[sub].active and read[sub].learner and not read[sub].instructor
    }
    leaving = (
        LtiPerson.objects.filter(registration=registration, user_id__in=enrolled)
        .exclude(user_id__in=still_in)
        .exclude(user_id=classroom.teacher_id)
        .select_related("user")
        .order_by("user__display_name", "pk")
    )
    for person in leaving:
        enrollment_remove(classroom=classroom, student=person.user)
        changes.dropped.append(person.user.display_name)
    return changes


def _name_follow(person: LtiPerson, member: Member, changes: Changes) -> None:
    """The platform's new name for a child, unless the teacher renamed them here."""
    student = person.user
    incoming = member.name
    if not incoming or incoming == person.imported_name:
        return
    new_name = source_name_to_take(
        incoming=incoming, imported=person.imported_name, current=student.display_name
    )
    if new_name is None:
        changes.notes.append(["kept_name", student.display_name, incoming])
    else:
        changes.renamed.append([student.display_name, new_name])
        student.display_name = new_name
        student.save(update_fields=["display_name"])
    person.imported_name = incoming
    person.save(update_fields=["imported_name"])


def _secret_kind_of(classroom) -> str:
    """What a new child of the class signs in with here: what most of the class already uses, a
    picture password if nobody has one yet (the youngest children's)."""
    kinds = Counter(
        Enrollment.objects.filter(classroom=classroom)
        .exclude(student__secret_kind="")
        .values_list("student__secret_kind", flat=True)
    )
    return kinds.most_common(1)[0][0] if kinds else SecretKind.PICTURE


def roster_syncs_forget(*, student) -> None:
    """A deleted child's names leave the records of the roster syncs that named them, as
    everything else about them leaves (``classroom.roster.services.student_delete``): each run
    keeps only the other children's names. The records hold names as text (they are what the
    teacher read), so the child's names are every name a run gave them: the name here, the
    platform's, and the names before each rename, newest run first. A classmate of the very same
    name is left out of those records too."""
    person = LtiPerson.objects.filter(user=student).first()
    if person is None:
        return  # a child added here by hand: no sync ever named them
    runs = list(
        LtiRosterSync.objects.filter(course__deployment__registration_id=person.registration_id)
    )
    names = {student.display_name, person.imported_name} - {""}
    for run in runs:  # newest first (the model's ordering): a rename's earlier name is theirs too
        for before, after in run.renamed:
            if after in names:
                names.add(before)
    for run in runs:
        kept = {
            "added": [name for name in run.added if name not in names],
            "renamed": [pair for pair in run.renamed if not names.intersection(pair)],
            "dropped": [name for name in run.dropped if name not in names],
            "notes": [note for note in run.notes if not names.intersection(note[1:])],
        }
        changed = [field for field, value in kept.items() if value != getattr(run, field)]
        for field in changed:
            setattr(run, field, kept[field])
        if changed:
            run.save(update_fields=changed)
