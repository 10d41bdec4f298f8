"""Grades back to the learning platform: LTI Assignment and Grade Services (docs/lti.md, "Grades
back to the platform"). Writes; keyword-only.

A launch names the course's gradebook service (``endpoint_store``). A run (``run_request``: the
teacher's "Send the grades now", or the hourly schedule) sends, through pylti1p3's
``AssignmentsGradesService``, for each homework of the class and each child of the platform:

- the result, ``StudentResult.score`` (0 to 100: the figure the OneRoster gradebook exports);
- if the teacher chose it, the mastery figure, ``mastery_levels`` (0 to 4: the child's mean level
  at the skills they answered in the homework);

once the child has finished the homework, or has started it and it is past due. Each figure of a
homework is a column of the platform's gradebook (a line item), found or created there by its
``resourceId`` and remembered here (``LtiLineItem``).

Never twice: a score goes only when it differs from what the platform last took
(``LtiScoreSent``), and that record is written as soon as the platform has answered, one score at
a time. A retried run (the platform was down) sends only what is still missing; a run that finds
another one sending for the course leaves it to that one (``LtiGradeService.sending_until``). A
worker that died between the platform's answer and the record sends that one score again, with
the same value, when its task is delivered again."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

import requests
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from lti_tool.models import Key
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem

from accounts.languages import stored_language
from classroom.homework.selectors import assignment_report, mastery_levels
from classroom.lti.models import (
    LtiCourse,
    LtiGradeRun,
    LtiGradeService,
    LtiLineItem,
    LtiPerson,
    LtiScoreSent,
)
from classroom.lti.tool import service_connector
from classroom.models import Assignment

logger = logging.getLogger("classroom.lti")

CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/"
SCOPE_SCORE = SCOPE + "score"
CUSTOM_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/custom"
Figure = LtiLineItem.Figure
Status = LtiGradeRun.Status
MAXIMUM = {Figure.RESULT: 100, Figure.MASTERY: 4}
# A run holds its course this long past its latest score (renewed as it sends), so that a second
# run does not send the same scores meanwhile; a run whose worker died frees it after that.
LEASE = dt.timedelta(minutes=5)
# The schedule leaves a course alone while a run asked this recently has not finished.
UNFINISHED_FOR = dt.timedelta(minutes=30)
UNFINISHED = (Status.QUEUED, Status.SENDING, Status.RETRYING)
RUNS_KEPT = 20  # per course, the latest: the hourly schedule makes one an hour
URL_LENGTH = LtiGradeService._meta.get_field("lineitems_url").max_length


class PlatformDown(Exception):
    """The platform could not be reached, or answered that it cannot serve now (5xx, 429): the
    run is tried again later."""


class Refused(Exception):
    """The platform refused what the run needs (its token, a column): trying again will not help
    until someone changes the setup. The message is for the teacher."""


# --- at a launch ---------------------------------------------------------------------------------


def _url(value) -> str:
    value = str(value or "")
    if len(value) > URL_LENGTH:
        return ""
    try:
        URLValidator(schemes=["http", "https"])(value)
    except ValidationError:
        return ""
    return value


def endpoint_store(*, course: LtiCourse, claims: dict) -> None:
    """Keeps the course's gradebook service as the launch names it (its line items URL and the
    scopes the platform grants); a link to one homework that has its own column (a ``lineitem``)
    makes that the homework's result column. A launch without the claim changes nothing."""
    endpoint = claims.get(CLAIM)
    if not isinstance(endpoint, dict):
        return
    scopes = sorted({str(scope) for scope in endpoint.get("scope") or [] if scope})
    lineitems = _url(endpoint.get("lineitems"))
    service = LtiGradeService.objects.filter(course=course).first()
    if service is None:
        service = LtiGradeService.objects.create(
            course=course, lineitems_url=lineitems, scopes=scopes
        )
    elif lineitems and (service.lineitems_url, service.scopes) != (lineitems, scopes):
        service.lineitems_url, service.scopes = lineitems, scopes
        service.save(update_fields=["lineitems_url", "scopes", "updated_at"])
    lineitem = _url(endpoint.get("lineitem"))
    assignment_id = str((claims.get(CUSTOM_CLAIM) or {}).get("assignment", ""))
    if lineitem and assignment_id.isdigit():
        assignment = Assignment.objects.filter(
            pk=int(assignment_id), classroom_id=course.classroom_id
        ).first()
        if assignment is not None:
            _link_column_take(course, assignment, lineitem)


