"""Reads of the roster: a teacher's class and its students, what a deletion would remove, and a
student's data as they may take it away."""

from dataclasses import dataclass

from django.db.models import Count, Q

from accounts.models import Role, accommodations_of
from accounts.services import sign_in_log_rows
from classroom.access.selectors import class_wide_access_log, student_access_log
from classroom.models import (
    AssignmentWork,
    Classroom,
    Enrollment,
    ProgressReport,
    SessionPlace,
    SessionPresence,
)
from classroom.roster.student_secrets import Secret, secret_tag, unseal
from classroom.selectors import classroom_roster
from games.models import Attempt, Match, MoveRecord, Seat


def class_students(*, classroom: Classroom):
    """The class's students by name, each with their login card copy (one query)."""
    return [
        enrollment.student
        for enrollment in Enrollment.objects.filter(classroom=classroom, student__role=Role.STUDENT)
        .select_related("student", "student__login_card")
        .order_by("student__display_name", "student__id")
    ]


def class_student(*, classroom: Classroom, student_id):
    """A student of this class, or None."""
    enrollment = (
        Enrollment.objects.filter(
            classroom=classroom, student_id=student_id, student__role=Role.STUDENT
        )
        .select_related("student", "student__login_card", "student__accommodations")
        .first()
    )
    return enrollment.student if enrollment else None


def card_is_current(student) -> bool:
    """Whether the roster's copy of the secret is the student's secret: it was set through the
    roster and not set again since by another path."""
    card = getattr(student, "login_card", None)
    return bool(card and student.secret_hash) and card.secret_tag == secret_tag(student.secret_hash)


def card_secret(student) -> Secret | None:
    """The secret to print on the student's card, if it is known."""
    return unseal(student.login_card.sealed_secret) if card_is_current(student) else None


@dataclass(frozen=True)
class StudentDeletion:
    attempts: int
    own_matches: int
    shared_matches: int
    lobby_visits: int
    session_places: int
    homework_items: int
    other_classes: list[str]  # names of the student's other classes
    other_teachers: bool  # in a class of another teacher: only remove from this class


def student_deletion(*, student, classroom: Classroom) -> StudentDeletion:
    matches = (
        Match.objects.filter(pk__in=Seat.objects.filter(user=student).values("match_id"))
        .annotate(humans=Count("seats", filter=Q(seats__user__isnull=False)))
        .values_list("humans", flat=True)
    )
    humans = list(matches)
    others = list(
        Classroom.objects.filter(enrollments__student=student)
        .exclude(pk=classroom.pk)
        .values_list("name", "teacher_id")
    )
    return StudentDeletion(
        attempts=Attempt.objects.filter(user=student).count(),
        own_matches=sum(1 for n in humans if n == 1),
        shared_matches=sum(1 for n in humans if n > 1),
        lobby_visits=SessionPresence.objects.filter(student=student).count(),
        session_places=SessionPlace.objects.filter(student=student).count(),
        homework_items=AssignmentWork.objects.filter(student=student).count(),
        other_classes=[name for name, _teacher in others],
        other_teachers=any(teacher != classroom.teacher_id for _name, teacher in others),
    )


@dataclass(frozen=True)
class ClassroomDeletion:
    students: int
    students_deleted: int  # in no other class, so their accounts go too
    sessions: int
    assignments: int
    reports: int

    @property
    def students_kept(self) -> int:
        return self.students - self.students_deleted


def classroom_deletion(*, classroom: Classroom) -> ClassroomDeletion:
    counts = Enrollment.objects.filter(classroom=classroom).annotate(
        classes=Count("student__enrollments")
    )
    classes = list(counts.values_list("classes", flat=True))
    return ClassroomDeletion(
        students=len(classes),
        students_deleted=sum(1 for n in classes if n == 1),
        sessions=classroom.sessions.count(),
        assignments=classroom.assignments.count(),
        reports=classroom.reports.count(),
    )


# --- a student's data, to take away --------------------------------------------------------------


