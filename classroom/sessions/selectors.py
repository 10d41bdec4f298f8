"""Reads of class sessions: the teacher's lists, the students' open sessions and the live monitor.

``session_monitor`` is what the teacher's session page, the projector and the monitor socket show.
It reads a fixed number of queries whatever the class size (the session, its presences, its tables
with their places and matches, its running figures per student and skill, the last move of each
seat in real-time games). The figures are kept as answers are written
(classroom.sessions.figures), so a change costs the same at the end of a long lesson as at its
start: medians come from answer-time histograms, within the analytics' stated bound.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from accounts.models import PublicName, TimeAllowance
from accounts.public_names import name_others_see, told_apart
from classroom.accommodations import badges as accommodation_badges
from classroom.bots import bot_name
from classroom.models import (
    ClassSession,
    SessionAnswerTimes,
    SessionPlace,
    SessionPresence,
    SessionSkillFigures,
    SessionTable,
    TeamMode,
)
from classroom.progress.models import TIME_BUCKET_COUNT
from classroom.progress.numbers import judged_percent, percent, tenths_of_a_second, too_few
from classroom.progress.selectors import median_from_histogram
from classroom.progress.wording import skill_label
from engine.core import Outcome
from engine.core import places as places_of
from games import catalog
from games.models import Match, MoveRecord, Seat

User = get_user_model()

# "Needs help" (the issue: low accuracy, long stalls, repeated errors on one skill).
LOW_ACCURACY = 0.6
LOW_ACCURACY_MIN_ATTEMPTS = 5
STALL_SECONDS = 60
WRONG_IN_A_ROW = 3
# A pass is no wrong answer, but a child who passes (or lets the time run out) card after card is
# as stuck as one who slips: the same three in a row (docs/progress.md, "Passes").
PASSES_IN_A_ROW = 3


def game_and_variant_title(game: str, variant: str, *, child: bool = False) -> str:
    """ "¡Mía! · Canada 47 (…)"; for a child "¡Mía! · Race to the target" (games.catalog)."""
    return catalog.game_and_variant_title(game, variant, child=child)


def session_title(session: ClassSession, *, child: bool = False) -> str:
    return game_and_variant_title(session.game, session.variant, child=child)


# --- lists ---------------------------------------------------------------------------------------


def classroom_sessions(*, classroom, limit: int = 50):
    """A class's sessions, newest first, with how many students came and how many tables."""
    return list(
        ClassSession.objects.filter(classroom=classroom)
        .annotate(
            present_count=Count("presences", distinct=True),
            table_count=Count("tables", distinct=True),
        )
        .order_by("-created_at", "-id")[:limit]
    )


def teacher_session(*, teacher, session_id) -> ClassSession | None:
    """The session if it belongs to one of the teacher's classes (else None: a 404)."""
    return (
        ClassSession.objects.select_related("classroom")
        .filter(pk=session_id, classroom__teacher=teacher)
        .first()
    )


def student_session(*, student, session_id) -> ClassSession | None:
    """The session if the student's class runs it (else None: a 404)."""
    return (
        ClassSession.objects.select_related("classroom")
        .filter(pk=session_id, classroom__enrollments__student=student)
        .first()
    )


def student_open_sessions(*, student) -> list[dict]:
    """The sessions of the student's classes that are open (lobby or playing), as their home page
    and their socket show them: joined or not, and their table's play page once seated. Two
    queries, whatever the number of classes and sessions."""
    sessions = list(
        ClassSession.objects.filter(
            classroom__enrollments__student=student,
            status__in=[ClassSession.Status.LOBBY, ClassSession.Status.PLAYING],
        )
        .select_related("classroom")
        .annotate(joined=Count("presences", filter=Q(presences__student=student)))
        .order_by("created_at", "id")
    )
    tables = dict(
        SessionPlace.objects.filter(
            student=student, table__session__in=[s.pk for s in sessions], table__match__isnull=False
        ).values_list("table__session_id", "table__match_id")
    )
    return [
        {
            "id": session.pk,
            "title": session_title(session, child=True),
            "classroom": session.classroom.name,
            "status": session.status,
            "joined": bool(session.joined),
            # Closed to newcomers: a student not in it yet is offered no Join button.
            "locked": session.lobby_locked,
            "join_url": reverse("classroom:sessions_join", args=[session.pk]),
            "lobby_url": reverse("classroom:sessions_lobby", args=[session.pk]),
            "play_url": reverse("games:play", args=[tables[session.pk]])
            if session.pk in tables
            else None,
        }
        for session in sessions
    ]


