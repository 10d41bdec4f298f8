"""The demo class's past seven weeks: four game sessions and a homework, played move by move
through the real services (the sessions', the homework's and live play's ``submit_move`` and
``match_wake``), so that the attempts, move records, rollups, monitors and homework results the
teacher's pages show are the site's own figures and agree with each other.

The students play like children of differing skill (``HABITS``): each move is either the right one
(the easy bot's choice) or any legal one (the random bot's, wrong answers included), and they think
for a few seconds first. The matches run on a clock of their own that jumps from one action to the
next, so a lesson's play takes well under a second; afterwards the wall-clock columns are moved
back to the day the lesson or homework happened and the rollups are rebuilt from the attempts.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

import engine
from classroom.homework.services import PuzzleSpec, assignment_create, work_start
from classroom.homework.titles import PRACTICE_SQUARES_TITLE
from classroom.models import (
    Assignment,
    AssignmentWork,
    Classroom,
    ClassSession,
    SessionPresence,
)
from classroom.progress.rollup import rollups_rebuild
from classroom.sessions.services import session_end, session_join, session_open, session_start
from engine import IllegalMove
from games.models import Attempt, Match, MoveRecord, Seat
from games.services import MatchError, match_wake, now_ms, submit_move


@dataclass(frozen=True)
class Habits:
    right: float  # the share of moves that are the right one, in the first week
    think_seconds: tuple[float, float]


HABITS = {
    "Ana": Habits(0.8, (2.0, 5.0)),
    "Ben": Habits(0.6, (3.0, 8.0)),
    "Carla": Habits(0.7, (2.5, 6.0)),
    "Dan": Habits(0.45, (4.0, 10.0)),
    "Eva": Habits(0.9, (1.5, 4.0)),
    "Femi": Habits(0.55, (3.0, 9.0)),
}
HABITS_OF_OTHERS = Habits(0.7, (3.0, 7.0))  # students the teacher added to the demo class
# Practice pays: each week a little more of every student's moves are right, so the trend rises.
WEEKLY_GAIN = 0.04


@dataclass(frozen=True)
class Lesson:
    weeks_ago: int  # 1: the last Tuesday before today
    game: str
    variant: str
    table_size: int
    options: dict
    absent: tuple[str, ...] = ()


# Four lessons, each with another game, so that every operation shows on the progress pages;
# someone is away now and then, and a bot takes the seat. Two lie six and seven weeks back (36 to
# 49 days ago, whatever the weekday): the default view, the last 30 days, then has a period before
# it with the same operations to compare with, and the pages show growth, not only "new in this
# period" (issue "The live lesson, second pass"). Same four lessons: seeding is no slower.
LESSONS = (
    Lesson(7, "mia", "canada47", 3, {}),
    Lesson(6, "sum", "standard", 3, {}),
    Lesson(3, "add_or_multiply", "standard", 3, {}, absent=("Femi",)),
    Lesson(1, "mathable_junior", "front", 3, {}, absent=("Dan",)),
)
LESSON_TIME = datetime.time(10, 0)

HOMEWORK_SPEC = PuzzleSpec(size=3, difficulty=2, count=3)
HOMEWORK_SET_DAYS_AGO = 4
HOMEWORK_DUE_IN_DAYS = 3
HOMEWORK_TIME = datetime.time(17, 0)
# Squares each student has solved; the ones named in HOMEWORK_BEGUN have started the next and
# stopped after a few moves (Ana, the README's picture-password login, finds "Continue").
HOMEWORK_DONE = {"Ana": 2, "Ben": 3, "Carla": 3, "Dan": 1, "Eva": 3, "Femi": 0}
HOMEWORK_BEGUN = {"Ana": 2, "Dan": 1}  # moves made in the square left unfinished

MAX_STEPS = 3000  # per match; the games end long before (a guard against a stalled table)


def has_history(classroom: Classroom, students: Sequence) -> bool:
    """Whether the class has been played in at all: the history is only ever added to a class
    with none, so seeding again never doubles it (nor mixes it into someone's own tries)."""
    return (
        classroom.sessions.exists()
        or classroom.assignments.exists()
        or Attempt.objects.filter(user__in=students).exists()
    )


def seed_history(classroom: Classroom, students: Sequence, seed: int = 2026) -> None:
    """Gives the demo class seven weeks of play (see the module's docstring)."""
    rng = random.Random(seed)
    today = timezone.localdate()
    by_name = {student.display_name: student for student in students}
    for lesson in LESSONS:
        _lesson(classroom, lesson, by_name, today, rng)
    _homework(classroom, by_name, today, rng)
    # The moves were counted into the rollups on the day they were played; the back-dated
    # attempts are the truth, so the rollups are made again from them.
    rollups_rebuild(student_ids=[student.pk for student in students])


def _moment(day: datetime.date, time: datetime.time, minutes: float = 0) -> datetime.datetime:
    at = timezone.make_aware(datetime.datetime.combine(day, time))
    return at + datetime.timedelta(minutes=minutes)


def _lesson(classroom, lesson: Lesson, by_name: dict, today, rng: random.Random) -> None:
    week = LESSONS.index(lesson)  # 0 for the first lesson: practice pays, lesson by lesson
    session = session_open(
        classroom=classroom,
        game=lesson.game,
        variant=lesson.variant,
        table_size=lesson.table_size,
        options=lesson.options,
    )
    for name, student in by_name.items():
        if name not in lesson.absent:
            session_join(session=session, student=student)
    clock = now_ms()
    tables = session_start(session=session)
    for table in tables:
        _play(table.match, rng, week=week, start_ms=clock)
    session_end(session=session)

    # The class plays on Tuesdays: the last one before today, and the weeks before it.
    last_tuesday = today - datetime.timedelta(days=(today.weekday() - 1) % 7 or 7)
    day = last_tuesday - datetime.timedelta(weeks=lesson.weeks_ago - 1)
    started = _moment(day, LESSON_TIME)
    last = _backdate([table.match_id for table in tables], clock, started)
    ended = last + datetime.timedelta(minutes=2)
    ClassSession.objects.filter(pk=session.pk).update(
        created_at=started - datetime.timedelta(minutes=6), started_at=started, ended_at=ended
    )
    # The students came into the lobby one by one in the minutes before the start.
    presences = SessionPresence.objects.filter(session=session).order_by("id")
    for n, presence_id in enumerate(presences.values_list("pk", flat=True)):
        joined = started - datetime.timedelta(minutes=5) + datetime.timedelta(seconds=20 * n)
        presences.filter(pk=presence_id).update(joined_at=joined, last_seen_at=ended)


def _homework(classroom, by_name: dict, today, rng: random.Random) -> None:
    set_on = today - datetime.timedelta(days=HOMEWORK_SET_DAYS_AGO)
    assignment = assignment_create(
        classroom=classroom,
        title=PRACTICE_SQUARES_TITLE,
        spec=HOMEWORK_SPEC,
        due_at=_moment(today + datetime.timedelta(days=HOMEWORK_DUE_IN_DAYS), HOMEWORK_TIME),
        seed=rng.getrandbits(31),
    )
    Assignment.objects.filter(pk=assignment.pk).update(
        created_at=_moment(set_on, LESSON_TIME, minutes=50)
    )
    week = len(LESSONS)
    for n, (name, student) in enumerate(by_name.items()):
        done = HOMEWORK_DONE.get(name, 0)
        begun = name in HOMEWORK_BEGUN
        for item in range(done + begun):
            clock = now_ms()
            work = work_start(assignment=assignment, student=student, item=item)
            moves = HOMEWORK_BEGUN[name] if item == done else None
            _play(work.match, rng, week=week, start_ms=clock, moves=moves)
            # One square a day, after school, each student at their own time.
            began = _moment(set_on + datetime.timedelta(days=1 + item), HOMEWORK_TIME, 23 * n)
            _backdate([work.match_id], clock, began)
            AssignmentWork.objects.filter(pk=work.pk).update(created_at=began)


def _play(match: Match, rng: random.Random, *, week: int, start_ms: int, moves=None) -> None:
    """Plays the match to its end (or until its students have made ``moves`` moves): students by
    their habits, bots and timers through ``match_wake``, on a clock that starts at ``start_ms``
    and jumps from each action to the next."""
    rules = engine.get_game(match.game)
    players = {
        seat.index: (seat.user, HABITS.get(seat.user.display_name, HABITS_OF_OTHERS))
        for seat in Seat.objects.filter(match=match, user__isnull=False).select_related("user")
    }
    clock = start_ms
    made = 0
    for _step in range(MAX_STEPS):
        match.refresh_from_db(fields=["state", "status", "wake_at_ms"])
        if not match.is_playing or (moves is not None and made >= moves):
            return
        state = rules.load(match.state)
        offers = []
        for seat in sorted(rules.active(state) & players.keys()):
            habits = players[seat][1]
            right = min(0.97, habits.right + WEEKLY_GAIN * week)
            level = "easy" if rng.random() < right else "random"
            move = engine.bots.choose(rules, state, seat, level, rng)
            if move is not None:
                think = rng.uniform(*habits.think_seconds)
                offers.append((clock + int(think * 1000), seat, move))
        first = min(offers, key=lambda offer: offer[0]) if offers else None
        if first is not None and (match.wake_at_ms is None or first[0] < match.wake_at_ms):
            clock, seat, move = first
            try:
                submit_move(match_id=match.pk, user=players[seat][0], move=move, at_ms=clock)
            except (IllegalMove, MatchError):
                continue  # the game refused it: the child thinks again
            made += 1
        elif match.wake_at_ms is not None:
            clock = max(clock, match.wake_at_ms)
            match_wake(match_id=match.pk, at_ms=clock)
        else:
            return  # nobody can act and nothing is due; session_end stops the match


def _at(epoch_ms: int) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(epoch_ms / 1000, tz=datetime.UTC)


def _backdate(match_ids: list[int], start_ms: int, when: datetime.datetime) -> datetime.datetime:
    """Moves the matches' wall-clock columns so that what began at ``start_ms`` began ``when``;
    the engine's own times (``now_ms``, the states) stay as played, so the matches still replay.
    Returns the moment of the last move."""
    shift = int(when.timestamp() * 1000) - start_ms
    records = list(MoveRecord.objects.filter(match_id__in=match_ids).only("id", "now_ms"))
    for record in records:
        record.received_at = _at(record.now_ms + shift)
    MoveRecord.objects.bulk_update(records, ["received_at"], batch_size=500)
    Attempt.objects.filter(match_id__in=match_ids).update(
        created_at=Subquery(MoveRecord.objects.filter(pk=OuterRef("move_id")).values("received_at"))
    )
    last_moves = dict(
        MoveRecord.objects.filter(match_id__in=match_ids)
        .values("match_id")
        .annotate(last=Max("received_at"))
        .values_list("match_id", "last")
    )
    for match_id, status in Match.objects.filter(pk__in=match_ids).values_list("pk", "status"):
        last = last_moves.get(match_id, when)
        Match.objects.filter(pk=match_id).update(
            created_at=when,
            updated_at=last,
            finished_at=None if status == Match.Status.PLAYING else last,
        )
    return max(last_moves.values(), default=when)
