"""Reads of the teaching layer."""

from django.db.models import Count

from accounts.models import Role
from classroom.models import Classroom, normalise_class_code


def classroom_by_code(*, code: str) -> Classroom | None:
    return Classroom.objects.filter(code=normalise_class_code(code)).first()


def classroom_roster(*, classroom: Classroom):
    """The students of a class as the login page lists them: active ones, by name."""
    return (
        classroom.enrollments.filter(student__is_active=True, student__role=Role.STUDENT)
        .select_related("student")
        .order_by("student__display_name", "student__id")
    )


def teacher_classrooms(*, teacher):
    return Classroom.objects.filter(teacher=teacher).annotate(student_count=Count("enrollments"))


def student_classrooms(*, student):
    return Classroom.objects.filter(enrollments__student=student).select_related("teacher")