def _link_column_take(course: LtiCourse, assignment: Assignment, url: str) -> None:
    """The link's column becomes the homework's result column. One the tool made before is
    forgotten with what it took: every result goes to the link's column at the next run."""
    known = LtiLineItem.objects.filter(
        course=course, assignment=assignment, figure=Figure.RESULT
    ).first()
    if known is not None and known.url == url:
        return
    if known is not None:
        known.delete()
    LtiLineItem.objects.create(course=course, assignment=assignment, figure=Figure.RESULT, url=url)


# --- asking for a run ----------------------------------------------------------------------------


def grades_choice_save(*, course: LtiCourse, send_mastery: bool, language: str) -> None:
    """The teacher's choice (a mastery figure too or not), which the schedule follows as well,
    and their language, the one new columns are titled in."""
    LtiGradeService.objects.filter(course=course).update(
        send_mastery=send_mastery, language=language, updated_at=timezone.now()
    )


def run_request(*, course: LtiCourse, trigger: str) -> tuple[LtiGradeRun | None, bool]:
    """A run of the course's grades, for the task ``send_grades``, and whether it is new: the one
    asked for recently that has not finished is the answer while it lasts (asking twice sends
    once). None if the platform has not named a gradebook service for the course."""
    service = LtiGradeService.objects.filter(course=course).first()
    if service is None:
        return None, False
    waiting = LtiGradeRun.objects.filter(
        course=course, status__in=UNFINISHED, created_at__gte=timezone.now() - UNFINISHED_FOR
    ).first()
    if waiting is not None:
        return waiting, False
    run = LtiGradeRun.objects.create(
        course=course, trigger=trigger, with_mastery=service.send_mastery
    )
    kept = course.grade_runs.values("pk")[:RUNS_KEPT]
    course.grade_runs.exclude(pk__in=kept).delete()
    return run, True


def runs_request_scheduled() -> list[LtiGradeRun]:
    """The schedule's runs: one for each course whose platform lets this tool send scores and
    whose class has homework, except those with a run under way."""
    courses = (
        LtiCourse.objects.filter(grade_service__isnull=False, classroom__assignments__isnull=False)
        .distinct()
        .order_by("pk")
    )
    runs = []
    for course in courses.select_related("grade_service"):
        if SCOPE_SCORE not in course.grade_service.scopes:
            continue
        run, created = run_request(course=course, trigger=LtiGradeRun.Trigger.SCHEDULE)
        if created:
            runs.append(run)
    return runs


# --- sending -------------------------------------------------------------------------------------


def run_send(*, run_id: int, last_try: bool) -> LtiGradeRun | None:
    """One try of a run. Raises PlatformDown (the run recorded as to be tried again) unless this
    is the last try: then, as for any refusal, the run is recorded as failed with the reason."""
    run = (
        LtiGradeRun.objects.select_related(
            "course__deployment__registration",
            "course__classroom__teacher",
            "course__grade_service",
        )
        .filter(pk=run_id)
        .first()
    )
    if run is None or run.status not in UNFINISHED:
        return run  # a task delivered again after its run ended, or its class was deleted
    service = run.course.grade_service
    if not _lease_take(service):
        return _run_end(
            run, Status.SKIPPED, _("Another sending of this class's grades was under way.")
        )
    run.status, run.tries = Status.SENDING, run.tries + 1
    run.save(update_fields=["status", "tries"])
    try:
        language = service.language or stored_language(run.course.classroom.teacher)
        with translation.override(language or settings.LANGUAGE_CODE):
            _Sending(run, service).all()
    except PlatformDown as error:
        logger.warning("LTI grades of course %s: platform down: %s", run.course_id, error)
        if last_try:
            return _run_end(run, Status.FAILED, _platform_down_text(error))
        run.status, run.error = Status.RETRYING, _platform_down_text(error)
        run.save(update_fields=["status", "error"])
        raise
    except (Refused, LtiException) as error:
        logger.warning("LTI grades of course %s refused: %s", run.course_id, error)
        return _run_end(run, Status.FAILED, str(error))
    except Key.DoesNotExist:  # no key of this tool's yet (manage.py lti_keys)
        logger.warning("LTI grades of course %s: this tool has no key", run.course_id)
        return _run_end(run, Status.FAILED, _("This site has no key to sign its requests yet."))
    except Exception:
        logger.exception("LTI grades of course %s failed", run.course_id)
        return _run_end(run, Status.FAILED, _("Something went wrong on this site."))
    finally:
        LtiGradeService.objects.filter(pk=service.pk).update(sending_until=None)
    return _run_end(run, Status.DONE, run.error)


