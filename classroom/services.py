"""Writes of the teaching layer. Keyword-only, named <entity>_<action>."""

from django.db import IntegrityError, transaction

from accounts.services import student_create
from classroom.models import Classroom, Enrollment, new_class_code

CODE_ATTEMPTS = 20


def classroom_create(*, teacher, name: str) -> Classroom:
    # A fresh random code almost never collides; retrying on the unique index makes it certain.
    for _ in range(CODE_ATTEMPTS):
        try:
            with transaction.atomic():
                return Classroom.objects.create(
                    teacher=teacher, name=name.strip(), code=new_class_code()
                )
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free class code")


@transaction.atomic
def classroom_add_student(
    *, classroom: Classroom, display_name: str, secret_kind: str = "", secret=None
):
    student = student_create(display_name=display_name, secret_kind=secret_kind, secret=secret)
    Enrollment.objects.create(classroom=classroom, student=student)
    return student
