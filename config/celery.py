"""The Celery app. Embedded (no REDIS_URL) tasks run eagerly in-process; with Redis they go to the
broker for `celery -A config worker` and `celery -A config beat`."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("classroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
