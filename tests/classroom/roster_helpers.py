"""Data the roster tests need around a student: recorded answers, lobby visits, homework work."""

from datetime import timedelta

from django.utils import timezone

from classroom.models import Assignment, AssignmentWork, ClassSession, SessionPresence
from games.models import Attempt, MoveRecord
from tests.factories import make_match


def record_attempts(match, user, count=3, *, correct=True):
    """``count`` answers of ``user`` at ``match``, as the live-play service records them."""
    seat = match.seats.get(user=user).index
    start = match.moves.count()
    for n in range(count):
        record = MoveRecord.objects.create(
            match=match,
            version=start + n + 1,
            actor=MoveRecord.Actor.PLAYER,
            seat=seat,
            move={"type": "claim"},
            received_at=timezone.now(),
            now_ms=1_000 * (n + 1),
        )
        Attempt.objects.create(
            match=match,
            move=record,
            user=user,
            seat=seat,
            game=match.game,
            operator="+",
            operation="add",
            skill="add.within10",
            operands=[3, 4],
            answer=7 if correct else 8,
            expected=7,
            correct=correct,
            elapsed_ms=2_000 + n,
            mistake="" if correct else "off_by_one",
            created_at=timezone.now(),
        )


def join_session(classroom, student):
    session = ClassSession.objects.create(
        classroom=classroom, game="mia", variant="express", table_size=2
    )
    return SessionPresence.objects.create(session=session, student=student)


def give_homework(classroom, student):
    """An assignment with one item the student has started (its match is theirs alone)."""
    assignment = Assignment.objects.create(
        classroom=classroom,
        title="Sums",
        kind=Assignment.Kind.BOT_GAMES,
        game="add_up",
        variant="standard",
        players=2,
        bot_level="easy",
        items=[{"seed": 1}],
        due_at=timezone.now() + timedelta(days=3),
    )
    match = make_match(game="add_up", variant="standard", players=[student], bots=["easy"])
    return AssignmentWork.objects.create(
        assignment=assignment, student=student, item=0, match=match
    )
