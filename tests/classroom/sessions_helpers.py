"""Building class sessions from tests, through the sessions services like a teacher and a class."""

from datetime import timedelta

from django.db import connection
from django.utils import timezone

import engine
from classroom.sessions.services import session_join, session_start
from games.hooks import attempt_writes
from games.models import Attempt, Match, MoveRecord
from games.services import now_ms
from tests.factories import make_class, make_session, make_student, make_teacher


def a_class(size, teacher=None, name="Class 4A"):
    classroom = make_class(teacher or make_teacher(), name=name)
    students = [make_student(classroom, f"Student {i:02d}") for i in range(1, size + 1)]
    return classroom, students


def joined_session(size, **session_kwargs):
    """A lobby every student of a fresh class of ``size`` has joined."""
    classroom, students = a_class(size)
    session = make_session(classroom, **session_kwargs)
    for student in students:
        session_join(session=session, student=student)
    return classroom, students, session


def started_session(size, **session_kwargs):
    classroom, students, session = joined_session(size, **session_kwargs)
    session_start(session=session)
    session.refresh_from_db()
    return classroom, students, session


def seat_of(session, student):
    """(match, seat index) of the student's table."""
    match = Match.objects.get(session_table__session=session, seats__user=student)
    return match, match.seats.get(user=student).index


def record_attempts(match, student, seat, outcomes, at=None):
    """Hand-made attempts for the monitor's figures: ``outcomes`` is a list of
    (skill, correct, elapsed_ms), saved in order as one move each (the way live play saves them,
    minus the engine: the figures do not care which card was played). The running figures are
    written as a move writes them: the layers' attempt writes (games.hooks)."""
    at = at or timezone.now()
    first = MoveRecord.objects.filter(match=match).count() + 1000
    for i, (skill, correct, elapsed_ms) in enumerate(outcomes):
        when = at + timedelta(milliseconds=i)
        record = MoveRecord.objects.create(
            match=match,
            version=first + i,
            actor=MoveRecord.Actor.PLAYER if student else MoveRecord.Actor.BOT,
            seat=seat,
            move={"type": "test"},
            events=[],
            received_at=when,
            now_ms=int(when.timestamp() * 1000),
        )
        operation = skill.split(".")[0]
        attempt = Attempt(
            match=match,
            move=record,
            user=student,
            seat=seat,
            game=match.game,
            operator={"add": "+", "sub": "-", "mul": "x"}[operation],
            operation=operation,
            skill=skill,
            operands=[3, 4],
            answer=7 if correct else 8,
            expected=7,
            correct=correct,
            elapsed_ms=elapsed_ms,
            mistake="" if correct else "off_by_one",
            created_at=when,
        )
        attempt.save()
        with connection.cursor() as cursor:
            for sql, params in attempt_writes(match, [attempt]):
                cursor.execute(sql, params)


def any_move(match, seat):
    """A right move when there is one, else the first legal move (a pass, say)."""
    rules = engine.get_game(match.game)
    match.refresh_from_db()
    state = rules.load(match.state)
    return rules.hint(state, seat) or rules.legal_moves(state, seat)[0]


def wrong_claim(match, seat):
    """A ¡Mía! claim the engine judges wrong (an attempt with correct false)."""
    rules = engine.get_game(match.game)
    match.refresh_from_db()
    state = rules.load(match.state)
    for move in rules.legal_moves(state, seat):
        if move["type"] != "claim":
            continue
        events = rules.apply(state, seat, move, now_ms()).events
        if any(e["type"] == "attempt" and not e["correct"] for e in events):
            return move
    raise AssertionError("no wrong claim on offer")