def students_not_in_lobby(*, session: ClassSession) -> list[str]:
    """The class's students who have not joined: the teacher sees who is still signing in (or
    stuck at it) before starting without them."""
    present = SessionPresence.objects.filter(session=session).values("student_id")
    return [
        user.display_name or user.username
        for user in User.objects.filter(
            enrollments__classroom_id=session.classroom_id, is_active=True
        )
        .exclude(pk__in=present)
        .order_by("display_name", "id")
        .only("display_name", "username")
    ]


def tables_playing(*, session: ClassSession) -> int:
    """How many of the session's tables are still playing."""
    return SessionTable.objects.filter(session=session, match__status=Match.Status.PLAYING).count()


def playing_matches(*, session: ClassSession) -> list[int]:
    return list(
        SessionTable.objects.filter(session=session, match__status=Match.Status.PLAYING)
        .order_by("number")
        .values_list("match_id", flat=True)
    )


def students_at(*, session: ClassSession, seats: set[tuple[int, int | None]]) -> set[int]:
    """The students sitting at these (match id, seat) places of the session (seat None: all of
    that match's)."""
    if not seats:
        return set()
    places = SessionPlace.objects.filter(
        table__session=session, table__match_id__in={match_id for match_id, _seat in seats}
    ).values_list("table__match_id", "seat", "student_id")
    return {
        student_id
        for match_id, seat, student_id in places
        if (match_id, seat) in seats or (match_id, None) in seats
    }


def student_table(*, session: ClassSession, student) -> int | None:
    """The match of the student's table in the session, once it has started."""
    return (
        SessionPlace.objects.filter(table__session=session, student=student)
        .values_list("table__match_id", flat=True)
        .first()
    )


# --- the live monitor ----------------------------------------------------------------------------


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


