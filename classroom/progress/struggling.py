"""Who in a class is stuck on what, outside live sessions (issue 14, item 8).

A student is stuck on a skill when their latest answers on it (at most ``RECENT_ANSWERS``, from
the last ``LOOK_BACK_DAYS``) are at least ``MIN_ANSWERS`` and under ``LOW_SHARE`` right, or end
with ``WRONG_IN_A_ROW`` wrong answers (the live monitor's "needs help" rules, over days instead of
a lesson), unless the latest of them are that many right in a row. Stuck since: the first answer
after the last time they got ``WRONG_IN_A_ROW`` right in a row on it, or the oldest answer
looked at. The evidence is their latest answers, worded as at
the table. Two queries, whatever the size of the class (``_latest_answers``).
"""

from __future__ import annotations

import datetime
import functools
import json
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection
from django.db.models import Sum
from django.utils import timezone

import engine
from classroom.models import Classroom
from classroom.progress.mastery import MIN_ANSWERS, RECENT_ANSWERS, latest_per_skill
from classroom.progress.models import SkillDay
from classroom.progress.numbers import percent
from classroom.progress.wording import Wording, skill_label, wording
from classroom.selectors import classroom_roster
from games.models import Attempt, Match, Seat

SHOWN = 12  # with their evidence, most urgent first; the others are named in one line
LOOK_BACK_DAYS = 14
LOW_SHARE = 0.6
WRONG_IN_A_ROW = 3
EVIDENCE = 5


@dataclass(frozen=True)
class Evidence:
    when: datetime.datetime
    correct: bool
    worded: Wording


@dataclass
class Stuck:
    student: object
    skill: str
    right: int
    answers: int
    since: datetime.datetime
    wrong_in_a_row: int
    latest: list  # the answers looked at, newest first

    @functools.cached_property
    def evidence(self) -> list[Evidence]:
        """The latest answers worded as at the table (worded only for the entries shown)."""
        return [
            Evidence(a.created_at, a.correct, wording(_decoded(a))) for a in self.latest[:EVIDENCE]
        ]

    @property
    def label(self) -> str:
        return skill_label(self.skill)

    @property
    def practise_facts(self) -> list[tuple[str, str]]:
        """The table facts among the wrong answers looked at, for "practise these facts"."""
        from classroom.practice.forms import wrong_facts

        return wrong_facts(_decoded(answer) for answer in self.latest)

    @property
    def practise_students(self) -> list[int]:
        return [self.student.pk]

    @property
    def percent(self) -> int | None:
        return percent(self.right, self.answers)


def _stuck(student, skill: str, latest: list[Answer]) -> Stuck | None:
    """``latest``: the student's latest answers on the skill, newest first."""
    right = sum(a.correct for a in latest)
    wrong_run = next((n for n, a in enumerate(latest) if a.correct), len(latest))
    low = len(latest) >= MIN_ANSWERS and right < LOW_SHARE * len(latest)
    if not (low or wrong_run >= WRONG_IN_A_ROW):
        return None
    if all(a.correct for a in latest[:WRONG_IN_A_ROW]):
        return None  # the latest answers are right in a row: out of it already
    since = latest[-1].created_at
    for n in range(1, len(latest) - WRONG_IN_A_ROW + 1):
        if all(a.correct for a in latest[n : n + WRONG_IN_A_ROW]):
            since = latest[n - 1].created_at
            break
    return Stuck(
        student=student,
        skill=skill,
        right=right,
        answers=len(latest),
        since=since,
        wrong_in_a_row=wrong_run,
        latest=latest,
    )


def class_struggling(
    *, classroom: Classroom, students=None, now: datetime.datetime | None = None
) -> list[Stuck]:
    """The class's stuck students and skills, most wrong in a row first, then lowest share.
    ``students``: the class's roster, when the caller has read it already."""
    now = now or timezone.now()
    if students is None:
        students = [e.student for e in classroom_roster(classroom=classroom)]
    roster = {student.pk: student for student in students}
    since = now - datetime.timedelta(days=LOOK_BACK_DAYS)
    grouped: dict[tuple[int, str], list[Answer]] = {}
    for attempt in _latest_answers(list(roster), since, now):
        grouped.setdefault((attempt.user_id, attempt.skill), []).append(attempt)
    found = []
    for (student_id, skill), answers in grouped.items():
        student = roster.get(student_id)
        stuck = None if student is None else _stuck(student, skill, answers)
        if stuck is not None:
            found.append(stuck)
    return sorted(
        found,
        key=lambda s: (-s.wrong_in_a_row, s.right / s.answers, str(s.student), s.skill),
    )


# As on the live monitor: three cards in a row passed or let run out (classroom.sessions).
PASSES_IN_A_ROW = 3


@dataclass(frozen=True)
class Passing:
    """A student who, at the end of their latest game with passes (¡Mía!'s table), had passed
    or let the time run out on the last ``in_a_row`` cards: no wrong answers, but no answers."""

    student: object
    game: str
    in_a_row: int
    since: datetime.datetime

    @property
    def game_title(self) -> str:
        return engine.get_game(self.game).title


