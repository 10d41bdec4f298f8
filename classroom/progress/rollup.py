"""Keeping the analytics rollups (classroom/progress/models.py says why they exist).

games.services asks the registered attempt writes (games.hooks) while it writes a move's
attempts; ``attempt_writes`` returns one adding upsert per table (classroom/upserts.py) for the
move's transaction, so the figures commit or roll back with the move, and two processes adding
to the same row never lose a count. Rows are written in key order, so concurrent upserts cannot
deadlock.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User, zone_named
from classroom.progress.models import (
    MISTAKE_FIELDS,
    TIME_BUCKET_COUNT,
    TIME_BUCKET_EDGES_MS,
    AnswerTimesDay,
    AnswerTimesWeek,
    FactMissDay,
    FactMissWeek,
    SkillDay,
    SkillWeek,
)
from classroom.upserts import adding_upsert, chunks
from games.models import Attempt

# Commutative operators: 5+8 and 8+5 are one fact. A take-away is written larger first, as the
# games ask it ("the difference of 5 and 8"): 8-5 and 5-8 are one fact too.
_ORDER_FREE = {"+", "x", "-"}
MAX_FACT_LENGTH = 24
REBUILD_CHUNK = 5000


def time_bucket(elapsed_ms: int) -> int:
    for index, edge in enumerate(TIME_BUCKET_EDGES_MS):
        if elapsed_ms < edge:
            return index
    return len(TIME_BUCKET_EDGES_MS)


def fact_key(operands, operator: str) -> str:
    """The fact an attempt practised, e.g. "8+5"; "" when it is no single fact (an equation of
    three numbers, a mixed expression, a placement that matched no line)."""
    if operator not in {"+", "-", "x", "÷"} or not isinstance(operands, list) or len(operands) != 2:
        return ""
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in operands):
        return ""
    numbers = sorted(operands, reverse=True) if operator in _ORDER_FREE else operands
    key = f"{numbers[0]}{operator}{numbers[1]}"
    return key if len(key) <= MAX_FACT_LENGTH else ""


def week_start(day: datetime.date) -> datetime.date:
    return day - datetime.timedelta(days=day.weekday())


@dataclass
class _SkillCell:
    operation: str
    attempts: int = 0
    correct: int = 0
    elapsed_ms_sum: int = 0
    mistakes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MISTAKE_FIELDS, 0))
    histogram: list[int] = field(default_factory=lambda: [0] * TIME_BUCKET_COUNT)

    def values(self) -> tuple:
        return (
            self.operation,
            self.attempts,
            self.correct,
            self.elapsed_ms_sum,
            *self.mistakes.values(),
        )

    def buckets(self):
        """(bucket, answers) of the buckets that have answers."""
        return [(bucket, n) for bucket, n in enumerate(self.histogram) if n]

    def add(self, other: _SkillCell) -> None:
        self.attempts += other.attempts
        self.correct += other.correct
        self.elapsed_ms_sum += other.elapsed_ms_sum
        for kind, count in other.mistakes.items():
            self.mistakes[kind] += count
        for index, count in enumerate(other.histogram):
            self.histogram[index] += count


def _zones(attempts: list[Attempt]) -> dict[int, datetime.tzinfo]:
    """Each student's time zone (accounts.User.time_zone): a day is counted in the school's.
    A move's attempts carry it from the move's own query (games.services, ``student_time_zone``:
    this runs on the event loop there, where no query may be made); others are looked up."""
    names = {
        attempt.user_id: attempt.student_time_zone
        for attempt in attempts
        if attempt.user_id is not None and hasattr(attempt, "student_time_zone")
    }
    unknown = {a.user_id for a in attempts if a.user_id is not None and a.user_id not in names}
    if unknown:
        names.update(User.objects.filter(pk__in=unknown).values_list("pk", "time_zone"))
    return {pk: zone_named(name) for pk, name in names.items()}


def _cells(attempts: Iterable[Attempt]):
    attempts = list(attempts)
    zones = _zones(attempts)
    skills: dict[tuple, _SkillCell] = {}
    misses: dict[tuple, list] = {}
    for attempt in attempts:
        if attempt.user_id is None:  # a bot's
            continue
        day = timezone.localdate(attempt.created_at, zones.get(attempt.user_id))
        key = (attempt.user_id, day, attempt.skill)
        cell = skills.get(key)
        if cell is None:
            cell = skills[key] = _SkillCell(operation=attempt.operation)
        elapsed = max(0, int(attempt.elapsed_ms))
        cell.attempts += 1
        cell.elapsed_ms_sum += elapsed
        cell.histogram[time_bucket(elapsed)] += 1
        if attempt.correct:
            cell.correct += 1
            continue
        mistake = attempt.mistake if attempt.mistake in MISTAKE_FIELDS else "other"
        cell.mistakes[mistake] += 1
        fact = fact_key(attempt.operands, attempt.operator)
        if fact:
            miss = misses.setdefault((attempt.user_id, day, fact), [attempt.operation, 0])
            miss[1] += 1
    return skills, misses


_SKILL_VALUES = ("attempts", "correct", "elapsed_ms_sum", *MISTAKE_FIELDS.values())


def _upserts(vendor, model, key_columns, columns, sums, rows) -> list[tuple[str, list]]:
    """The statements adding ``rows`` (tuples in ``columns`` order) to ``model``'s rows, as many
    rows a statement as its parameters allow. Only the sums that some row of a statement adds to
    are written: the others are 0 by the database's default (a wrong answer touches one of the
    dozen slip counts). ``vendor`` is the connection's, read once by the caller: each read goes
    through Django's connection proxy, a few microseconds on a move's path."""
    summed = set(sums)
    statements = []
    for chunk in chunks(rows, len(columns)):
        kept = [
            index
            for index, column in enumerate(columns)
            if column not in summed or any(row[index] for row in chunk)
        ]
        sql = _upsert_sql(
            vendor,
            model._meta.db_table,
            tuple(key_columns),
            tuple(columns[i] for i in kept),
            tuple(sums),
            len(chunk),
        )
        statements.append((sql, [row[i] for row in chunk for i in kept]))
    return statements


@functools.lru_cache(maxsize=512)
def _upsert_sql(vendor, table_name, key_columns, names, sums, rows) -> str:
    """The text of one upsert of ``rows`` rows. ``vendor`` only keys the cache: the quoting is the
    connection's."""
    placeholder = "(" + ", ".join(["%s"] * len(names)) + ")"
    return adding_upsert(
        table_name,
        names,
        f"VALUES {', '.join([placeholder] * rows)}",
        key_columns,
        [c for c in names if c in sums],
    )