def session_monitor(
    *, session: ClassSession, now: datetime | None = None, detailed: set[int] | None = None
) -> dict:
    """Everything the teacher's live displays show, JSON-safe: who is present, the tables (who
    sits where, each match's status and scores), each student's figures by skill with their
    "needs help" flags, and a leaderboard. With ``detailed`` (student ids) only those students
    get their medians and figures by skill (the page's parts for the tables that moved): the
    others keep what the flags, the counts and the leaderboard need."""
    now = now or timezone.now()
    # Plain rows, not model instances: building thousands of those would be most of the work.
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
    matches = {table.match_id: table.match for table in tables if table.match_id}
    seated: dict[int, dict[int, tuple[int, str]]] = defaultdict(dict)  # table -> seat -> student
    where: dict[int, tuple[int, int]] = {}  # student -> (table number, seat)
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
    # match -> seat -> the bot's name, as the match was made (numbered across the room).
    bot_seats: dict[int, dict[int, str]] = {match_id: {} for match_id in matches}
    for match_id, index, bot in (
        Seat.objects.filter(match_id__in=list(matches))
        .exclude(bot_level="")
        .values_list("match_id", "index", "name")
    ):
        bot_seats[match_id][index] = bot

    figures = _figures_by_student(session, detailed) if matches else {}
    own_last_move = _own_last_moves(
        [m.pk for m in matches.values() if engine.get_game(m.game).real_time and m.is_playing]
    )
    table_facts = _tables_facts([m for m in matches.values() if not m.outcome])
    table_rows = []
    bots_before = 0  # before the start, the bots to come are numbered across the room too
    for table in tables:
        row = _table_row(
            session,
            table,
            seated.get(table.pk, {}),
            bot_seats.get(table.match_id),
            table_facts,
            own_last_move,
            now,
            bots_before,
        )
        bots_before += sum(1 for seat in row["seats"] if seat["bot"])
        table_rows.append(row)
    waiting_since = {
        seat["student_id"]: seat["waiting_seconds"]
        for row in table_rows
        for seat in row["seats"]
        if seat["student_id"] is not None
    }
    passing_of = {
        seat["student_id"]: seat["passes_in_a_row"]
        for row in table_rows
        for seat in row["seats"]
        if seat["student_id"] is not None
    }

    # The names the class may see, by the teacher's choice for the room and each child's own.
    public_names = told_apart(
        {
            student_id: name_others_see(
                name, needs[student_id].public_name, session.projector_names
            )
            for student_id, name in names.items()
        },
        names,
    )
    students = []
    for student_id, name in sorted(names.items(), key=lambda item: (item[1].lower(), item[0])):
        per_skill = figures.get(student_id, {})
        attempts = sum(f.attempts for f in per_skill.values())
        correct = sum(f.correct for f in per_skill.values())
        table, seat = where.get(student_id, (None, None))
        flags = []
        accuracy = _accuracy(correct, attempts)
        if attempts >= LOW_ACCURACY_MIN_ATTEMPTS and accuracy < LOW_ACCURACY:
            flags.append(
                {
                    "reason": "low_accuracy",
                    "accuracy": accuracy,
                    "percent": percent(correct, attempts),
                }
            )
        stalled = waiting_since.get(student_id)
        if stalled is not None and stalled > STALL_SECONDS:
            flags.append({"reason": "stall", "seconds": stalled})
        passes = passing_of.get(student_id, 0)
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
        row = {
            "id": student_id,
            "name": name,
            "table": table,
            "seat": seat,
            "attempts": attempts,
            "correct": correct,
            "needs_help": flags,
            # The teacher's figures are read knowing what the child was given (never shown to
            # children); the projector shows the name the class may see (None: not shown).
            "accommodations": needs[student_id].badges(),
            "public_name": public_names[student_id],
        }
        students.append(row)
        if detailed is not None and student_id not in detailed:
            continue
        if len(per_skill) == 1:
            median_ms = next(iter(per_skill.values())).median_ms
        else:
            histogram = [
                sum(n) for n in zip(*(f.histogram for f in per_skill.values()), strict=True)
            ]
            elapsed_ms_sum = sum(f.elapsed_ms_sum for f in per_skill.values())
            median_ms = _median_ms(histogram, elapsed_ms_sum) if attempts else None
        row.update(
            {
                "accuracy": accuracy,
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
        )
    # Who needs help at each table, for the teacher's glance at the tables (never the class's:
    # ``_public_tables`` leaves it out).
    for table_row in table_rows:
        table_row["needs_help"] = []
    by_number = {table_row["number"]: table_row for table_row in table_rows}
    for student in students:
        if student["needs_help"] and student["table"] in by_number:
            by_number[student["table"]]["needs_help"].append(student["name"])
    # The page's parts (``detailed``) show neither the leaderboard nor the summary.
    leaderboard = _leaderboard(students, table_rows) if detailed is None else []
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
                "name": names[student_id],
                "public_name": public_names[student_id],
                "seated": student_id in where,
            }
            for student_id, *_rest in presences
        ],
        "tables": table_rows,
        "table_states": {
            state: sum(1 for row in table_rows if row["state"] == state)
            for state in ("playing", "stuck", "finished", "stopped")
        },
        "students": students,
        "needs_help": [s["id"] for s in students if s["needs_help"]],
        "leaderboard": leaderboard,
        # What the class sees on the projector: each child by the name set for them there, a
        # child "not shown" left out (their answers still count in the summary's totals).
        "public_leaderboard": _public_leaderboard(
            leaderboard, public_names, top=session.projector_top
        ),
        # Every child's points together (the children not shown on the projector included, the
        # bots not): the class's score, shown large.
        "class_total": sum(row["points"] for row in leaderboard),
        "public_tables": _public_tables(table_rows, public_names) if detailed is None else [],
        "summary": _summary(session, students, table_rows) if detailed is None else {},
        "teams": _teams(session.team_mode, table_rows) if detailed is None else None,
    }


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


def _public_leaderboard(
    leaderboard: list[dict], public_names: dict[int, str | None], *, top: int = 0
) -> list[dict]:
    """The leaderboard as the class sees it: names as set for the projector, the children not
    shown there left out and the places counted again without them (no gap gives them away).
    Nobody is ranked in public with no points, and with ``top`` (0: all) only the first ``top``
    places are shown (children sharing the last of them all are)."""
    rows = [
        {**row, "name": public_names.get(row["id"]) or ""}
        for row in leaderboard
        if public_names.get(row["id"]) is not None and row["points"] > 0
    ]
    for index, row in enumerate(rows):
        ahead = rows[index - 1] if index else None
        row["rank"] = ahead["rank"] if ahead and ahead["points"] == row["points"] else index + 1
        row["rank_label"] = place_label(row["rank"])
    if top:
        rows = [row for row in rows if row["rank"] <= top]
    return rows


