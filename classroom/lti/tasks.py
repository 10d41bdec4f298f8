"""Celery tasks of the learning platforms' services; thin, they call the services."""

from celery import shared_task

from classroom.lti import grades, roster

# A run whose platform is down is tried again after 30 s, 1, 2, 4 min, then 5 (below the broker's
# visibility timeout, settings.CELERY_BROKER_TRANSPORT_OPTIONS).
RETRY_FIRST_SECONDS = 30
RETRY_MOST_SECONDS = 300


@shared_task(
    bind=True,
    acks_late=True,  # a task whose worker dies is delivered again: a run sends only what is missing
    reject_on_worker_lost=True,
    max_retries=5,
    ignore_result=True,
)
def send_grades(self, run_id: int) -> str:
    """A run of a course's grades (grades.run_send). The platform down: tried again later, the
    run saying why; on the last try it is recorded as failed instead."""
    retries = self.request.retries
    try:
        run = grades.run_send(run_id=run_id, last_try=retries >= self.max_retries)
    except grades.PlatformDown as exc:
        if self.request.is_eager:
            # In-process (embedded): Celery's eager retry would raise out of the request, so the
            # next try runs here, as a worker would run it later.
            return self.apply(args=(run_id,), retries=retries + 1).result
        countdown = min(RETRY_FIRST_SECONDS * 2**retries, RETRY_MOST_SECONDS)
        raise self.retry(exc=exc, countdown=countdown) from exc
    return run.status if run is not None else "gone"


@shared_task(ignore_result=True)
def send_grades_of_every_course() -> int:
    """Celery beat, hourly: every linked class's changed grades go to its platform."""
    runs = grades.runs_request_scheduled()
    for run in runs:
        send_grades.delay(run.pk)
    return len(runs)


@shared_task(
    acks_late=True,  # a task whose worker dies is delivered again, and its run taken up again
    reject_on_worker_lost=True,
    ignore_result=True,
)
def sync_roster(run_id: int) -> str:
    """A run of a course's roster sync (roster.roster_sync_run): it records what it changed or why
    it failed; the schedule's next run tries again."""
    return roster.roster_sync_run(run_id=run_id)


@shared_task(ignore_result=True)
def sync_every_roster() -> int:
    """Celery beat, nightly: every linked class's roster from its platform's class list."""
    return len(roster.roster_syncs_schedule())