def rollup_add(attempts: Iterable[Attempt]) -> None:
    """Counts saved attempts into the rollups (bots' attempts are left out)."""
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        for sql, params in rollup_statements(attempts):
            cursor.execute(sql, params)


def rollup_statements(attempts: Iterable[Attempt]) -> list[tuple[str, list]]:
    """The upserts that count these attempts into the rollups, in key order: concurrent
    transactions lock rows in one order and cannot deadlock."""
    skill_days, miss_days = _cells(attempts)
    skill_weeks: dict[tuple, _SkillCell] = {}
    for (student_id, day, skill), cell in skill_days.items():
        key = (student_id, week_start(day), skill)
        if key not in skill_weeks:
            skill_weeks[key] = _SkillCell(operation=cell.operation)
        skill_weeks[key].add(cell)
    miss_weeks: dict[tuple, list] = {}
    for (student_id, day, fact), (operation, count) in miss_days.items():
        miss = miss_weeks.setdefault((student_id, week_start(day), fact), [operation, 0])
        miss[1] += count
    vendor = connection.vendor
    return [
        *_upserts(
            vendor,
            SkillDay,
            ("student_id", "day", "skill"),
            ("student_id", "day", "skill", "week", "operation", *_SKILL_VALUES),
            _SKILL_VALUES,
            [
                (student_id, day, skill, week_start(day), *cell.values())
                for (student_id, day, skill), cell in sorted(skill_days.items())
            ],
        ),
        *_upserts(
            vendor,
            SkillWeek,
            ("student_id", "week", "skill"),
            ("student_id", "week", "skill", "operation", *_SKILL_VALUES),
            _SKILL_VALUES,
            [(*key, *cell.values()) for key, cell in sorted(skill_weeks.items())],
        ),
        *_upserts(
            vendor,
            AnswerTimesDay,
            ("student_id", "day", "skill", "bucket"),
            ("student_id", "day", "skill", "bucket", "week", "operation", "answers"),
            ("answers",),
            [
                (student_id, day, skill, bucket, week_start(day), cell.operation, answers)
                for (student_id, day, skill), cell in sorted(skill_days.items())
                for bucket, answers in cell.buckets()
            ],
        ),
        *_upserts(
            vendor,
            AnswerTimesWeek,
            ("student_id", "week", "skill", "bucket"),
            ("student_id", "week", "skill", "bucket", "operation", "answers"),
            ("answers",),
            [
                (*key, bucket, cell.operation, answers)
                for key, cell in sorted(skill_weeks.items())
                for bucket, answers in cell.buckets()
            ],
        ),
        *_upserts(
            vendor,
            FactMissDay,
            ("student_id", "day", "fact"),
            ("student_id", "day", "fact", "week", "operation", "misses"),
            ("misses",),
            [
                (student_id, day, fact, week_start(day), operation, count)
                for (student_id, day, fact), (operation, count) in sorted(miss_days.items())
            ],
        ),
        *_upserts(
            vendor,
            FactMissWeek,
            ("student_id", "week", "fact"),
            ("student_id", "week", "fact", "operation", "misses"),
            ("misses",),
            [(*key, operation, count) for key, (operation, count) in sorted(miss_weeks.items())],
        ),
    ]


def attempt_writes(match, attempts) -> list[tuple[str, list]]:
    """The move's attempt writes (games.hooks, registered in classroom.apps): the move's
    transaction runs these upserts after its own rows."""
    return rollup_statements(attempts)


@transaction.atomic
def rollups_rebuild(*, student_ids: Iterable[int]) -> None:
    """Recomputes these students' rollups from their attempts: after a bulk load (bench_progress)
    or to repair them. Streams the attempts in chunks through the same path as live play."""
    student_ids = list(student_ids)
    for model in (SkillDay, SkillWeek, AnswerTimesDay, AnswerTimesWeek, FactMissDay, FactMissWeek):
        model.objects.filter(student_id__in=student_ids).delete()
    rows = (
        Attempt.objects.filter(user_id__in=student_ids)
        .only(
            "user_id",
            "created_at",
            "skill",
            "operation",
            "operator",
            "operands",
            "correct",
            "elapsed_ms",
            "mistake",
        )
        .order_by()
        .iterator(chunk_size=REBUILD_CHUNK)
    )
    chunk = []
    for attempt in rows:
        chunk.append(attempt)
        if len(chunk) >= REBUILD_CHUNK:
            rollup_add(chunk)
            chunk = []
    rollup_add(chunk)