# What the teacher's glance at a table says that the class must not read.
_TEACHERS_ONLY = frozenset({"needs_help"})


def _public_tables(table_rows: list[dict], public_names: dict[int, str | None]) -> list[dict]:
    """The tables as the class sees them: each child by their projector name; a child not shown
    there is not listed."""
    public = []
    for table in table_rows:
        seats = []
        for seat in table["seats"]:
            if seat["student_id"] is None:
                seats.append(seat)
                continue
            name = public_names.get(seat["student_id"], seat["name"])
            if name is not None:
                seats.append({**seat, "name": name})
        shown = {key: value for key, value in table.items() if key not in _TEACHERS_ONLY}
        public.append({**shown, "seats": seats})
    return public


def _leaderboard(students: list[dict], table_rows: list[dict]) -> list[dict]:
    """Every seated student by the points of their game, as the tables count them (a classroom
    game's leaderboard ranks what the game scores, not the answers behind it); equal points share
    a place, right answers then order them. Bots are not on it."""
    seated = {
        seat["student_id"]: (seat["score"], table["label"])
        for table in table_rows
        for seat in table["seats"]
        if seat["student_id"] is not None
    }
    rows = [
        {
            "id": s["id"],
            "name": s["name"],
            "points": seated[s["id"]][0] or 0,
            "table": seated[s["id"]][1],
            "correct": s["correct"],
            "attempts": s["attempts"],
        }
        for s in students
        if s["id"] in seated
    ]
    rows.sort(key=lambda row: (-row["points"], -row["correct"], row["name"].lower()))
    for index, row in enumerate(rows):
        ahead = rows[index - 1] if index else None
        row["rank"] = ahead["rank"] if ahead and ahead["points"] == row["points"] else index + 1
        row["rank_label"] = place_label(row["rank"])
    return rows


def _summary(session: ClassSession, students: list[dict], table_rows: list[dict]) -> dict:
    """What the projector shows at the end of a session."""
    attempts = sum(s["attempts"] for s in students)
    correct = sum(s["correct"] for s in students)
    minutes = None
    if session.started_at and session.ended_at:
        minutes = max(1, round((session.ended_at - session.started_at).total_seconds() / 60))
    return {
        "students": sum(1 for t in table_rows for seat in t["seats"] if seat["student_id"]),
        "tables": len(table_rows),
        "attempts": attempts,
        "correct": correct,
        "percent": judged_percent(correct, attempts),
        "minutes": minutes,
    }


def _teams(team_mode: str, table_rows: list[dict]) -> dict | None:
    """How the teams stand (docs/rules/teams.md), or None when each child plays for themselves.
    A team's points are its children's points as their game counts them; bots never add to a
    team of children. Teams of different sizes compare by their points per player (T3, T4): a
    table of four children would otherwise beat a table of three by construction, and a class of
    25 the three bots beside it. ``tables``: each table a team, ranked by points per child, equal
    shares sharing a place and a table with no points yet given none. ``class``: the children's
    points per child against the bots' points per bot, in all and at each table."""
    if team_mode == TeamMode.TABLES:
        rows = []
        for table in table_rows:
            children = [seat for seat in table["seats"] if seat["student_id"] is not None]
            if not children:
                continue
            points = sum(seat["score"] or 0 for seat in children)
            rows.append(
                {
                    "number": table["number"],
                    "name": table["label"],
                    "points": points,
                    "players": len(children),
                    **_per_player(points, len(children)),
                }
            )
        rows.sort(key=lambda row: (-row["share"], row["number"]))
        for index, row in enumerate(rows):
            ahead = rows[index - 1] if index else None
            if row["points"] <= 0:
                row["rank"], row["rank_label"] = None, ""
                continue
            row["rank"] = ahead["rank"] if ahead and ahead["share"] == row["share"] else index + 1
            row["rank_label"] = place_label(row["rank"])
        return {"mode": team_mode, "teams": rows}
    if team_mode == TeamMode.CLASS:
        tables = []
        for table in table_rows:
            children = [seat for seat in table["seats"] if seat["student_id"] is not None]
            if not children:
                continue
            tables.append(
                {
                    "number": table["number"],
                    "name": table["label"],
                    "children": sum(seat["score"] or 0 for seat in children),
                    "bots": sum(seat["score"] or 0 for seat in table["seats"] if seat["bot"]),
                    "child_seats": len(children),
                    "bot_seats": sum(1 for seat in table["seats"] if seat["bot"]),
                }
            )
        children = sum(row["children"] for row in tables)
        bots = sum(row["bots"] for row in tables)
        child_seats = sum(row["child_seats"] for row in tables)
        bot_seats = sum(row["bot_seats"] for row in tables)
        ours = _per_player(children, child_seats)
        theirs = _per_player(bots, bot_seats)
        if not bot_seats:
            ahead = "no_bots"
        elif ours["share"] != theirs["share"]:
            ahead = "children" if ours["share"] > theirs["share"] else "bots"
        else:
            ahead = "level"
        return {
            "mode": team_mode,
            "children": children,
            "bots": bots,
            "child_seats": child_seats,
            "bot_seats": bot_seats,
            "children_per_player": ours["per_player"],
            "bots_per_player": theirs["per_player"],
            "ahead": ahead,
            "tables": tables,
        }
    return None


