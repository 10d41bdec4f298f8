"""Filters of the logging configuration (config/settings.py, LOGGING)."""

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """A 403 is an expected answer (a student opening a teacher's page, a teacher another's class):
    Django logs it with the PermissionDenied's traceback, hundreds of lines a lesson that say
    nothing. One line (the page and the status) is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True


class DatabaseOutagesNamed(logging.Filter):
    """A page answered "try again in a minute" because the database is down
    (accounts.middleware.database_unavailable) is logged by ``django.request`` as one line,
    "Service Unavailable: /teacher/": the line says why."""

    def filter(self, record: logging.LogRecord) -> bool:
        outage = getattr(getattr(record, "request", None), "database_outage", None)
        if outage is not None and getattr(record, "status_code", None) == 503:
            record.msg = f"{record.msg} (the database is unavailable: %s: %s)"
            record.args = (*record.args, type(outage).__name__, " ".join(str(outage).split()))
        return True
