"""The live monitor: everything the teacher's session page, the projector and the monitor socket
show, as one JSON-safe snapshot (``session_monitor``).

A snapshot takes a fixed number of queries whatever the class size (the session's presences, its
tables with their places and matches, the bots' seats, its running figures per student and skill,
the last move of each seat in real-time games, the states of the tables that moved). The figures
are kept as answers are written (classroom.sessions.figures), so a snapshot costs the same at the
end of a long lesson as at its start: medians come from answer-time histograms, within the
analytics' stated bound. The tables' rows are classroom.sessions.selectors.tables', the standings
classroom.sessions.selectors.standings'.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import NamedTuple

from django.db import connection
from django.utils import timezone

import classroom.sessions.selectors.standings as standings
from accounts.models import PublicName, TimeAllowance
from accounts.public_names import name_others_see, told_apart
from classroom.accommodations import badges as accommodation_badges
from classroom.models import (
    ClassSession,
    SessionAnswerTimes,
    SessionPlace,
    SessionSkillFigures,
    SessionTable,
)
from classroom.progress.figures import median_from_histogram
from classroom.progress.models import TIME_BUCKET_COUNT
from classroom.progress.numbers import judged_percent, percent, tenths_of_a_second, too_few
from classroom.progress.wording import skill_label
from classroom.sessions.selectors.lists import session_title
from classroom.sessions.selectors.tables import STALL_SECONDS, table_rows
from games.models import Seat

# "Needs help" (the issue: low accuracy, long stalls, repeated errors on one skill).
LOW_ACCURACY = 0.6
LOW_ACCURACY_MIN_ATTEMPTS = 5
WRONG_IN_A_ROW = 3
# A pass is no wrong answer, but a child who passes (or lets the time run out) card after card is
# as stuck as one who slips: the same three in a row (docs/progress.md, "Passes").
PASSES_IN_A_ROW = 3


def session_monitor(
    *, session: ClassSession, now: datetime | None = None, detailed: set[int] | None = None
) -> dict:
    """Everything the teacher's live displays show, JSON-safe: who is present, the tables (who
    sits where, each match's status and scores), each student's figures by skill with their
    "needs help" flags, and a leaderboard. With ``detailed`` (student ids) only those students
    get their medians and figures by skill (the page's parts for the tables that moved): the
    others keep what the flags, the counts and the leaderboard need."""
    now = now or timezone.now()
    room = _read_room(session)
    figures = _figures_by_student(session, detailed) if room.has_matches else {}
    tables = table_rows(session, room.tables, room.seated, room.bot_seats, now)
    public_names = _public_names(session, room)
    students = _student_rows(room, figures, tables, public_names, detailed)
    _mark_needs_help(tables, students)
    return _snapshot(session, room, tables, students, public_names, detailed)


class _Room(NamedTuple):
    """Who is in the session and where, as ``_read_room`` reads it."""

    presences: list[tuple]  # (student id, ...) in the order they joined
    tables: list[SessionTable]  # with their matches, in table order
    seated: dict[int, dict[int, tuple[int, str]]]  # table id -> seat -> (student id, name)
    where: dict[int, tuple[int, int]]  # student id -> (table number, seat)
    names: dict[int, str]  # student id -> name, the present and the seated
    needs: dict[int, _Needs]  # student id -> what the teacher set for them
    bot_seats: dict[int, dict[int, str]]  # match id -> seat -> the bot's name

    @property
    def has_matches(self) -> bool:
        return any(table.match_id for table in self.tables)


def _read_room(session: ClassSession) -> _Room:
    """The session's presences, tables, places and bots, in four queries. Plain rows, not model
    instances: building thousands of those would be most of a snapshot's work."""
    presences = list(
        session.presences.order_by("joined_at", "id").values_list(
            "student_id", "student__display_name", "student__username", *_NEEDS
        )
    )
    tables = list(
        SessionTable.objects.filter(session=session)
        .select_related("match")
        .defer("match__state", "match__bot_plan")  # read only for the tables that moved
        .order_by("number")
    )
    seated: dict[int, dict[int, tuple[int, str]]] = defaultdict(dict)
    where: dict[int, tuple[int, int]] = {}
    names: dict[int, str] = {}
    # What the teacher set for each child (accounts.Accommodations), read with the names.
    needs: dict[int, _Needs] = {}
    for student_id, display_name, username, *set_for in presences:
        names[student_id] = display_name or username
        needs[student_id] = _Needs.of(set_for)
    numbers = {table.pk: table.number for table in tables}
    for table_id, seat, student_id, display_name, username, *set_for in SessionPlace.objects.filter(
        table__session=session
    ).values_list(
        "table_id", "seat", "student_id", "student__display_name", "student__username", *_NEEDS
    ):
        name = names.setdefault(student_id, display_name or username)
        needs.setdefault(student_id, _Needs.of(set_for))
        seated[table_id][seat] = (student_id, name)
        where[student_id] = (numbers[table_id], seat)
    # The bots' names, as each match was made (numbered across the room). Unordered: a seat's
    # default order joins its match's row, which on SQLite means reading past the match's state.
    bot_seats: dict[int, dict[int, str]] = {t.match_id: {} for t in tables if t.match_id}
    for match_id, index, bot in (
        Seat.objects.filter(match_id__in=list(bot_seats))
        .exclude(bot_level="")
        .order_by()
        .values_list("match_id", "index", "name")
    ):
        bot_seats[match_id][index] = bot
    return _Room(presences, tables, seated, where, names, needs, bot_seats)


def _public_names(session: ClassSession, room: _Room) -> dict[int, str | None]:
    """The names the class may see, by the teacher's choice for the room and each child's own
    (None: not shown)."""
    return told_apart(
        {
            student_id: name_others_see(
                name, room.needs[student_id].public_name, session.projector_names
            )
            for student_id, name in room.names.items()
        },
        room.names,
    )


def _student_rows(
    room: _Room,
    figures: dict[int, dict[str, SkillFigures]],
    tables: list[dict],
    public_names: dict[int, str | None],
    detailed: set[int] | None,
) -> list[dict]:
    """A row for each student present or seated, by name: their counts and "needs help" flags,
    and for the ``detailed`` ones (all when None) their medians and figures by skill."""
    seats = [seat for row in tables for seat in row["seats"] if seat["student_id"] is not None]
    waiting_since = {seat["student_id"]: seat["waiting_seconds"] for seat in seats}
    passing_of = {seat["student_id"]: seat["passes_in_a_row"] for seat in seats}
    students = []
    for student_id, name in sorted(room.names.items(), key=lambda item: (item[1].lower(), item[0])):
        per_skill = figures.get(student_id, {})
        attempts = sum(f.attempts for f in per_skill.values())
        correct = sum(f.correct for f in per_skill.values())
        table, seat = room.where.get(student_id, (None, None))
        row = {
            "id": student_id,
            "name": name,
            "table": table,
            "seat": seat,
            "attempts": attempts,
            "correct": correct,
            "needs_help": _needs_help(
                per_skill,
                attempts,
                correct,
                waiting_since.get(student_id),
                passing_of.get(student_id, 0),
            ),
            # The teacher's figures are read knowing what the child was given (never shown to
            # children); the projector shows the name the class may see (None: not shown).
            "accommodations": room.needs[student_id].badges(),
            "public_name": public_names[student_id],
        }
        if detailed is None or student_id in detailed:
            row.update(_details(per_skill, attempts, correct))
        students.append(row)
    return students


def _needs_help(
    per_skill: dict[str, SkillFigures], attempts: int, correct: int, stalled, passes: int
) -> list[dict]:
    """Why a student needs help, if they do: low accuracy, a stall (``stalled``: seconds free to
    act without acting), passing card after card, or wrong answers in a row on one skill."""
    flags = []
    accuracy = _accuracy(correct, attempts)
    if attempts >= LOW_ACCURACY_MIN_ATTEMPTS and accuracy < LOW_ACCURACY:
        flags.append(
            {"reason": "low_accuracy", "accuracy": accuracy, "percent": percent(correct, attempts)}
        )
    if stalled is not None and stalled > STALL_SECONDS:
        flags.append({"reason": "stall", "seconds": stalled})
    if passes >= PASSES_IN_A_ROW:
        flags.append({"reason": "passing", "in_a_row": passes})
    for skill in sorted(per_skill):
        if per_skill[skill].wrong_in_a_row >= WRONG_IN_A_ROW:
            flags.append(
                {
                    "reason": "repeated_errors",
                    "skill": skill,
                    "skill_label": skill_label(skill),
                    "wrong_in_a_row": per_skill[skill].wrong_in_a_row,
                }
            )
    return flags


def _details(per_skill: dict[str, SkillFigures], attempts: int, correct: int) -> dict:
    """A student's accuracy and median over all their answers, and their figures by skill."""
    if len(per_skill) == 1:
        median_ms = next(iter(per_skill.values())).median_ms
    else:
        histogram = [sum(n) for n in zip(*(f.histogram for f in per_skill.values()), strict=True)]
        elapsed_ms_sum = sum(f.elapsed_ms_sum for f in per_skill.values())
        median_ms = _median_ms(histogram, elapsed_ms_sum) if attempts else None
    return {
        "accuracy": _accuracy(correct, attempts),
        "accuracy_percent": judged_percent(correct, attempts),
        "too_few": too_few(attempts),
        "median_ms": median_ms,
        "median_seconds": _seconds(median_ms),
        "skills": [
            {
                "skill": f.skill,
                "label": skill_label(f.skill),
                "attempts": f.attempts,
                "correct": f.correct,
                "accuracy": _accuracy(f.correct, f.attempts),
                "accuracy_percent": judged_percent(f.correct, f.attempts),
                "too_few": too_few(f.attempts),
                "median_ms": f.median_ms,
                "median_seconds": _seconds(f.median_ms),
                "wrong_in_a_row": f.wrong_in_a_row,
            }
            for f in sorted(per_skill.values(), key=lambda f: f.skill)
        ],
    }


def _mark_needs_help(tables: list[dict], students: list[dict]) -> None:
    """Who needs help at each table, for the teacher's glance at the tables (never the class's:
    ``standings.public_tables`` leaves it out)."""
    by_number = {}
    for row in tables:
        row["needs_help"] = []
        by_number[row["number"]] = row
    for student in students:
        if student["needs_help"] and student["table"] in by_number:
            by_number[student["table"]]["needs_help"].append(student["name"])


def _snapshot(
    session: ClassSession,
    room: _Room,
    tables: list[dict],
    students: list[dict],
    public_names: dict[int, str | None],
    detailed: set[int] | None,
) -> dict:
    """The snapshot of the parts: the page's parts (``detailed``) show neither the standings nor
    the summary."""
    leaderboard = standings.leaderboard(students, tables) if detailed is None else []
    return {
        "session": {
            "id": session.pk,
            "status": session.status,
            "game": session.game,
            "variant": session.variant,
            "title": session_title(session),
            "table_size": session.table_size,
            "paused": session.paused_at is not None
            and session.status == ClassSession.Status.PLAYING,
            "projector_names": session.projector_names,
            "projector_top": session.projector_top,
        },
        "present": [
            {
                "id": student_id,
                "name": room.names[student_id],
                "public_name": public_names[student_id],
                "seated": student_id in room.where,
            }
            for student_id, *_rest in room.presences
        ],
        "tables": tables,
        "table_states": {
            state: sum(1 for row in tables if row["state"] == state)
            for state in ("playing", "stuck", "finished", "stopped")
        },
        "students": students,
        "needs_help": [s["id"] for s in students if s["needs_help"]],
        "leaderboard": leaderboard,
        # What the class sees on the projector: each child by the name set for them there, a
        # child "not shown" left out (their answers still count in the summary's totals).
        "public_leaderboard": standings.public_leaderboard(
            leaderboard, public_names, top=session.projector_top
        ),
        # Every child's points together (the children not shown on the projector included, the
        # bots not): the class's score, shown large.
        "class_total": sum(row["points"] for row in leaderboard),
        "public_tables": standings.public_tables(tables, public_names) if detailed is None else [],
        "summary": standings.summary(session, students, tables) if detailed is None else {},
        "teams": standings.teams(session.team_mode, tables) if detailed is None else None,
    }


# --- a student's running figures by skill -------------------------------------------------------


@dataclass
class SkillFigures:
    skill: str
    attempts: int
    correct: int
    wrong_in_a_row: int
    elapsed_ms_sum: int
    histogram: list[int]

    @cached_property
    def median_ms(self) -> int | None:
        return _median_ms(self.histogram, self.elapsed_ms_sum)


def _accuracy(correct: int, attempts: int) -> float | None:
    return round(correct / attempts, 3) if attempts else None


def _figures_by_student(
    session: ClassSession, detailed: set[int] | None
) -> dict[int, dict[str, SkillFigures]]:
    """Each student's running figures by skill, in one query: the figures rows, each joined to
    its answer-time buckets (``SessionAnswerTimes``), those only for the ``detailed`` students
    (all when None), the others' medians not being shown."""
    quote = connection.ops.quote_name
    figures_table = quote(SessionSkillFigures._meta.db_table)
    times_table = quote(SessionAnswerTimes._meta.db_table)
    counts = ("student_id", "skill", "attempts", "correct", "wrong_in_a_row", "elapsed_ms_sum")
    joined = " AND ".join(
        f"{times_table}.{quote(c)} = {figures_table}.{quote(c)}"
        for c in ("session_id", "student_id", "skill")
    )
    params: list = []
    if detailed is not None:
        ids = sorted(detailed)
        joined += (
            f" AND {times_table}.{quote('student_id')} IN ({', '.join(['%s'] * len(ids))})"
            if ids
            else " AND 1 = 0"
        )
        params += ids
    sql = (
        f"SELECT {', '.join(f'{figures_table}.{quote(c)}' for c in counts)}, "
        f"{times_table}.{quote('bucket')}, {times_table}.{quote('answers')} "
        f"FROM {figures_table} LEFT JOIN {times_table} ON {joined} "
        f"WHERE {figures_table}.{quote('session_id')} = %s"
    )
    figures: dict[int, dict[str, SkillFigures]] = defaultdict(dict)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, session.pk])
        for row in cursor.fetchall():
            student_id, skill, attempts, correct, wrong_in_a_row, elapsed_ms_sum, bucket, n = row
            found = figures[student_id].get(skill)
            if found is None:
                found = figures[student_id][skill] = SkillFigures(
                    skill,
                    attempts,
                    correct,
                    wrong_in_a_row,
                    elapsed_ms_sum,
                    [0] * TIME_BUCKET_COUNT,
                )
            if bucket is not None:
                found.histogram[bucket] = n
    return figures


def _median_ms(histogram: list[int], elapsed_ms_sum: int) -> int | None:
    median = median_from_histogram(histogram, elapsed_ms_sum)
    return None if median is None else median.ms


def _seconds(ms: int | None) -> float | None:
    """Tenths, halves up, as on the progress pages (``round`` made 2.25 s 2.2 s)."""
    return None if ms is None else tenths_of_a_second(ms)


# --- what the teacher set for each child --------------------------------------------------------


_NEEDS = tuple(
    f"student__accommodations__{name}"
    for name in ("time", "calm_table", "public_name", "read_aloud", "dots")
)


class _Needs(NamedTuple):
    """A child's accommodations as read with their name (defaults where none are set)."""

    time: str = TimeAllowance.STANDARD
    calm_table: bool = False
    public_name: str = PublicName.FULL
    read_aloud: bool = False
    dots: bool = False

    @classmethod
    def of(cls, values) -> _Needs:
        if values[0] is None:  # nothing set: no row
            return _NO_NEEDS
        return cls(*values)

    def badges(self) -> list[str]:
        return [] if self == _NO_NEEDS else accommodation_badges(self)


_NO_NEEDS = _Needs()
