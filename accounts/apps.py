from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        user_logged_in.connect(_short_student_sessions, dispatch_uid="accounts.student_sessions")


def _short_student_sessions(sender, request, user, **kwargs):
    """A child's session lasts a school day (classroom tablets are shared), not two weeks."""
    from django.conf import settings

    if user.is_student and request is not None and hasattr(request, "session"):
        request.session.set_expiry(settings.STUDENT_SESSION_SECONDS)