def _per_player(points: int, players: int) -> dict:
    """A team's points per player: ``share`` exact (it ranks, and equal shares tie),
    ``per_player`` to one decimal, as the projector shows it, and ``per_player_count`` the whole
    number that picks the words' plural form ("1 point", "1.5 points": English and Spanish use
    the plural for every number but exactly 1; gettext takes whole numbers only)."""
    share = Fraction(points, players) if players else Fraction(0)
    per_player = round(float(share), 1)
    return {
        "share": share,
        "per_player": per_player,
        "per_player_count": int(per_player) if per_player.is_integer() else 2,
    }


def place_label(place: int) -> str:
    """ "1st", "2nd", … as the play page's podium writes them."""
    if place == 1:
        return _("1st")
    if place == 2:
        return _("2nd")
    if place == 3:
        return _("3rd")
    return _("%(place)sth") % {"place": place}


def _table_row(
    session,
    table: SessionTable,
    students,
    bot_seats,
    table_facts,
    own_last_move,
    now: datetime,
    bots_before: int = 0,
) -> dict:
    """One table: ``students`` its seated students (seat -> (id, name)), ``bot_seats`` its
    match's bots' seats and names (None before the start, when the bots to come are named after
    the ``bots_before`` of the tables before this one)."""
    match: Match | None = table.match
    active: frozenset[int] = frozenset()
    scores = winners = places = passing = None
    status = None
    if match is not None:
        status = match.status
        if match.outcome:
            scores, winners = match.outcome["scores"], match.outcome["winners"]
            # Matches finished before places were stored get them from the same rule.
            places = match.outcome.get("places") or places_of(Outcome(scores, winners))
        else:
            scores, active, passing = table_facts[match.pk]
    # A seat without a place is a bot's, unless the match has no bot there: its student was
    # deleted (with their place and seat), and the history must not make them a bot.
    seats = []
    bot_number = bots_before
    for index in range(session.table_size):
        place = students.get(index)
        removed = place is None and bot_seats is not None and index not in bot_seats
        if place is None and not removed:
            bot_number += 1
        waiting = None
        rank = places[index] if places and index < len(places) else None
        if place is not None and match is not None and index in active:
            waiting = _waiting_seconds(match, index, own_last_move, now)
        seats.append(
            {
                "seat": index,
                "place": f"{table.number}:{index}",
                "student_id": place[0] if place else None,
                "name": place[1]
                if place
                else _("Removed player")
                if removed
                else (bot_seats or {}).get(index) or bot_name(bot_number),
                "bot": place is None and not removed,
                "removed": removed,
                "score": scores[index] if scores and index < len(scores) else None,
                "winner": bool(winners and index in winners),
                "rank": rank,
                "rank_label": place_label(rank) if rank else "",
                "active": index in active,
                "waiting_seconds": waiting,
                "passes_in_a_row": passing[index] if passing and index < len(passing) else 0,
            }
        )
    if places:
        # A finished table reads as its podium: first place at the top, ties in seat order.
        seats.sort(key=lambda seat: (seat["rank"] or len(places) + 1, seat["seat"]))
    state, idle = _table_state(match, now)
    return {
        "number": table.number,
        "label": _("Table %(number)s") % {"number": table.number},
        "match_id": table.match_id,
        "status": status,
        "state": state,
        "idle_seconds": idle,
        "seats": seats,
        "watch_url": reverse("games:watch", args=[table.match_id]) if table.match_id else None,
    }


