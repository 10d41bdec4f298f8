"""Writes of the progress part: requesting and compiling reports.

Compiling is safe to run twice and to retry after a worker died mid-way (Celery delivers a task
again when its worker is lost: ``acks_late``):

1. *Claim*, in a short transaction holding the report's row lock: a report that is ready (or
   failed for good) is left alone; otherwise it becomes RUNNING and ``tries`` grows by one. The
   value of ``tries`` is this run's ticket.
2. *Compile* without any lock: the files depend only on the report's class, period, language,
   the answers and what the claim recorded in ``compiled_for`` (the teacher's time zone, the rules
   of the figures, the class as it names it), so runs under the same settings make the same bytes.
3. *Finish*, again under the row lock: only if ``tries`` still equals the ticket (no later run took
   the report over meanwhile) the files are written, their names recorded and the report becomes
   READY. A run taken over writes nothing: a later run may compile under other settings
   (``report_request``), and the files are that run's. Each file is written first to a temporary
   name, then moved (renamed) over its final name, fixed per report: a run that died left at most
   a temporary file, or a final file of a report that is not READY and so not offered for
   download until a run finishes it.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import os
import tempfile
from functools import partial

import celery
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from accounts.languages import stored_language
from accounts.models import zone_named
from classroom.models import Classroom, Enrollment, ProgressReport
from classroom.progress import report_files, rollup, selectors
from classroom.progress.display import period_text
from classroom.progress.selectors import Period
from classroom.roster.class_tables import class_tables_zip

logger = logging.getLogger(__name__)

# Runs of one report (first run, Celery retries and redeliveries after lost workers) before it is
# marked failed: a report that keeps killing its worker must not loop forever.
MAX_TRIES = 6
# A whole-class export writes a class's whole history (some 40 s for 200,000 answers on a busy
# two-core machine): its run is taken for a dead worker's only after this long, within the
# broker's visibility timeout (15 min), instead of a report's PROGRESS_REPORT_STUCK_AFTER_SECONDS.
EXPORT_STUCK_AFTER_SECONDS = 10 * 60


def report_request(
    *,
    classroom: Classroom,
    period: Period,
    requested_by=None,
    language: str = "",
    weekly=False,
    kind: str = ProgressReport.Kind.REPORT,
) -> ProgressReport:
    """The report of this class, period and language: one a teacher asked for before if there is
    one, else a new one, QUEUED and sent to Celery once the transaction commits. The one asked for
    before is returned as it is while it is queued (its run reads the settings of when it runs) or
    being compiled (a second click joins the first), and when it is ready and its period was over
    when it was compiled (no answer can have joined it since), as long as it was compiled under
    the settings of now (``report_compiled_for``: the school's zone, the rules of the figures, the
    class as it names it); otherwise (failed, compiled while its period still ran or under other
    settings) it is compiled again in place. ``kind`` class_tables: the class's whole-class export
    (its period from the first answer to today, so it is written again when asked again)."""
    language = language or translation.get_language() or "en"
    with transaction.atomic():
        # Requests for one class wait for each other here, so two quick ones make one report.
        Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
        now_for = report_compiled_for(
            Classroom.objects.select_related("teacher").get(pk=classroom.pk)
        )
        asked_before = (
            ProgressReport.objects.select_related("classroom__teacher")
            .filter(
                classroom=classroom,
                kind=kind,
                period_start=period.start,
                period_end=period.end,
                language=language,
                weekly=weekly,
            )
            .order_by("-created_at", "-pk")
            .first()
        )
        if asked_before is not None:
            if asked_before.status == ProgressReport.Status.QUEUED:
                return asked_before
            if asked_before.compiled_for == now_for and (
                asked_before.status == ProgressReport.Status.RUNNING or _still_true(asked_before)
            ):
                return asked_before
            if asked_before.status != ProgressReport.Status.RUNNING:
                # A run under way keeps its count: the next claim's ticket is then another, and
                # that run finds itself superseded instead of finishing under the old settings.
                asked_before.tries = 0
            asked_before.status = ProgressReport.Status.QUEUED
            asked_before.error = ""
            asked_before.queued_at = timezone.now()
            asked_before.save(update_fields=["status", "tries", "error", "queued_at"])
            transaction.on_commit(partial(_enqueue, asked_before.pk))
            return asked_before
        report = ProgressReport.objects.create(
            classroom=classroom,
            kind=kind,
            period_start=period.start,
            period_end=period.end,
            requested_by=requested_by,
            language=language,
            weekly=weekly,
            queued_at=timezone.now(),
        )
        transaction.on_commit(partial(_enqueue, report.pk))
    return report


def report_compiled_for(classroom: Classroom) -> str:
    """A digest of everything the class's report rests on besides its answers, period and
    language (``selectors.report_settings``) and of the files' layout: equal digests, equal
    files for the same answers."""
    basis = {**selectors.report_settings(classroom=classroom), "layout": report_files.LAYOUT}
    text = json.dumps(basis, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _still_true(report: ProgressReport) -> bool:
    """A ready report whose compiling began after its period's last day had ended at the school:
    every answer of the period was in by then."""
    if report.status != ProgressReport.Status.DONE or report.started_at is None:
        return False
    period_over = datetime.datetime.combine(
        report.period_end + datetime.timedelta(days=1),
        datetime.time.min,
        tzinfo=report.classroom.teacher.zone,
    )
    return report.started_at >= period_over


def reports_compile_again(*, classroom_ids) -> list[ProgressReport]:
    """Every report of these classes, with its files, deleted and requested again: after a
    student is deleted, no report file may still name them."""
    again = []
    for report in ProgressReport.objects.filter(classroom_id__in=list(classroom_ids)):
        for field in report.stored_files():
            field.delete(save=False)
        period = Period(report.period_start, report.period_end)
        classroom, requested_by, language, weekly, kind = (
            report.classroom,
            report.requested_by,
            report.language,
            report.weekly,
            report.kind,
        )
        report.delete()
        again.append(
            report_request(
                classroom=classroom,
                period=period,
                requested_by=requested_by,
                language=language,
                weekly=weekly,
                kind=kind,
            )
        )
    return again


def reports_sweep(*, now=None) -> list[int]:
    """Celery beat, every minute: reports stuck past ``PROGRESS_REPORT_STUCK_AFTER_SECONDS`` are
    handed to the workers again. A report is stuck when it waited that long without a worker
    taking it, or a worker took it that long ago and never finished (it was killed: the broker
    would deliver its task again only after its visibility timeout, which must outlast any
    task); a whole-class export's run, after ``EXPORT_STUCK_AFTER_SECONDS``. Sending
    it twice is harmless: a run claims the report under its row lock, and only the last claim's
    run records its files (``report_compile``). Returns the reports sent again."""
    now = now or timezone.now()
    bound = now - datetime.timedelta(seconds=settings.PROGRESS_REPORT_STUCK_AFTER_SECONDS)
    export_bound = min(bound, now - datetime.timedelta(seconds=EXPORT_STUCK_AFTER_SECONDS))
    export = Q(kind=ProgressReport.Kind.CLASS_TABLES)
    sent = []
    with transaction.atomic():
        stuck = ProgressReport.objects.select_for_update(skip_locked=True).filter(
            Q(status=ProgressReport.Status.QUEUED, queued_at__lt=bound)
            | Q(status=ProgressReport.Status.QUEUED, queued_at__isnull=True, created_at__lt=bound)
            | (Q(status=ProgressReport.Status.RUNNING, started_at__lt=bound) & ~export)
            | (Q(status=ProgressReport.Status.RUNNING, started_at__lt=export_bound) & export)
        )
        for report in stuck:
            if report.status == ProgressReport.Status.RUNNING:
                report.status = ProgressReport.Status.QUEUED
                report.error = "the worker compiling it stopped; sent again"
            report.queued_at = now
            report.save(update_fields=["status", "error", "queued_at"])
            transaction.on_commit(partial(_enqueue, report.pk))
            sent.append(report.pk)
    if sent:
        logger.warning("progress reports %s were stuck; sent to the workers again", sent)
    return sent


def report_retry(*, report: ProgressReport) -> None:
    """The teacher asks again for a report that failed: a fresh set of tries."""
    with transaction.atomic():
        locked = ProgressReport.objects.select_for_update().get(pk=report.pk)
        if locked.status != ProgressReport.Status.FAILED:
            return
        locked.status = ProgressReport.Status.QUEUED
        locked.tries = 0
        locked.error = ""
        locked.queued_at = timezone.now()
        locked.save(update_fields=["status", "tries", "error", "queued_at"])
        transaction.on_commit(partial(_enqueue, locked.pk))


# Found by name: the task calls these services, so importing its module here would make a cycle;
# ``ClassroomConfig.ready`` imports it, which registers it with the Celery app.
COMPILE_TASK = "classroom.progress.tasks.compile_progress_report"


def _enqueue(report_id: int) -> None:
    celery.current_app.tasks[COMPILE_TASK].delay(report_id)


def report_file_name(report: ProgressReport, kind: str) -> str:
    return (
        f"reports/class-{report.classroom_id}/report-{report.pk}-"
        f"{report.period_start:%Y%m%d}-{report.period_end:%Y%m%d}.{kind}"
    )


def report_compile(*, report_id: int) -> str:
    """Compiles a report; returns what happened: "done", "skipped" (ready or failed already, or
    no such report), "gave_up" (too many tries) or "superseded" (a later run took it over)."""
    ticket = _report_claim(report_id)
    if isinstance(ticket, str):
        return ticket
    report, tries = ticket
    # The school's days, as on the pages: a worker has no teacher's zone of its own, and the
    # levels and fact grids read raw answers between the period's midnights.
    with translation.override(report.language), timezone.override(report.classroom.teacher.zone):
        period = Period(report.period_start, report.period_end)
        if report.kind == ProgressReport.Kind.CLASS_TABLES:
            files = {"zip": _class_tables(report, period)}
        else:
            summary, students = selectors.report_progress(classroom=report.classroom, period=period)
            files = {
                "csv": report_files.report_csv(students),
                "pdf": report_files.report_pdf(
                    classroom_name=report.classroom.name,
                    summary=summary,
                    reports=students,
                    period_text=period_text(summary),
                ),
            }
    with transaction.atomic():
        report = ProgressReport.objects.select_for_update().get(pk=report_id)
        if report.tries != tries or report.status != ProgressReport.Status.RUNNING:
            # A later run has the report (compiled again under new settings, or sent again):
            # this run's files, maybe of the old settings, must not take the place of its files.
            return "superseded"
        # Stored under the row lock, so that only the run holding the latest ticket writes.
        for kind, content in files.items():
            getattr(report, f"{kind}_file").name = _store(report_file_name(report, kind), content)
        report.status = ProgressReport.Status.DONE
        report.finished_at = timezone.now()
        report.error = ""
        report.save(
            update_fields=[*(f"{kind}_file" for kind in files), "status", "finished_at", "error"]
        )
    return "done"


def _class_tables(report: ProgressReport, period: Period) -> bytes:
    """The whole-class export's zip, to the period's last day: written to a temporary file as it
    is made (a term's 200,000 answers), then read whole for ``_store``."""
    with tempfile.TemporaryFile() as out:
        for chunk in class_tables_zip(
            classroom=report.classroom, language=report.language, period=period
        ):
            out.write(chunk)
        out.seek(0)
        return out.read()


def _report_claim(report_id: int):
    with transaction.atomic():
        report = (
            ProgressReport.objects.select_for_update(of=("self",))
            .select_related("classroom__teacher")
            .filter(pk=report_id)
            .first()
        )
        if report is None or report.status in {
            ProgressReport.Status.DONE,
            ProgressReport.Status.FAILED,
        }:
            return "skipped"
        if report.tries >= MAX_TRIES:
            report.status = ProgressReport.Status.FAILED
            report.error = report.error or "gave up after repeated tries"
            report.finished_at = timezone.now()
            report.save(update_fields=["status", "error", "finished_at"])
            return "gave_up"
        report.status = ProgressReport.Status.RUNNING
        report.tries += 1
        report.started_at = timezone.now()
        # Read with the teacher's zone that the compiling below counts the days in.
        report.compiled_for = report_compiled_for(report.classroom)
        report.save(update_fields=["status", "tries", "started_at", "compiled_for"])
        return report, report.tries


def report_compile_failed(*, report_id: int, error: str, final: bool) -> None:
    """Records a run's error: the report is queued again for Celery's retry, or failed."""
    with transaction.atomic():
        report = ProgressReport.objects.select_for_update().filter(pk=report_id).first()
        if report is None or report.status == ProgressReport.Status.DONE:
            return
        report.status = ProgressReport.Status.FAILED if final else ProgressReport.Status.QUEUED
        report.error = error[:2000]
        if final:
            report.finished_at = timezone.now()
        report.save(update_fields=["status", "error", "finished_at"])


def _store(name: str, content: bytes) -> str:
    """Writes a file under its final name without ever exposing a half-written one there."""
    try:
        final = default_storage.path(name)
    except NotImplementedError:  # a remote storage: it writes whole objects itself
        if default_storage.exists(name):
            default_storage.delete(name)
        return default_storage.save(name, ContentFile(content))
    folder = os.path.dirname(final)
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".part-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, final)  # atomic on one file system
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    return name


def weekly_reports_request(*, now=None) -> list[ProgressReport]:
    """For every class with activity in it, the report of the last week that is over at its
    school (Monday to Sunday in the teacher's zone). Beat calls this every hour of Sunday and
    Monday (UTC), so each school's week is reported soon after its own Sunday midnight, whichever
    zone it is in; a class that has its week's report already (an earlier hour, beat ran twice, a
    retry) gets no second one (the unique constraint on weekly reports)."""
    from classroom.progress.forms import last_week

    now = now or timezone.now()
    made = []
    zones = Classroom.objects.values_list("teacher__time_zone", flat=True).distinct()
    for zone_name in sorted(set(zones)):
        period = last_week(timezone.localdate(now, timezone=zone_named(zone_name)))
        classes = selectors.classes_with_activity(period=period, teacher_time_zone=zone_name)
        for classroom in classes:
            with transaction.atomic():
                report, created = ProgressReport.objects.get_or_create(
                    classroom=classroom,
                    period_start=period.start,
                    period_end=period.end,
                    weekly=True,
                    defaults={"language": _teacher_language(classroom)},
                )
                if created or report.status == ProgressReport.Status.QUEUED:
                    transaction.on_commit(partial(_enqueue, report.pk))
                    made.append(report)
    return made


def _teacher_language(classroom: Classroom) -> str:
    """The teacher's own language (their account's); if they never chose one, the language of
    their latest own request, as beat has no browser to ask."""
    chosen = stored_language(classroom.teacher)
    if chosen:
        return chosen
    latest = (
        ProgressReport.objects.filter(classroom__teacher_id=classroom.teacher_id, weekly=False)
        .order_by("-created_at", "-pk")
        .values_list("language", flat=True)
        .first()
    )
    return latest or translation.get_language() or "en"


def rollups_recount(*, student_ids) -> int:
    """Counts these students' answers into the rollups again, by day in each one's time zone
    (``rollup.rollups_rebuild``). Returns how many students."""
    student_ids = list(student_ids)
    rollup.rollups_rebuild(student_ids=student_ids)
    # A report compiled before or while they were counted again read the old days: asked for
    # again, it is compiled again.
    classes = Enrollment.objects.filter(student_id__in=student_ids).values("classroom_id")
    ProgressReport.objects.filter(classroom_id__in=classes).update(compiled_for="")
    return len(student_ids)
