"""Writes to accounts. Keyword-only, named <entity>_<action>."""

import uuid

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.models import Role
from realtime.sockets import user_sockets_end

User = get_user_model()


@transaction.atomic
def teacher_create(*, email: str, password: str, display_name: str = "") -> "User":
    email = User.objects.normalize_email(email).lower()
    teacher = User(
        username=email, email=email, role=Role.TEACHER, display_name=display_name.strip()
    )
    teacher.set_password(password)
    teacher.full_clean(exclude=["password"])
    teacher.save()
    return teacher


@transaction.atomic
def student_create(
    *, display_name: str, secret_kind: str = "", secret=None, time_zone: str = ""
) -> "User":
    """A student account: no e-mail, no usable password; a generated internal username."""
    student = User(
        username=f"student-{uuid.uuid4().hex[:12]}",
        role=Role.STUDENT,
        display_name=display_name.strip(),
        time_zone=time_zone,
    )
    student.set_unusable_password()
    if secret_kind:
        student.set_student_secret(secret_kind, secret)
    student.save()
    return student


def student_set_secret(*, student: "User", secret_kind: str, secret) -> None:
    """A new secret ends the student's sessions (``User.get_session_auth_hash``) and, once this
    commits, every socket they have open, in every server process."""
    student.set_student_secret(secret_kind, secret)
    student.save(update_fields=["secret_kind", "secret_hash"])
    user_sockets_end(user_id=student.pk)


def user_sessions_end(*, user) -> int:
    """Deletes every stored session signed in as ``user`` (sessions are not indexed by user: the
    unexpired ones are read, which a deletion, rare, can afford). Returns how many."""
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if session.get_decoded().get(SESSION_KEY) == str(user.pk)
    ]
    Session.objects.filter(pk__in=ended).delete()
    return len(ended)


def sign_in_log_rows(*, username: str):
    """django-axes' records of this account's sign-ins and failed sign-ins, per model."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    return {
        "sign_ins": AccessLog.objects.filter(username=username),
        "failed_sign_ins": AccessFailureLog.objects.filter(username=username),
        "failed_sign_in_counters": AccessAttempt.objects.filter(username=username),
    }


def sign_in_log_delete(*, username: str) -> None:
    for rows in sign_in_log_rows(username=username).values():
        rows.delete()
