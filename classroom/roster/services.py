"""Writes of the roster: classes, students, their secrets; deleting a student with their data."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Q

from accounts import services as accounts_services
from accounts.models import Accommodations, PublicName, Role, TimeAllowance
from accounts.services import sign_in_log_delete, user_sessions_end
from classroom.models import Classroom, Enrollment, LoginCard
from classroom.progress.services import reports_compile_again
from classroom.roster.importing import ImportPlan
from classroom.roster.selectors import card_is_current, card_secret
from classroom.roster.student_secrets import (
    Secret,
    generate_secret,
    seal,
    seal_again,
    secret_tag,
)
from classroom.services import classroom_add_student
from games.models import Match, Seat
from games.services import match_abandon, match_log_forget_seat


def classroom_rename(*, classroom: Classroom, name: str) -> Classroom:
    classroom.name = name.strip()
    classroom.save(update_fields=["name"])
    return classroom


@transaction.atomic
def classroom_delete(*, classroom: Classroom) -> None:
    """Deletes the class with its sessions, homework and reports, and every student who is in no
    other class (with all their data): nobody could sign in as them any more."""
    only_here = (
        Enrollment.objects.filter(classroom=classroom)
        .annotate(classes=Count("student__enrollments"))
        .filter(classes=1)
        .values_list("student_id", flat=True)
    )
    for student in get_user_model().objects.filter(pk__in=list(only_here)):
        student_delete(student=student)
    classroom.delete()


def student_accommodations_set(
    *,
    student,
    time: str = TimeAllowance.STANDARD,
    calm_table: bool = False,
    public_name: str = PublicName.FULL,
    read_aloud: bool = False,
    dots: bool = False,
) -> Accommodations:
    """What the teacher sets, privately, for one child (docs/accessibility.md, "Accommodations per
    child"): applied to every match made for them from now on, and marked on the teacher's
    figures. Raises ValidationError for a choice that is not one."""
    accommodations = Accommodations.objects.filter(student=student).first() or Accommodations(
        student=student
    )
    accommodations.time = time
    accommodations.calm_table = calm_table
    accommodations.public_name = public_name
    accommodations.read_aloud = read_aloud
    accommodations.dots = dots
    accommodations.full_clean(exclude=["student"])
    accommodations.save()
    return accommodations


def student_set_secret(*, student, secret: Secret) -> Secret:
    """Sets the student's picture password or PIN and keeps the sealed copy their card prints."""
    accounts_services.student_set_secret(
        student=student, secret_kind=secret.kind, secret=secret.value
    )
    LoginCard.objects.update_or_create(
        student=student,
        defaults={"sealed_secret": seal(secret), "secret_tag": secret_tag(student.secret_hash)},
    )
    return secret


@dataclass(frozen=True)
class KeyMove:
    moved: int  # hashes and copies rewritten under the current key
    current: int  # already under it
    unreadable: int  # a copy no key in force reads: that child's secret needs a reset
    without_copy: int  # no current copy here: each moves at the child's next sign-in


def secrets_move_to_current_key() -> KeyMove:
    """After SECRET_KEY (or STUDENT_SECRET_KEY) was rotated, moves every child whose secret the
    roster keeps a copy of to the new key at once, hash and copy, rather than at their next
    sign-in (docs/security.md, "Rotating the key")."""
    moved = current = unreadable = without_copy = 0
    students = (
        get_user_model().objects.filter(role=Role.STUDENT, is_active=True).exclude(secret_hash="")
    )
    for student in students.select_related("login_card").iterator(chunk_size=500):
        secret = card_secret(student) if hasattr(student, "login_card") else None
        if secret is None:
            if hasattr(student, "login_card") and card_is_current(student):
                unreadable += 1
            else:
                without_copy += 1
            continue
        before = student.secret_hash
        if not student.check_student_secret(secret.value):
            unreadable += 1
            continue
        card = student.login_card
        sealed = seal_again(card.sealed_secret)
        changed = student.secret_hash != before or sealed != card.sealed_secret
        if sealed is not None and sealed != card.sealed_secret:
            LoginCard.objects.filter(pk=card.pk, sealed_secret=card.sealed_secret).update(
                sealed_secret=sealed
            )
        moved, current = (moved + 1, current) if changed else (moved, current + 1)
    return KeyMove(moved, current, unreadable, without_copy)


@transaction.atomic
def student_add(
    *, classroom: Classroom, display_name: str, secret: Secret | None = None, generate: str = ""
):
    """A new student in the class, with the given secret or one generated of kind ``generate``.
    Returns (student, secret); the secret is None when neither was asked for."""
    student = classroom_add_student(classroom=classroom, display_name=display_name)
    if secret is None and generate:
        secret = generate_secret(generate)
    if secret is not None:
        student_set_secret(student=student, secret=secret)
    return student, secret


@transaction.atomic
def student_import(*, classroom: Classroom, plan: ImportPlan, generate: str):
    """Creates every student of a checked plan; [(student, secret)] in the list's order."""
    if not plan.ok:
        raise ValueError("only a plan without errors can be imported")
    return [
        student_add(
            classroom=classroom, display_name=row.name, secret=row.secret, generate=generate
        )
        for row in plan.rows
    ]


def student_rename(*, student, display_name: str):
    student.display_name = display_name.strip()
    student.save(update_fields=["display_name"])
    return student


@transaction.atomic
def student_delete(*, student) -> None:
    """Deletes a student account and everything recorded about them.

    Their own matches (solo puzzles, homework, games against bots) go entirely. In a match shared
    with classmates their seat, their moves and their answers go (the log keeps the classmates');
    if it is still playing it is stopped first, as a table cannot play on with an empty seat.
    Everything else (enrolments, lobby presences, session places, homework work, the login card)
    cascades from the account."""
    if student.role != Role.STUDENT:
        raise ValueError("only student accounts are deleted here")
    played = Match.objects.filter(pk__in=Seat.objects.filter(user=student).values("match_id"))
    for match_id in played.filter(status=Match.Status.PLAYING).values_list("pk", flat=True):
        match_abandon(match_id=match_id)
    solo = played.annotate(humans=Count("seats", filter=Q(seats__user__isnull=False))).filter(
        humans=1
    )
    homework = Match.objects.filter(assignment_work__student=student)
    own = [*solo.values_list("pk", flat=True), *homework.values_list("pk", flat=True)]
    Match.objects.filter(pk__in=own).delete()
    # In the games shared with classmates, their moves and answers leave the log.
    for match_id, seat in (
        Seat.objects.filter(user=student).exclude(match_id__in=own).values_list("match_id", "index")
    ):
        match_log_forget_seat(match_id=match_id, seat=seat)
    class_ids = list(
        Enrollment.objects.filter(student=student).values_list("classroom_id", flat=True)
    )
    # What is kept outside the account's own rows: the sign-in log, open sessions, and the
    # class reports that name the student (compiled again, without them, once this commits).
    sign_in_log_delete(username=student.username)
    user_sessions_end(user=student)
    student.delete()
    reports_compile_again(classroom_ids=class_ids)


def enrollment_remove(*, classroom: Classroom, student) -> None:
    """Takes a student out of one class only (they are also in another teacher's class)."""
    Enrollment.objects.filter(classroom=classroom, student=student).delete()
