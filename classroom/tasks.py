"""Celery tasks of the teaching layer as a whole; thin, they call the services."""

from celery import shared_task

from classroom.retention import retention_apply


@shared_task(ignore_result=True)
def apply_retention() -> dict[str, int]:
    """Celery beat, daily: children's data past its retention period (docs/privacy.md)."""
    return retention_apply()