def _platform_down_text(error: PlatformDown) -> str:
    return _("The learning platform did not answer (%(reason)s).") % {"reason": error}


def _run_end(run: LtiGradeRun, status: str, error: str = "") -> LtiGradeRun:
    run.status, run.error, run.finished_at = status, error, timezone.now()
    run.save(update_fields=["status", "error", "finished_at", "sent", "unchanged", "left_out"])
    return run


def _lease_take(service: LtiGradeService) -> bool:
    now = timezone.now()
    free = Q(sending_until__isnull=True) | Q(sending_until__lt=now)
    taken = LtiGradeService.objects.filter(free, pk=service.pk).update(sending_until=now + LEASE)
    return taken == 1


@dataclass(frozen=True)
class Score:
    student_id: int
    sub: str
    given: float
    maximum: float
    activity: str  # Completed, or InProgress for unfinished homework past due

    def same_as(self, record: LtiScoreSent | None) -> bool:
        return record is not None and (
            record.score_given,
            record.score_maximum,
            record.activity_progress,
        ) == (self.given, self.maximum, self.activity)


class _Sending:
    """One try of a run: pylti1p3's service client, and what the try has counted."""

    def __init__(self, run: LtiGradeRun, service: LtiGradeService):
        self.run = run
        self.course = run.course
        self.registration = run.course.deployment.registration
        self.lineitems_url = service.lineitems_url
        self.ags = AssignmentsGradesService(
            service_connector(self.registration),
            {"scope": service.scopes, "lineitems": service.lineitems_url},
        )
        self.refusals: list[str] = []

    def all(self) -> None:
        if not (self.registration.is_active and self.course.deployment.is_active):
            raise Refused(
                _("The learning platform's registration or deployment is switched off here.")
            )
        if not self.ags.can_put_grade():
            raise Refused(_("The learning platform does not let this tool send scores."))
        subs = dict(
            LtiPerson.objects.filter(
                registration=self.registration, user__enrollments__classroom=self.course.classroom
            ).values_list("user_id", "sub")
        )
        figures = [Figure.RESULT, Figure.MASTERY] if self.run.with_mastery else [Figure.RESULT]
        left_out: set[int] = set()
        self.run.unchanged = 0
        now = timezone.now()
        for assignment in Assignment.objects.filter(classroom=self.course.classroom).order_by("pk"):
            due = [
                result
                for result in assignment_report(assignment=assignment).students
                if result.finished or (result.started and assignment.due_at < now)
            ]
            left_out.update(r.student.pk for r in due if r.student.pk not in subs)
            due = [r for r in due if r.student.pk in subs]
            if not due:
                continue
            for figure in figures:
                if figure == Figure.RESULT:
                    values = {r.student.pk: r.score for r in due}
                else:
                    values = mastery_levels(
                        assignment=assignment, student_ids=[r.student.pk for r in due]
                    )
                scores = [
                    Score(
                        student_id=r.student.pk,
                        sub=subs[r.student.pk],
                        given=values[r.student.pk],
                        maximum=MAXIMUM[figure],
                        activity="Completed" if r.finished else "InProgress",
                    )
                    for r in due
                    if r.student.pk in values
                ]
                self.figure(assignment, figure, scores)
        self.run.left_out = len(left_out)
        if self.refusals:
            self.run.error = ngettext(
                "The learning platform refused %(count)s score: %(reason)s.",
                "The learning platform refused %(count)s scores; the first: %(reason)s.",
                len(self.refusals),
            ) % {"count": len(self.refusals), "reason": self.refusals[0]}
        # else the error is an earlier try's (the platform down), which this one got past

    def figure(
        self, assignment: Assignment, figure: str, scores: list[Score], *, again: bool = False
    ) -> None:
        records = {
            record.student_id: record
            for record in LtiScoreSent.objects.filter(
                line_item__course=self.course,
                line_item__assignment=assignment,
                line_item__figure=figure,
            )
        }
        changed = []
        for score in scores:
            record = records.get(score.student_id)
            if not score.same_as(record):
                changed.append(score)
            elif record.run_id != self.run.pk:  # one this run's earlier try sent counts as sent
                self.run.unchanged += 1
        if not changed:
            return
        line_item = self.line_item(assignment, figure)
        for score in changed:
            try:
                self.score(line_item, score)
            except LtiServiceException as error:
                if error.response.status_code == 404 and not again:
                    # The column was deleted on the platform: forgotten here with what it had
                    # taken, then made again and every score sent to it.
                    line_item.delete()
                    self.figure(assignment, figure, scores, again=True)
                    return
                # This child's score alone (a child the platform no longer has, say).
                self.refusals.append(_answer_of(error))

    def line_item(self, assignment: Assignment, figure: str) -> LtiLineItem:
        """The homework's column for ``figure``: remembered, or found on the platform by its
        resourceId (one this tool made before it lost track of it), or made there."""
        known = LtiLineItem.objects.filter(
            course=self.course, assignment=assignment, figure=figure
        ).first()
        if known is not None:
            return known
        if not self.lineitems_url:
            raise Refused(
                _(
                    "The learning platform lets this tool send scores only to the columns of its "
                    "links: ask its administrator to let the tool manage its columns (line items)."
                )
            )
        resource_id = f"homework-{assignment.pk}"
        label = assignment.title
        if figure == Figure.MASTERY:
            resource_id += "-mastery"
            label = _("%(title)s: mastery (0 to 4)") % {"title": label}
        wanted = (
            LineItem()
            .set_label(label[:255])
            .set_score_maximum(MAXIMUM[figure])
            .set_resource_id(resource_id)
            .set_tag(f"arithmetic-games-{figure}")
            .set_end_date_time(assignment.due_at.isoformat())
        )
        try:
            found = self.call(self.ags.find_or_create_lineitem, wanted, find_by="resource_id")
        except LtiServiceException as error:
            raise Refused(
                _("The learning platform refused a gradebook column (%(reason)s).")
                % {"reason": _answer_of(error)}
            ) from error
        except LtiException as error:
            raise Refused(
                _(
                    "The learning platform does not let this tool add gradebook columns: ask "
                    "its administrator to let the tool manage its columns (line items)."
                )
            ) from error
        if not found.get_id():
            raise Refused(_("The learning platform answered a gradebook column with no address."))
        line_item, _created = LtiLineItem.objects.get_or_create(
            course=self.course,
            assignment=assignment,
            figure=figure,
            defaults={"url": found.get_id()},
        )
        return line_item

    def score(self, line_item: LtiLineItem, score: Score) -> None:
        sent_at = timezone.now()
        grade = (
            Grade()
            .set_score_given(score.given)
            .set_score_maximum(score.maximum)
            .set_activity_progress(score.activity)
            .set_grading_progress("FullyGraded")
            .set_timestamp(sent_at.isoformat())
            .set_user_id(score.sub)
        )
        self.call(self.ags.put_grade, grade, LineItem({"id": line_item.url}))
        with transaction.atomic():
            LtiScoreSent.objects.update_or_create(
                line_item=line_item,
                student_id=score.student_id,
                defaults={
                    "score_given": score.given,
                    "score_maximum": score.maximum,
                    "activity_progress": score.activity,
                    "grading_progress": "FullyGraded",
                    "sent_at": sent_at,
                    "run": self.run,
                },
            )
            self.run.sent += 1
            self.run.save(update_fields=["sent"])
            LtiGradeService.objects.filter(course=self.course).update(
                sending_until=timezone.now() + LEASE
            )

    def call(self, method, *args, **kwargs):
        """A call to the platform. Unreachable, or answering 5xx or 429: PlatformDown; an access
        token refused: Refused; any other refusal is the caller's to read."""
        try:
            return method(*args, **kwargs)
        except requests.RequestException as error:
            raise PlatformDown(type(error).__name__) from error
        except LtiServiceException as error:
            status = error.response.status_code
            if status >= 500 or status == 429:
                raise PlatformDown(f"HTTP {status}") from error
            if error.response.url == self.registration.token_url:
                raise Refused(
                    _("The learning platform refused this tool an access token (%(reason)s).")
                    % {"reason": _answer_of(error)}
                ) from error
            raise


def _answer_of(error: LtiServiceException) -> str:
    return f"HTTP {error.response.status_code}"
