"""The demo class: a teacher and students with known logins, for trying the site and for tests."""

from django.contrib.auth import get_user_model
from django.db import transaction

from accounts.models import Role
from accounts.services import teacher_create
from classroom.demo_history import has_history, seed_history
from classroom.models import Classroom, Enrollment
from classroom.roster.services import student_add, student_set_secret
from classroom.roster.student_secrets import Secret

DEMO_TEACHER_EMAIL = "teacher@example.com"
DEMO_TEACHER_PASSWORD = "demo-teacher-2026"
DEMO_CLASS_NAME = "Demo class 3B"
DEMO_CLASS_CODE = "MATH34"
DEMO_STUDENTS = [
    ("Ana", "picture", "cat-sun-star"),
    ("Ben", "pin", "1234"),
    ("Carla", "picture", "dog-apple-ball"),
    ("Dan", "pin", "2468"),
    ("Eva", "picture", "fish-tree-car"),
    ("Femi", "pin", "1357"),
]


@transaction.atomic
def seed_demo(*, history: bool = True) -> Classroom:
    """Creates the demo class, or puts it back as it was; safe to run again. With ``history``, a
    class nobody has played in yet is given seven weeks of sessions and homework to show."""
    User = get_user_model()
    teacher = User.objects.filter(username=DEMO_TEACHER_EMAIL).first()
    if teacher is None:
        teacher = teacher_create(
            email=DEMO_TEACHER_EMAIL, password=DEMO_TEACHER_PASSWORD, display_name="Ms. Demo"
        )
    else:
        teacher.set_password(DEMO_TEACHER_PASSWORD)
        teacher.role = Role.TEACHER
        teacher.is_active = True
        teacher.save()
    classroom, _ = Classroom.objects.get_or_create(
        code=DEMO_CLASS_CODE, defaults={"teacher": teacher, "name": DEMO_CLASS_NAME}
    )
    enrolled = {
        e.student.display_name: e.student
        for e in Enrollment.objects.filter(classroom=classroom).select_related("student")
    }
    for name, kind, secret in DEMO_STUDENTS:
        student = enrolled.get(name)
        # Through the roster, so that the demo class's login cards print every secret.
        if student is None:
            student_add(classroom=classroom, display_name=name, secret=Secret(kind, secret))
        else:
            student_set_secret(student=student, secret=Secret(kind, secret))
            student.is_active = True
            student.save(update_fields=["is_active"])
    if history:
        students = [
            e.student
            for e in Enrollment.objects.filter(classroom=classroom).select_related("student")
        ]
        if not has_history(classroom, students):
            seed_history(classroom, students)
    return classroom


def demo_logins_text() -> str:
    lines = [
        "Demo logins",
        f"  Teacher: {DEMO_TEACHER_EMAIL} / {DEMO_TEACHER_PASSWORD}  (at /accounts/login/)",
        f"  Students: class code {DEMO_CLASS_CODE} at /student/, then pick the name:",
    ]
    for name, kind, secret in DEMO_STUDENTS:
        what = f"PIN {secret}" if kind == "pin" else "pictures " + ", ".join(secret.split("-"))
        lines.append(f"    {name:<6} {what}")
    return "\n".join(lines)
