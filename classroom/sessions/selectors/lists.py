"""Reads of class sessions outside the live monitor: the teacher's lists, a student's open
sessions and table, and who is (not) in the lobby."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.urls import reverse

from classroom.models import ClassSession, SessionPlace, SessionPresence, SessionTable
from games import catalog
from games.models import Match

User = get_user_model()


def session_title(session: ClassSession, *, child: bool = False) -> str:
    return catalog.game_and_variant_title(session.game, session.variant, child=child)


def classroom_sessions(*, classroom, limit: int = 50):
    """A class's sessions, newest first, with how many students came and how many tables."""
    return list(
        ClassSession.objects.filter(classroom=classroom)
        .annotate(
            present_count=Count("presences", distinct=True),
            table_count=Count("tables", distinct=True),
        )
        .order_by("-created_at", "-id")[:limit]
    )


def teacher_session(*, teacher, session_id) -> ClassSession | None:
    """The session if it belongs to one of the teacher's classes (else None: a 404)."""
    return (
        ClassSession.objects.select_related("classroom")
        .filter(pk=session_id, classroom__teacher=teacher)
        .first()
    )


def student_session(*, student, session_id) -> ClassSession | None:
    """The session if the student's class runs it (else None: a 404)."""
    return (
        ClassSession.objects.select_related("classroom")
        .filter(pk=session_id, classroom__enrollments__student=student)
        .first()
    )


def student_open_sessions(*, student) -> list[dict]:
    """The sessions of the student's classes that are open (lobby or playing), as their home page
    and their socket show them: joined or not, and their table's play page once seated. Two
    queries, whatever the number of classes and sessions."""
    sessions = list(
        ClassSession.objects.filter(
            classroom__enrollments__student=student,
            status__in=[ClassSession.Status.LOBBY, ClassSession.Status.PLAYING],
        )
        .select_related("classroom")
        .annotate(joined=Count("presences", filter=Q(presences__student=student)))
        .order_by("created_at", "id")
    )
    tables = dict(
        SessionPlace.objects.filter(
            student=student, table__session__in=[s.pk for s in sessions], table__match__isnull=False
        ).values_list("table__session_id", "table__match_id")
    )
    return [
        {
            "id": session.pk,
            "title": session_title(session, child=True),
            "classroom": session.classroom.name,
            "status": session.status,
            "joined": bool(session.joined),
            # Closed to newcomers: a student not in it yet is offered no Join button.
            "locked": session.lobby_locked,
            "join_url": reverse("classroom:sessions_join", args=[session.pk]),
            "lobby_url": reverse("classroom:sessions_lobby", args=[session.pk]),
            "play_url": reverse("games:play", args=[tables[session.pk]])
            if session.pk in tables
            else None,
        }
        for session in sessions
    ]


def students_not_in_lobby(*, session: ClassSession) -> list[str]:
    """The class's students who have not joined: the teacher sees who is still signing in (or
    stuck at it) before starting without them."""
    present = SessionPresence.objects.filter(session=session).values("student_id")
    return [
        user.display_name or user.username
        for user in User.objects.filter(
            enrollments__classroom_id=session.classroom_id, is_active=True
        )
        .exclude(pk__in=present)
        .order_by("display_name", "id")
        .only("display_name", "username")
    ]


def tables_playing(*, session: ClassSession) -> int:
    """How many of the session's tables are still playing."""
    return SessionTable.objects.filter(session=session, match__status=Match.Status.PLAYING).count()


def playing_matches(*, session: ClassSession) -> list[int]:
    return list(
        SessionTable.objects.filter(session=session, match__status=Match.Status.PLAYING)
        .order_by("number")
        .values_list("match_id", flat=True)
    )


def students_at(*, session: ClassSession, seats: set[tuple[int, int | None]]) -> set[int]:
    """The students sitting at these (match id, seat) places of the session (seat None: all of
    that match's)."""
    if not seats:
        return set()
    places = SessionPlace.objects.filter(
        table__session=session, table__match_id__in={match_id for match_id, _seat in seats}
    ).values_list("table__match_id", "seat", "student_id")
    return {
        student_id
        for match_id, seat, student_id in places
        if (match_id, seat) in seats or (match_id, None) in seats
    }


def student_table(*, session: ClassSession, student) -> int | None:
    """The match of the student's table in the session, once it has started."""
    return (
        SessionPlace.objects.filter(table__session=session, student=student)
        .values_list("table__match_id", flat=True)
        .first()
    )
