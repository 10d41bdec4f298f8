"""The rollup writes as they were while answer times were a column per bucket (classroom 0007 to
0018; 0019 made them rows): the migrations of that time count the attempts again with these, at
their own schema, so a database migrated from before 0019 meets the tables it has. The loader
skips this module (its name starts with "_"); it uses the migration's models, never the live ones.
"""

from __future__ import annotations

import datetime
import zoneinfo

from django.conf import settings
from django.db import connection
from django.utils import timezone

# The kinds of slips of 0018's columns (Attempt.mistake -> column).
MISTAKE_COLUMNS_0018 = {
    "wrong_operation": "wrong_operation",
    "regrouping": "regrouping",
    "table_neighbour": "table_neighbour",
    "table_related": "table_related",
    "operand_misread": "operand_misread",
    "reversed_digits": "reversed_digits",
    "off_by_one": "off_by_one",
    "off_by_two": "off_by_two",
    "off_by_ten": "off_by_ten",
    "operand_intrusion": "operand_intrusion",
    "far_off": "far_off",
    "other": "other_mistake",
}
# The kinds of slips of 0007's columns: later kinds count as "other" until 0018.
KINDS_0007 = (
    "wrong_operation",
    "regrouping",
    "table_neighbour",
    "operand_misread",
    "reversed_digits",
    "off_by_one",
    "off_by_ten",
    "other",
)
_ORDER_FREE = {"+", "x", "-"}
_ROWS_PER_STATEMENT = 5


def _edges() -> tuple[int, ...]:
    edges = list(range(50, 4000, 100))
    while edges[-1] < 120_000:
        edges.append(min(edges[-1] * 105 // 1000 * 10, 120_000))
    return tuple(edges)


TIME_BUCKET_EDGES_MS = _edges()
TIME_BUCKET_FIELDS = tuple(f"t{i:02d}" for i in range(len(TIME_BUCKET_EDGES_MS) + 1))


def time_bucket(elapsed_ms: int) -> int:
    for index, edge in enumerate(TIME_BUCKET_EDGES_MS):
        if elapsed_ms < edge:
            return index
    return len(TIME_BUCKET_EDGES_MS)


def _fact_key(operands, operator: str) -> str:
    if operator not in {"+", "-", "x", "÷"} or not isinstance(operands, list) or len(operands) != 2:
        return ""
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in operands):
        return ""
    numbers = sorted(operands, reverse=True) if operator in _ORDER_FREE else operands
    key = f"{numbers[0]}{operator}{numbers[1]}"
    return key if len(key) <= 24 else ""


def _week_start(day: datetime.date) -> datetime.date:
    return day - datetime.timedelta(days=day.weekday())


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def _upsert(cursor, table: str, keys: tuple, rows: dict[tuple, dict]) -> None:
    """Adds ``rows`` (key -> {column: value}; the key's columns and "week"/"operation" set once,
    the others summed) to ``table``."""
    quote = connection.ops.quote_name
    fixed = {*keys, "week", "operation"}
    items = sorted(rows.items())
    for start in range(0, len(items), _ROWS_PER_STATEMENT):
        chunk = items[start : start + _ROWS_PER_STATEMENT]
        columns = sorted({c for _key, values in chunk for c in values})
        updates = ", ".join(
            f"{quote(c)} = {quote(table)}.{quote(c)} + excluded.{quote(c)}"
            for c in columns
            if c not in fixed
        )
        placeholder = "(" + ", ".join(["%s"] * len(columns)) + ")"
        cursor.execute(
            f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in columns)}) "
            f"VALUES {', '.join([placeholder] * len(chunk))} "
            f"ON CONFLICT ({', '.join(quote(k) for k in keys)}) DO UPDATE SET {updates}",
            [values.get(c, 0) for _key, values in chunk for c in columns],
        )


