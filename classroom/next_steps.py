"""Where a play page sends a child or a teacher once the game is over: back to the lesson, the
homework, or their home (games.signals.play_page_links; live play does not know the lessons)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from classroom.models import AssignmentWork, Enrollment, SessionTable
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
        url = reverse("classroom:homework_student", args=[assignment_id])
        return [{"label": _("Back to your homework"), "url": url}]
    if user.is_teacher:
        return _play_again(match_id, user)
    return []


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
