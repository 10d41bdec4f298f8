"""Reads of the teaching layer."""

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Count
from django.urls import reverse

from accounts.models import Role
from classroom.models import Classroom, Enrollment, normalise_class_code
from games import catalog
from games.models import Match


def classroom_by_code(*, code: str) -> Classroom | None:
    return Classroom.objects.filter(code=normalise_class_code(code)).first()


def classroom_roster(*, classroom: Classroom, with_accommodations: bool = False):
    """The students of a class as the login page lists them: active ones, by name. The teacher's
    pages read each child's accommodations with them (``with_accommodations``)."""
    related = ["student", "student__accommodations"] if with_accommodations else ["student"]
    return (
        classroom.enrollments.filter(student__is_active=True, student__role=Role.STUDENT)
        .select_related(*related)
        .order_by("student__display_name", "student__id")
    )


def teacher_classroom(*, teacher, classroom_id) -> Classroom | None:
    """The class, if it is this teacher's: another teacher's class does not exist for them."""
    return Classroom.objects.filter(pk=classroom_id, teacher=teacher).first()


def teacher_classrooms(*, teacher):
    return Classroom.objects.filter(teacher=teacher).annotate(student_count=Count("enrollments"))


def student_classrooms(*, student):
    return Classroom.objects.filter(enrollments__student=student).select_related("teacher")


RECENT_GAMES = 8
_RECENT_MATCHES_READ = 60  # enough matches for eight rows when sessions have many tables


def recent_games(*, teacher) -> list[dict]:
    """The teacher's latest games for their home page, newest first: a class session as one row
    (its class, its game, how many tables), a table they started by hand as another (the class of
    its students, who played). Homework is left to the homework pages. Four queries."""
    matches = list(
        Match.objects.filter(created_by=teacher, assignment_work__isnull=True)
        .select_related("session_table__session__classroom")
        .only(
            "id",
            "game",
            "variant",
            "label",
            "label_values",
            "status",
            "created_at",
            "session_table__session__id",
            "session_table__session__status",
            "session_table__session__classroom__name",
            "session_table__id",
        )
        .prefetch_related("seats")
        .order_by("-created_at", "-id")[:_RECENT_MATCHES_READ]
    )
    students = {
        seat.user_id
        for match in matches
        if not _session_of(match)
        for seat in match.seats.all()
        if seat.user_id
    }
    class_of_student = dict(
        Enrollment.objects.filter(student_id__in=students, classroom__teacher=teacher)
        .order_by("-classroom__created_at")
        .values_list("student_id", "classroom__name")
    )
    rows: list[dict] = []
    sessions: dict[int, dict] = {}
    for match in matches:
        session = _session_of(match)
        variant = catalog.variant_title(match.game, match.variant)
        game = f"{catalog.game_title(match.game)} · {variant}"
        if session is not None:
            row = sessions.get(session.pk)
            if row is None:
                row = sessions[session.pk] = {
                    "kind": "session",
                    "when": match.created_at,
                    "classroom": session.classroom.name,
                    "game": game,
                    "tables": 0,
                    "status": session.get_status_display(),
                    "url": reverse("classroom:sessions_detail", args=[session.pk]),
                }
                rows.append(row)
            row["tables"] += 1
            continue
        seats = list(match.seats.all())
        classes = [class_of_student[s.user_id] for s in seats if s.user_id in class_of_student]
        rows.append(
            {
                "kind": "table",
                "when": match.created_at,
                "classroom": classes[0] if classes else "",
                "game": game,
                "label": match.shown_label,
                "players": ", ".join(seat.name for seat in seats),
                "status": match.get_status_display(),
                "url": reverse("games:watch", args=[match.pk]),
            }
        )
    return rows[:RECENT_GAMES]


def _session_of(match):
    try:
        table = match.session_table
    except ObjectDoesNotExist:
        return None
    return table.session
