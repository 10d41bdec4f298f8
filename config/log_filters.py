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
