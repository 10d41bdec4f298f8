"""Celery tasks of the progress part; thin, they call the services."""

import logging

from celery import shared_task

from classroom.progress import services

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    acks_late=True,  # a task whose worker dies is delivered again...
    reject_on_worker_lost=True,
    max_retries=3,
    ignore_result=True,
)
def compile_progress_report(self, report_id: int) -> str:
    """...and compiling is idempotent and retry-safe (services.report_compile says how)."""
    try:
        return services.report_compile(report_id=report_id)
    except Exception as exc:
        final = self.request.retries >= self.max_retries
        services.report_compile_failed(
            report_id=report_id, error=f"{type(exc).__name__}: {exc}", final=final
        )
        if not final:
            if self.request.is_eager:
                # In-process (embedded): Celery's eager retry would raise out of the request,
                # so the next try runs here, as a worker would run it later.
                retries = self.request.retries + 1
                return self.apply(args=(report_id,), retries=retries).result
            raise self.retry(exc=exc, countdown=15 * 2**self.request.retries) from exc
        logger.exception("progress report %s failed", report_id)
        return "failed"


@shared_task(ignore_result=True)
def compile_weekly_reports() -> int:
    """Celery beat, hourly on Sundays and Mondays: the report of the week just over at each
    school, for every class with activity in it."""
    return len(services.weekly_reports_request())


@shared_task(ignore_result=True)
def sweep_stuck_reports() -> int:
    """Celery beat, every minute: reports whose worker died are sent again."""
    return len(services.reports_sweep())


@shared_task(ignore_result=True)
def rebuild_rollups(student_ids: list[int]) -> int:
    """These students' figures counted again from their answers (a new time zone)."""
    return services.rollups_recount(student_ids=student_ids)
