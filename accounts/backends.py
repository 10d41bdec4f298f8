from django.contrib.auth import get_user_model
from django.contrib.auth.backends import BaseBackend

from accounts.models import Role


class StudentSecretBackend(BaseBackend):
    """Signs a student in with their picture password or PIN.

    Called as ``authenticate(request, username=..., student_secret=...)``; the username is the
    student's internal one, found by the class-code login flow, never typed by the child. Going
    through ``authenticate`` lets django-axes count and throttle failures like any login."""

    def authenticate(self, request, username=None, student_secret=None, **kwargs):
        if username is None or student_secret is None:
            return None
        User = get_user_model()
        try:
            user = User.objects.get(username=username, role=Role.STUDENT)
        except User.DoesNotExist:
            # Hash anyway so that a wrong name takes as long as a wrong secret.
            User(role=Role.STUDENT).set_student_secret("pin", "0000")
            return None
        return user if user.check_student_secret(student_secret) else None

    def get_user(self, user_id):
        User = get_user_model()
        try:
            return User.objects.get(pk=user_id, is_active=True)
        except User.DoesNotExist:
            return None
