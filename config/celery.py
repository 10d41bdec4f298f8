"""The Celery app. Embedded (no REDIS_URL) tasks run eagerly in-process; with Redis they go to the
broker for `celery -A config worker` and `celery -A config beat`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("classroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.worker_heartbeat", ignore_result=True)
def worker_heartbeat():
    """On the beat's schedule: that a worker is doing its rounds, for /readyz."""
    from config.health import record_worker_heartbeat

    record_worker_heartbeat()
