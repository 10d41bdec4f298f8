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
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        # Registered with the Celery app at start-up: the services send them by name (roster).
        from classroom.lti import tasks  # noqa: F401

        pre_delete.connect(_forget_in_roster_syncs, sender=get_user_model())


def _forget_in_roster_syncs(sender, instance, **kwargs):
    """A child deleted (``classroom.roster.services.student_delete``, or any other way) leaves no
    name in the roster syncs' records."""
    from classroom.lti.roster import roster_syncs_forget

    roster_syncs_forget(student=instance)
