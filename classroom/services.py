"""Writes of the teaching layer. Keyword-only, named <entity>_<action>."""

from django.db import IntegrityError, transaction

from accounts.models import User, validate_time_zone
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
    student = student_create(
        display_name=display_name,
        secret_kind=secret_kind,
        secret=secret,
        time_zone=classroom.teacher.time_zone,  # a school day is the teacher's
    )
    Enrollment.objects.create(classroom=classroom, student=student)
    return student


@transaction.atomic
def teacher_digits_set(*, teacher, digits: str) -> None:
    """The digits the school's pages in Arabic show (accounts/digits.py); its students' pages
    follow it, as they read it from their teacher."""
    teacher.digits = digits
    teacher.save(update_fields=["digits"])


def teacher_time_zone_set(*, teacher, time_zone: str) -> list[int]:
    """The zone the teacher's school days are counted in, for the teacher and every student of
    their classes. The students' figures were counted by day in the old zone: they are counted
    again from their answers, after the commit and in the background (``tasks``). Returns those
    students' ids."""
    from classroom.progress import tasks

    validate_time_zone(time_zone)
    teacher.time_zone = time_zone
    teacher.save(update_fields=["time_zone"])
    student_ids = list(
        Enrollment.objects.filter(classroom__teacher=teacher)
        .values_list("student_id", flat=True)
        .distinct()
    )
    User.objects.filter(pk__in=student_ids).exclude(time_zone=time_zone).update(time_zone=time_zone)
    if student_ids:
        transaction.on_commit(lambda: tasks.rebuild_rollups.delay(student_ids))
    return student_ids
