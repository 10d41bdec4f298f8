"""Small builders for test data, going through the real services."""

import itertools

from accounts.services import teacher_create
from classroom.services import classroom_add_student, classroom_create

TEACHER_PASSWORD = "a-long-teacher-password-42"


_numbers = itertools.count(1)


def make_teacher(email=None, name="Teacher One"):
    email = email or f"teacher{next(_numbers)}@example.org"
    return teacher_create(email=email, password=TEACHER_PASSWORD, display_name=name)


def make_class(teacher=None, name="Class 4A"):
    return classroom_create(teacher=teacher or make_teacher(), name=name)


def make_student(classroom, name="Ana", kind="pin", secret="4321"):
    return classroom_add_student(
        classroom=classroom, display_name=name, secret_kind=kind, secret=secret
    )