def rollups_rebuild(apps, *, kinds=tuple(MISTAKE_COLUMNS_0018), student_ids=None) -> None:
    """Counts the students' attempts (all students' when None) into the rollups again, days in
    each student's time zone; a slip of a kind not in ``kinds`` counts as "other"."""
    Attempt = apps.get_model("games", "Attempt")
    User = apps.get_model("accounts", "User")
    tables = {
        name: apps.get_model("classroom", name)._meta.db_table
        for name in ("SkillDay", "SkillWeek", "FactMissDay", "FactMissWeek")
    }
    attempts = Attempt.objects.filter(user__isnull=False)
    if student_ids is not None:
        attempts = attempts.filter(user_id__in=student_ids)
    students = sorted(set(attempts.values_list("user_id", flat=True)))
    zones = {pk: _zone(name) for pk, name in User.objects.filter(pk__in=students).values_list(
        "pk", "time_zone"
    )}  # fmt: skip
    skill_days: dict[tuple, dict] = {}
    skill_weeks: dict[tuple, dict] = {}
    miss_days: dict[tuple, dict] = {}
    miss_weeks: dict[tuple, dict] = {}
    fields = ("user_id", "created_at", "skill", "operation", "operator", "operands", "correct",
              "elapsed_ms", "mistake")  # fmt: skip
    for values in attempts.order_by().values_list(*fields).iterator(chunk_size=5000):
        user_id, created_at, skill, operation, operator, operands, correct, elapsed, mistake = values
        day = timezone.localdate(created_at, zones.get(user_id))
        week = _week_start(day)
        elapsed = max(0, int(elapsed))
        added = {"attempts": 1, "elapsed_ms_sum": elapsed, TIME_BUCKET_FIELDS[time_bucket(elapsed)]: 1}
        if correct:
            added["correct"] = 1
        else:
            kind = mistake if mistake in kinds else "other"
            added[MISTAKE_COLUMNS_0018.get(kind, "other_mistake")] = 1
            fact = _fact_key(operands, operator)
            if fact:
                for cells, key in ((miss_days, (user_id, day, fact)), (miss_weeks, (user_id, week, fact))):
                    cell = cells.setdefault(key, {"week": week, "operation": operation, "misses": 0})
                    cell["misses"] += 1
        for cells, key in ((skill_days, (user_id, day, skill)), (skill_weeks, (user_id, week, skill))):
            cell = cells.setdefault(key, {"week": week, "operation": operation})
            for column, n in added.items():
                cell[column] = cell.get(column, 0) + n
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for table in tables.values():
            ids = ", ".join(["%s"] * len(students))
            if students:
                cursor.execute(f"DELETE FROM {quote(table)} WHERE student_id IN ({ids})", students)
        for table, keys, cells in (
            (tables["SkillDay"], ("student_id", "day", "skill"), skill_days),
            (tables["SkillWeek"], ("student_id", "week", "skill"), skill_weeks),
            (tables["FactMissDay"], ("student_id", "day", "fact"), miss_days),
            (tables["FactMissWeek"], ("student_id", "week", "fact"), miss_weeks),
        ):
            rows = {key: {**cell, **dict(zip(keys, key, strict=True))} for key, cell in cells.items()}
            _upsert(cursor, table, keys, rows)


def figures_rebuild(apps, *, session_id: int) -> None:
    """Counts one session's answers into its figures again (classroom.sessions.figures)."""
    SessionTable = apps.get_model("classroom", "SessionTable")
    Attempt = apps.get_model("games", "Attempt")
    Figures = apps.get_model("classroom", "SessionSkillFigures")
    Figures.objects.filter(session_id=session_id).delete()
    for match_id in SessionTable.objects.filter(
        session_id=session_id, match__isnull=False
    ).values_list("match_id", flat=True):
        cells = {}
        for user_id, skill, correct, elapsed_ms in (
            Attempt.objects.filter(match_id=match_id, user__isnull=False)
            .order_by("created_at", "id")
            .values_list("user_id", "skill", "correct", "elapsed_ms")
        ):
            cell = cells.get((user_id, skill))
            if cell is None:
                cell = cells[(user_id, skill)] = Figures(
                    session_id=session_id, student_id=user_id, skill=skill
                )
            elapsed = max(0, int(elapsed_ms))
            cell.attempts += 1
            cell.elapsed_ms_sum += elapsed
            bucket = TIME_BUCKET_FIELDS[time_bucket(elapsed)]
            setattr(cell, bucket, getattr(cell, bucket) + 1)
            if correct:
                cell.correct += 1
                cell.wrong_in_a_row = 0
            else:
                cell.wrong_in_a_row += 1
        for cell in cells.values():
            # One session's tables are different matches: a student's skill may recur.
            existing = Figures.objects.filter(
                session_id=session_id, student_id=cell.student_id, skill=cell.skill
            ).first()
            if existing is None:
                cell.save()
                continue
            for name in ("attempts", "correct", "elapsed_ms_sum", *TIME_BUCKET_FIELDS):
                setattr(existing, name, getattr(existing, name) + getattr(cell, name))
            existing.wrong_in_a_row = (
                cell.wrong_in_a_row if cell.correct else existing.wrong_in_a_row + cell.wrong_in_a_row
            )
            existing.save()
