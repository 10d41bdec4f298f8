from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from accounts import migration_history  # noqa: F401  (registers its check)

        user_logged_in.connect(_short_student_sessions, dispatch_uid="accounts.student_sessions")
        # However an account goes (a service, a cascade, the admin), its sockets go with it.
        from django.db.models.signals import post_delete, post_save

        post_save.connect(_end_sockets_of_inactive, sender=self.get_model("User"))
        post_delete.connect(_end_sockets_of_deleted, sender=self.get_model("User"))


def _end_sockets_of_inactive(sender, instance, **kwargs):
    if not instance.is_active:
        from realtime.sockets import user_sockets_end

        user_sockets_end(user_id=instance.pk)


def _end_sockets_of_deleted(sender, instance, **kwargs):
    from realtime.sockets import user_sockets_end

    user_sockets_end(user_id=instance.pk)


def _short_student_sessions(sender, request, user, **kwargs):
    """A child's session lasts a school day (classroom tablets are shared), not two weeks."""
    from django.conf import settings

    if user.is_student and request is not None and hasattr(request, "session"):
        request.session.set_expiry(settings.STUDENT_SESSION_SECONDS)
