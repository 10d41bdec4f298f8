"""Writes to accounts. Keyword-only, named <entity>_<action>."""

import uuid

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.models import Role

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
def student_create(*, display_name: str, secret_kind: str = "", secret=None) -> "User":
    """A student account: no e-mail, no usable password; a generated internal username."""
    student = User(
        username=f"student-{uuid.uuid4().hex[:12]}",
        role=Role.STUDENT,
        display_name=display_name.strip(),
    )
    student.set_unusable_password()
    if secret_kind:
        student.set_student_secret(secret_kind, secret)
    student.save()
    return student


def student_set_secret(*, student: "User", secret_kind: str, secret) -> None:
    student.set_student_secret(secret_kind, secret)
    student.save(update_fields=["secret_kind", "secret_hash"])
