from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LtiConfig(AppConfig):
    """Launches from a school's learning platform (LTI 1.3, docs/lti.md). An app of its own inside
    the teaching layer, so that its tables migrate apart from the rest of the classroom's."""

    name = "classroom.lti"
    label = "classroom_lti"
    verbose_name = _("Learning platforms (LTI)")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Registered with the Celery app at start-up: the services send them by name (roster).
        from classroom.lti import tasks  # noqa: F401