def student_export(*, student) -> dict:
    """Everything recorded about a student, as JSON-safe data, without any secret: no password,
    PIN or picture password (nor their hashes), no login-card token, no match seeds or states."""
    classes = (
        Enrollment.objects.filter(student=student)
        .select_related("classroom__teacher")
        .order_by("joined_at")
    )
    seats = (
        Seat.objects.filter(user=student)
        .select_related("match")
        .order_by("match__created_at", "match_id")
    )
    attempts = Attempt.objects.filter(user=student).order_by("created_at", "id")
    return {
        "format": "arithmetic-games-classroom/student-export/1",
        "profile": {
            "id": student.pk,
            "name": student.display_name,
            "role": student.role,
            "sign_in": student.secret_kind or None,
            "joined": student.date_joined,
            "last_sign_in": student.last_login,
            # What the teacher set for the child (accounts.Accommodations), or None.
            "accommodations": _accommodations_export(student),
        },
        "classes": [
            {
                "name": e.classroom.name,
                "code": e.classroom.code,
                "teacher": str(e.classroom.teacher),
                "joined": e.joined_at,
            }
            for e in classes
        ],
        "matches": [
            {
                "match": seat.match_id,
                "game": seat.match.game,
                "variant": seat.match.variant,
                "seat": seat.index,
                "status": seat.match.status,
                "started": seat.match.created_at,
                "finished": seat.match.finished_at,
                "score": _outcome(seat.match.outcome, "scores", seat.index),
                "won": _outcome(seat.match.outcome, "winners", seat.index),
            }
            for seat in seats
        ],
        "attempts": [
            {
                "match": a["match_id"],
                "game": a["game"],
                "skill": a["skill"],
                "operation": a["operation"],
                "operator": a["operator"],
                "operands": a["operands"],
                "answer": a["answer"],
                "expected": a["expected"],
                "correct": a["correct"],
                "mistake": a["mistake"],
                "elapsed_ms": a["elapsed_ms"],
                "at": a["created_at"],
            }
            for a in attempts.values(
                "match_id",
                "game",
                "skill",
                "operation",
                "operator",
                "operands",
                "answer",
                "expected",
                "correct",
                "mistake",
                "elapsed_ms",
                "created_at",
            )
        ],
        "class_sessions": [
            {"session": p["session_id"], "game": p["session__game"], "joined": p["joined_at"]}
            for p in SessionPresence.objects.filter(student=student)
            .order_by("joined_at")
            .values("session_id", "session__game", "joined_at")
        ],
        "homework": [
            # The title as the reader reads it (a platform's title is worded when read).
            {"assignment": w.assignment.title, "item": w.item, "match": w.match_id}
            for w in AssignmentWork.objects.filter(student=student)
            .select_related("assignment")
            .only(
                "item",
                "match_id",
                "assignment__typed_title",
                "assignment__title_kind",
                "assignment__title_params",
            )
            .order_by("assignment_id", "item")
        ],
        "moves": _moves_of(seats),
        "sign_in_log": [
            {"kind": kind, "at": row.attempt_time, "address": row.ip_address, "page": row.path_info}
            for kind, rows in sign_in_log_rows(username=student.username).items()
            for row in rows.order_by("attempt_time")
        ],
        # Who looked at their data, and downloaded it (this export included).
        "data_access": student_access_log(student=student),
        # And at their whole class's figures while they were in it (a row for the class).
        "class_data_access": class_wide_access_log(student=student),
        "class_reports": [
            {
                "class": r["classroom__name"],
                "from": r["period_start"],
                "to": r["period_end"],
                "status": r["status"],
                "requested": r["created_at"],
            }
            for r in ProgressReport.objects.filter(classroom__in=[e.classroom_id for e in classes])
            .order_by("created_at")
            .values("classroom__name", "period_start", "period_end", "status", "created_at")
        ],
    }


def class_export(*, classroom: Classroom) -> dict:
    """The whole class at the end of a year: the class and every student's export."""
    students = [e.student for e in classroom_roster(classroom=classroom, with_accommodations=True)]
    return {
        "format": "arithmetic-games-classroom/class-export/1",
        "class": {"name": classroom.name, "code": classroom.code, "created": classroom.created_at},
        "students": [student_export(student=student) for student in students],
    }


def _moves_of(seats) -> list[dict]:
    """The student's own moves: what they played, and when."""
    seat_of = {seat.match_id: seat.index for seat in seats}
    records = MoveRecord.objects.filter(
        match_id__in=list(seat_of), actor=MoveRecord.Actor.PLAYER
    ).order_by("match_id", "version")
    return [
        {"match": r.match_id, "version": r.version, "move": r.move, "at": r.received_at}
        for r in records
        if r.seat == seat_of[r.match_id]
    ]


def _outcome(outcome, key: str, seat: int):
    """The seat's score, or whether it won (None while the match has no outcome)."""
    values = (outcome or {}).get(key)
    if values is None:
        return None
    if key == "winners":
        return seat in values
    return values[seat] if seat < len(values) else None


def _accommodations_export(student) -> dict | None:
    accommodations = accommodations_of(student)
    if accommodations.pk is None:
        return None
    return {
        "time": accommodations.time,
        "calm_table": accommodations.calm_table,
        "public_name": accommodations.public_name,
        "read_aloud": accommodations.read_aloud,
        "dots": accommodations.dots,
        "updated": accommodations.updated_at,
    }