def class_passing(
    *, classroom: Classroom, students=None, now: datetime.datetime | None = None
) -> list[Passing]:
    """The class's students passing card after card (docs/progress.md, "Passes"), most passes
    first: from each student's latest match of the last ``LOOK_BACK_DAYS`` in a game that counts
    passes, as its state ends (or stands)."""
    now = now or timezone.now()
    if students is None:
        students = [e.student for e in classroom_roster(classroom=classroom)]
    roster = {student.pk: student for student in students}
    games = [game.slug for game in engine.list_games() if game.real_time]
    seats = (
        Seat.objects.filter(
            user_id__in=list(roster),
            match__game__in=games,
            match__updated_at__gte=now - datetime.timedelta(days=LOOK_BACK_DAYS),
            match__updated_at__lte=now,
        )
        .order_by("user_id", "-match__updated_at", "-match_id")
        .values_list("user_id", "index", "match_id", "match__game", "match__updated_at")
    )
    latest: dict[int, tuple] = {}
    for user_id, index, match_id, game, updated_at in seats:
        latest.setdefault(user_id, (index, match_id, game, updated_at))
    states = dict(
        Match.objects.filter(pk__in=[v[1] for v in latest.values()]).values_list("pk", "state")
    )
    found = []
    for user_id, (index, match_id, game, updated_at) in latest.items():
        rules = engine.get_game(game)
        passing = rules.passes_in_a_row(rules.load(states[match_id]))
        if passing and passing[index] >= PASSES_IN_A_ROW:
            found.append(Passing(roster[user_id], game, passing[index], updated_at))
    return sorted(found, key=lambda p: (-p.in_a_row, str(p.student)))


class Answer(NamedTuple):
    """What the list needs of an attempt: ``wording`` reads it like one."""

    user_id: int
    skill: str
    game: str
    operands: list
    operator: str
    answer: int | None
    expected: int | None
    target: int | None
    correct: bool
    detail: dict
    created_at: datetime.datetime


def _decoded(answer: Answer) -> Answer:
    """The JSON columns as Python values: PostgreSQL's rows carry them as text, and only the
    few answers shown as evidence need them."""
    if isinstance(answer.operands, str) or isinstance(answer.detail, str):
        return answer._replace(
            operands=json.loads(answer.operands)
            if isinstance(answer.operands, str)
            else answer.operands,
            detail=json.loads(answer.detail) if isinstance(answer.detail, str) else answer.detail,
        )
    return answer


def _latest_answers(student_ids: list[int], since, until) -> list[Answer]:
    """Each student's latest ``RECENT_ANSWERS`` answers per skill in [since, until], newest first
    within a student and skill. The students' skills of the period come from the roll-ups; on
    PostgreSQL each pair's answers are then read off the (user, skill, -created_at) index, ten
    rows each (a window over every answer of the fortnight sorted some 30,000 rows a page view
    for a busy class); elsewhere a window function does it. Rows, not model
    instances: a busy class has a few thousand of them."""
    if not student_ids:
        return []
    # Only a student and skill with WRONG_IN_A_ROW wrong answers in the fortnight can be stuck
    # (MIN_ANSWERS answers under LOW_SHARE right hold as many): the roll-ups say which.
    pairs = sorted(
        SkillDay.objects.filter(
            student_id__in=student_ids,
            day__gte=since.date() - datetime.timedelta(days=1),  # days are the school's
        )
        .values_list("student_id", "skill")
        .annotate(wrong=Sum("attempts") - Sum("correct"))
        .filter(wrong__gte=WRONG_IN_A_ROW)
        .values_list("student_id", "skill")
        .order_by()
    )
    if not pairs:
        return []
    if connection.vendor == "postgresql":
        quote = connection.ops.quote_name
        columns = ", ".join(f"a.{quote(Attempt._meta.get_field(f).column)}" for f in Answer._fields)
        values = ", ".join(["(%s::bigint, %s::varchar)"] * len(pairs))
        sql = (
            f"SELECT {columns} FROM (VALUES {values}) AS p(user_id, skill)"
            f" CROSS JOIN LATERAL (SELECT * FROM {quote(Attempt._meta.db_table)} b"
            " WHERE b.user_id = p.user_id AND b.skill = p.skill"
            " AND b.created_at >= %s AND b.created_at <= %s"
            f" ORDER BY b.created_at DESC, b.id DESC LIMIT {RECENT_ANSWERS}) a"
            " ORDER BY a.user_id, a.skill, a.created_at DESC, a.id DESC"
        )
        params = [value for pair in pairs for value in pair] + [since, until]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [Answer(*row) for row in cursor.fetchall()]
    rows = (
        latest_per_skill(
            Attempt.objects.filter(
                user_id__in=student_ids, created_at__gte=since, created_at__lte=until
            )
        )
        .order_by("user_id", "skill", "newest")
        .values_list(*Answer._fields)
    )
    return [Answer(*row) for row in rows]