def _table_state(match: Match | None, now: datetime) -> tuple[str, int | None]:
    """How the table is doing at a glance, and for how long it has not moved: "waiting" (not
    started), "playing", "stuck" (playing, not paused, and nothing has moved there for longer
    than a child may stall, ``STALL_SECONDS``: a turn waits on someone, or nobody answers),
    "finished" or "stopped" (the teacher stopped it)."""
    if match is None:
        return "waiting", None
    if match.status == Match.Status.FINISHED:
        return "finished", None
    if match.status == Match.Status.ABANDONED:
        return "stopped", None
    idle = max(0, int((now - match.updated_at).total_seconds()))
    if match.paused_at_ms is None and idle > STALL_SECONDS:
        return "stuck", idle
    return "playing", idle


def _waiting_seconds(match: Match, seat: int, own_last_move, now: datetime) -> int:
    """How long the seat has been free to act without acting. In turn games (and the rounds of
    Add or Multiply?) the seat's chance came with the table's last change (the match's
    ``updated_at``); in real-time games (``Game.real_time``: others acting does not excuse a child
    who has not answered) it has been there since the child's own last move (or the start)."""
    if not engine.get_game(match.game).real_time:
        since = match.updated_at
    else:
        since = max(match.created_at, own_last_move.get((match.pk, seat)) or match.created_at)
    return max(0, int((now - since).total_seconds()))


def _own_last_moves(match_ids: list[int]) -> dict[tuple[int, int], datetime]:
    """(match, seat) -> when that seat last moved, for the seats of these matches: one index walk
    back from each match's newest move (the match's length bounds it, not the session's)."""
    if not match_ids:
        return {}
    latest = (
        MoveRecord.objects.filter(match_id=OuterRef("match_id"), seat=OuterRef("index"))
        .order_by("-version")
        .values("received_at")[:1]
    )
    return {
        (match_id, index): at
        for match_id, index, at in Seat.objects.filter(match_id__in=match_ids, user__isnull=False)
        .annotate(at=Subquery(latest))
        .values_list("match_id", "index", "at")
        if at is not None
    }


# match id -> (version, running scores, seats free to act, passes in a row): a table that has not
# moved since the last look is not read from its JSON state again, so a look costs what moved.
# Keyed by version, so never stale; bounded, so a long-lived process does not grow with it.
_TABLE_FACTS_LIMIT = 5_000
_table_facts_cache: OrderedDict[int, tuple[int, list | None, frozenset[int], list | None]] = (
    OrderedDict()
)
_table_facts_lock = threading.Lock()


def _tables_facts(
    matches: list[Match],
) -> dict[int, tuple[list | None, frozenset[int], list | None]]:
    """Each unfinished match's running scores, the seats that may act now (none unless it is
    playing) and each seat's passes in a row; the states of the tables that moved since the last
    look are read in one query."""
    facts: dict[int, tuple[list | None, frozenset[int], list | None]] = {}
    missing: dict[int, Match] = {}
    with _table_facts_lock:
        for match in matches:
            known = _table_facts_cache.get(match.pk)
            if known is not None and known[0] == match.version:
                _table_facts_cache.move_to_end(match.pk)
                facts[match.pk] = (known[1], known[2], known[3])
            else:
                missing[match.pk] = match
    if missing:
        rows = Match.objects.filter(pk__in=list(missing)).values_list("pk", "version", "state")
        for match_id, version, state_json in rows:
            rules = engine.get_game(missing[match_id].game)
            state = rules.load(state_json)
            scores = rules.running_scores(state)
            active = frozenset(rules.active(state))
            passing = rules.passes_in_a_row(state)
            facts[match_id] = (scores, active, passing)
            with _table_facts_lock:
                _table_facts_cache[match_id] = (version, scores, active, passing)
                if len(_table_facts_cache) > _TABLE_FACTS_LIMIT:
                    _table_facts_cache.popitem(last=False)
    playing = {match.pk for match in matches if match.is_playing}
    return {
        match_id: (scores, active if match_id in playing else frozenset(), passing)
        for match_id, (scores, active, passing) in facts.items()
    }


def forget_table_facts() -> None:
    """For tests: a test database that rolls back hands the same match ids out again."""
    with _table_facts_lock:
        _table_facts_cache.clear()
