"""What a play page learns from the lessons (live play does not know them): where it sends a child
or a teacher once the game is over, back to the lesson, the homework, or their home
(games.signals.play_page_links); the socket it follows (play_page_follow); and how a lesson's
big screen names children (play_page_room_names)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from classroom.homework.selectors import OVER, student_assignments
from classroom.models import Assignment, AssignmentWork, Enrollment, SessionTable
from games.models import Match


def play_page_links(sender, match_id: int, user, **kwargs) -> list[dict]:
    session_id = (
        SessionTable.objects.filter(match_id=match_id).values_list("session_id", flat=True).first()
    )
    if session_id is not None:
        if user.is_teacher:
            url = reverse("classroom:sessions_detail", args=[session_id])
            return [{"label": _("Back to the session"), "url": url}]
        # The home page offers the table of the next round as soon as the teacher starts it.
        return [{"label": _("Back to the lesson"), "url": reverse("classroom:student_home")}]
    assignment_id = (
        AssignmentWork.objects.filter(match_id=match_id, student=user)
        .values_list("assignment_id", flat=True)
        .first()
    )
    if assignment_id is not None:
        return _homework_next(assignment_id, match_id, user)
    if user.is_teacher:
        return _play_again(match_id, user)
    return []


def play_page_follow(sender, match_id: int, user, **kwargs) -> dict | None:
    """A lesson's play page also listens to the student socket (classroom.sessions.consumers):
    when the teacher starts another round (or seats the child elsewhere), the page goes to the new
    table by itself (docs/live-play.md, "Every screen follows the teacher"). The teacher's view
    of a table (on the projector) listens to the session's monitor socket for the same reason."""
    session_id = (
        SessionTable.objects.filter(match_id=match_id).values_list("session_id", flat=True).first()
    )
    if session_id is None:
        return None
    if user.is_student:
        return {"socket": "/ws/student/", "session_id": session_id}
    if (
        user.is_teacher
        and SessionTable.objects.filter(
            session_id=session_id, session__classroom__teacher=user
        ).exists()
    ):
        # A table on the projector: the session's monitor socket names the next round's table.
        return {"socket": f"/ws/session/{session_id}/", "session_id": session_id}
    return None


def play_page_room_names(sender, match_id: int, user, **kwargs) -> str | None:
    """A lesson's table on a spectator's page (the teacher's Watch view, on the class's screen)
    names children as the lesson's projector does (``ClassSession.projector_names``)."""
    return (
        SessionTable.objects.filter(match_id=match_id)
        .values_list("session__projector_names", flat=True)
        .first()
    )


def _homework_next(assignment_id: int, match_id: int, student) -> list[dict]:
    """After a game of homework: its next game or puzzle while some is left (a form's POST: the
    next one is made on first use), else the next homework not yet finished, soonest due; and
    the way back to this homework's page."""
    back = {
        "label": _("Back to your homework"),
        "url": reverse("classroom:homework_student", args=[assignment_id]),
    }
    assignment = Assignment.objects.get(pk=assignment_id)
    over = set(
        AssignmentWork.objects.filter(
            assignment=assignment, student=student, match__status__in=OVER
        ).values_list("item", flat=True)
    )
    this_item = (
        AssignmentWork.objects.filter(match_id=match_id, student=student)
        .values_list("item", flat=True)
        .first()
    )
    left = [i for i in range(len(assignment.items)) if i not in over and i != this_item]
    if left:
        puzzles = assignment.kind == Assignment.Kind.PUZZLES
        label = _("Next puzzle") if puzzles else _("Next game")
        url = reverse("classroom:homework_play", args=[assignment_id])
        return [{"label": label, "url": url, "post": True}, back]
    following = next(
        (
            entry.assignment
            for entry in student_assignments(student=student)
            if not entry.finished and entry.assignment.pk != assignment_id
        ),
        None,
    )
    if following is None:
        return [back]
    return [
        {
            "label": _("Next homework: %(title)s") % {"title": following.title},
            "url": reverse("classroom:homework_student", args=[following.pk]),
        },
        back,
    ]


def _play_again(match_id: int, teacher) -> list[dict]:
    """A table the teacher started by hand: the same players and options, one click away."""
    match = Match.objects.filter(pk=match_id, created_by=teacher).first()
    if match is None:
        return []
    student_ids = match.seats.exclude(user=None).values_list("user_id", flat=True)
    classroom_id = (
        Enrollment.objects.filter(student_id__in=student_ids, classroom__teacher=teacher)
        .values_list("classroom_id", flat=True)
        .first()
    )
    if classroom_id is None:
        return []
    query = urlencode(
        {"variant": f"{match.game}:{match.variant}", "classroom": classroom_id, "again": match.pk}
    )
    return [
        {
            "label": _("Play again with the same players"),
            "url": f"{reverse('classroom:match_new')}?{query}",
        },
        {"label": _("Back to your classes"), "url": reverse("classroom:teacher_home")},
    ]
