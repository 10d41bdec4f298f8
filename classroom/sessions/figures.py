"""A session's running figures per student and skill (``SessionSkillFigures``), kept in the move's
transaction so the live monitor never re-reads a session's answers.

games.services asks the registered attempt writes (games.hooks) for a move's attempts;
``attempt_writes`` returns one upsert per student and skill, and one for all their answer-time
buckets (``SessionAnswerTimes``). The session is found by the statement itself (``INSERT ...
SELECT ... FROM the match's session table``): the hook may not query (it can run on the event
loop), and a match outside any session inserts nothing. "Wrong in a row" restarts at the move's
last right answer: a move with a right answer sets it to the wrong answers after that one, a move
without adds its wrong answers.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from django.db import connection, transaction

from classroom.models import SessionAnswerTimes, SessionSkillFigures, SessionTable
from classroom.progress.rollup import time_bucket
from classroom.upserts import adding_upsert, chunks
from games.models import Attempt

_COUNTED = ("attempts", "correct", "elapsed_ms_sum")


def _groups(attempts: Iterable[Attempt]) -> dict[tuple[int, str], dict]:
    """Per (student, skill), in the order answered: the sums and the trailing wrong answers."""
    groups: dict[tuple[int, str], dict] = {}
    for attempt in attempts:
        if attempt.user_id is None:  # a bot's
            continue
        group = groups.setdefault(
            (attempt.user_id, attempt.skill),
            {"attempts": 0, "correct": 0, "elapsed_ms_sum": 0, "wrong_tail": 0, "buckets": {}},
        )
        elapsed = max(0, int(attempt.elapsed_ms))
        group["attempts"] += 1
        group["elapsed_ms_sum"] += elapsed
        bucket = time_bucket(elapsed)
        group["buckets"][bucket] = group["buckets"].get(bucket, 0) + 1
        if attempt.correct:
            group["correct"] += 1
            group["wrong_tail"] = 0
        else:
            group["wrong_tail"] += 1
    return groups


def figures_statements(match_id: int, attempts: Iterable[Attempt]) -> list[tuple[str, list]]:
    """The upserts adding these attempts of one match to its session's figures, in key order
    (concurrent moves lock rows in one order and cannot deadlock)."""
    groups = sorted(_groups(attempts).items())
    vendor = connection.vendor  # once: each read goes through Django's connection proxy
    sql = _figures_sql(vendor)
    statements = [
        (sql, [student_id, skill, group["wrong_tail"], *(group[c] for c in _COUNTED), match_id])
        for (student_id, skill), group in groups
    ]
    buckets = [
        (student_id, skill, bucket, answers)
        for (student_id, skill), group in groups
        for bucket, answers in sorted(group["buckets"].items())
    ]
    return statements + _times_statements(vendor, match_id, buckets)


def _times_statements(vendor: str, match_id: int, buckets: list[tuple]) -> list[tuple[str, list]]:
    """The upserts adding ``buckets`` ((student, skill, bucket, answers), in key order) to the
    session's answer times: one statement for a move's, its rows a ``VALUES`` list joined to the
    match's session table (``columnN`` names a ``VALUES`` column on both databases). Each value is
    cast to its column's type: a ``VALUES`` list gives its values no type of their own, and a
    statement PostgreSQL cannot type cannot be prepared (games/async_db.py)."""
    return [
        (_times_sql(vendor, len(chunk)), [*(value for row in chunk for value in row), match_id])
        for chunk in chunks(buckets, 4, reserved=1)
    ]


@functools.lru_cache(maxsize=8)
def _figures_sql(vendor) -> str:
    """The upsert of one (student, skill)'s figures, written once a process. ``vendor`` only keys
    the cache: the quoting is the connection's."""
    quote = connection.ops.quote_name
    table = quote(SessionSkillFigures._meta.db_table)
    tables = quote(SessionTable._meta.db_table)
    columns = ["session_id", "student_id", "skill", "wrong_in_a_row", *_COUNTED]
    # A right answer in this move restarts the streak at the wrong answers after it.
    streak = (
        f"{quote('wrong_in_a_row')} = CASE WHEN excluded.{quote('correct')} > 0 "
        f"THEN excluded.{quote('wrong_in_a_row')} "
        f"ELSE {table}.{quote('wrong_in_a_row')} + excluded.{quote('wrong_in_a_row')} END"
    )
    return adding_upsert(
        SessionSkillFigures._meta.db_table,
        columns,
        f"SELECT {quote('session_id')}, {', '.join(['%s'] * (len(columns) - 1))} "
        f"FROM {tables} WHERE {quote('match_id')} = %s",
        ("session_id", "student_id", "skill"),
        _COUNTED,
        also=[streak],
    )


@functools.lru_cache(maxsize=64)
def _times_sql(vendor, rows: int) -> str:
    """The upsert of ``rows`` answer-time buckets (``_times_statements``), written once a process
    for each number of rows; ``vendor`` only keys the cache."""
    quote = connection.ops.quote_name
    tables = quote(SessionTable._meta.db_table)
    row = ", ".join(
        f"CAST(%s AS {SessionAnswerTimes._meta.get_field(name).cast_db_type(connection)})"
        for name in ("student", "skill", "bucket", "answers")
    )
    keys = ("session_id", "student_id", "skill", "bucket")
    return adding_upsert(
        SessionAnswerTimes._meta.db_table,
        (*keys, "answers"),
        f"SELECT {tables}.{quote('session_id')}, "
        "times.column1, times.column2, times.column3, times.column4 "
        f"FROM (VALUES {', '.join([f'({row})'] * rows)}) AS times, {tables} "
        f"WHERE {tables}.{quote('match_id')} = %s",
        keys,
        ("answers",),
    )


def attempt_writes(match, attempts) -> list[tuple[str, list]]:
    """The move's attempt writes (games.hooks, registered in classroom.apps)."""
    return figures_statements(match.pk, attempts)


def figures_add(match_id: int, attempts: Iterable[Attempt]) -> None:
    """Counts saved attempts of one match into its session's figures (rebuilds, tests)."""
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        for sql, params in figures_statements(match_id, attempts):
            cursor.execute(sql, params)


@transaction.atomic
def figures_rebuild(*, session_id: int) -> None:
    """Recomputes one session's figures from its attempts (after a bulk load, or to repair)."""
    SessionSkillFigures.objects.filter(session_id=session_id).delete()
    SessionAnswerTimes.objects.filter(session_id=session_id).delete()
    match_ids = SessionTable.objects.filter(session_id=session_id, match__isnull=False).values_list(
        "match_id", flat=True
    )
    for match_id in match_ids:
        figures_add(
            match_id,
            Attempt.objects.filter(match_id=match_id, user__isnull=False)
            .only("user_id", "skill", "correct", "elapsed_ms")
            .order_by("created_at", "id"),
        )
