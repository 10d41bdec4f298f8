"""Reads of class sessions: the teacher's lists, the students' open sessions and the live monitor.

``session_monitor`` is what the teacher's session page, the projector and the monitor socket show.
It reads a fixed number of queries whatever the class size (the session, its presences, its tables
with their places and matches, the session's attempts, the last move of every seat) and computes
the figures in Python: a session's attempts are a few thousand rows at most, and the medians and
the "wrong in a row" streaks need them in order anyway.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Prefetch, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import engine
from classroom.bots import bot_name
from classroom.models import ClassSession, SessionPlace, SessionPresence, SessionTable
from classroom.progress.numbers import judged_percent, percent, too_few
from engine.core import Outcome
from engine.core import places as places_of
from games import catalog
from games.models import Attempt, Match, MoveRecord

User = get_user_model()

# "Needs help" (the issue: low accuracy, long stalls, repeated errors on one skill).
LOW_ACCURACY = 0.6
LOW_ACCURACY_MIN_ATTEMPTS = 5
STALL_SECONDS = 60
WRONG_IN_A_ROW = 3

OPERATION_NAMES = {
    "add": gettext_lazy("Addition"),
    "sub": gettext_lazy("Subtraction"),
    "mul": gettext_lazy("Multiplication"),
    "div": gettext_lazy("Division"),
    "mixed": gettext_lazy("Mixed operations"),
}
RANGE_NAMES = {
    "within10": gettext_lazy("up to 10"),
    "within20": gettext_lazy("up to 20"),
    "within100": gettext_lazy("up to 100"),
    "over100": gettext_lazy("over 100"),
}


def skill_label(skill: str) -> str:
    operation, _dot, band = skill.partition(".")
    name = OPERATION_NAMES.get(operation)
    if name is None:
        return skill
    return f"{name} {RANGE_NAMES.get(band, band)}".strip()


def game_and_variant_title(game: str, variant: str) -> str:
    """ "¡Mía! · Canada 47 (…)"; a variant named like its game ("SUM") is not said twice."""
    game_title = catalog.game_title(game)
    variant_title = catalog.variant_title(game, variant)
    return game_title if variant_title == game_title else f"{game_title} · {variant_title}"


def session_title(session: ClassSession) -> str:
    return game_and_variant_title(session.game, session.variant)


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
            "title": session_title(session),
            "classroom": session.classroom.name,
            "status": session.status,
            "joined": bool(session.joined),
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
    attempts: int = 0
    correct: int = 0
    wrong_in_a_row: int = 0
    times: list[int] = field(default_factory=list)

    def add(self, correct: bool, elapsed_ms: int) -> None:
        self.attempts += 1
        self.times.append(elapsed_ms)
        if correct:
            self.correct += 1
            self.wrong_in_a_row = 0
        else:
            self.wrong_in_a_row += 1


def _accuracy(correct: int, attempts: int) -> float | None:
    return round(correct / attempts, 3) if attempts else None


def _median(times: list[int]) -> int | None:
    return int(statistics.median(times)) if times else None


def _seconds(ms: int | None) -> float | None:
    return None if ms is None else round(ms / 1000, 1)


def session_monitor(*, session: ClassSession, now: datetime | None = None) -> dict:
    """Everything the teacher's live displays show, JSON-safe: who is present, the tables (who
    sits where, each match's status and scores), each student's figures by skill with their
    "needs help" flags, and a leaderboard."""
    now = now or timezone.now()
    presences = list(session.presences.select_related("student").order_by("joined_at", "id"))
    tables = list(
        SessionTable.objects.filter(session=session)
        .select_related("match")
        .prefetch_related(
            Prefetch("places", queryset=SessionPlace.objects.select_related("student")),
            "match__seats",
        )
        .order_by("number")
    )
    matches = {table.match_id: table.match for table in tables if table.match_id}
    where: dict[int, tuple[int, int]] = {}  # student -> (table number, seat)
    names: dict[int, str] = {}
    for presence in presences:
        names[presence.student_id] = _name(presence.student)
    for table in tables:
        for place in table.places.all():
            where[place.student_id] = (table.number, place.seat)
            names.setdefault(place.student_id, _name(place.student))

    figures: dict[int, dict[str, SkillFigures]] = defaultdict(dict)
    last_move: dict[tuple[int, int | None], datetime] = {}
    if matches:
        rows = (
            Attempt.objects.filter(match_id__in=list(matches), user__isnull=False)
            .order_by("created_at", "id")
            .values_list("user_id", "skill", "correct", "elapsed_ms")
        )
        for user_id, skill, correct, elapsed_ms in rows:
            per_skill = figures[user_id]
            if skill not in per_skill:
                per_skill[skill] = SkillFigures(skill)
            per_skill[skill].add(correct, elapsed_ms)
        for match_id, seat, at in (
            MoveRecord.objects.filter(match_id__in=list(matches))
            .values("match_id", "seat")
            .annotate(at=Max("received_at"))
            .values_list("match_id", "seat", "at")
        ):
            last_move[(match_id, seat)] = at

    # Each table's last change, once: looked up per seat it grew with the square of the class.
    table_last: dict[int, datetime] = {}
    for (match_id, _seat), at in last_move.items():
        if match_id not in table_last or at > table_last[match_id]:
            table_last[match_id] = at
    table_rows = [_table_row(session, table, last_move, table_last, now) for table in tables]
    waiting_since = {
        seat["student_id"]: seat["waiting_seconds"]
        for row in table_rows
        for seat in row["seats"]
        if seat["student_id"] is not None
    }

    students = []
    for student_id, name in sorted(names.items(), key=lambda item: (item[1].lower(), item[0])):
        per_skill = figures.get(student_id, {})
        attempts = sum(f.attempts for f in per_skill.values())
        correct = sum(f.correct for f in per_skill.values())
        all_times = [t for f in per_skill.values() for t in f.times]
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
        students.append(
            {
                "id": student_id,
                "name": name,
                "table": table,
                "seat": seat,
                "attempts": attempts,
                "correct": correct,
                "accuracy": accuracy,
                "accuracy_percent": judged_percent(correct, attempts),
                "too_few": too_few(attempts),
                "median_ms": _median(all_times),
                "median_seconds": _seconds(_median(all_times)),
                "skills": [
                    {
                        "skill": f.skill,
                        "label": skill_label(f.skill),
                        "attempts": f.attempts,
                        "correct": f.correct,
                        "accuracy": _accuracy(f.correct, f.attempts),
                        "accuracy_percent": judged_percent(f.correct, f.attempts),
                        "too_few": too_few(f.attempts),
                        "median_ms": _median(f.times),
                        "median_seconds": _seconds(_median(f.times)),
                        "wrong_in_a_row": f.wrong_in_a_row,
                    }
                    for f in sorted(per_skill.values(), key=lambda f: f.skill)
                ],
                "needs_help": flags,
            }
        )
    leaderboard = _leaderboard(students, table_rows)
    return {
        "session": {
            "id": session.pk,
            "status": session.status,
            "game": session.game,
            "variant": session.variant,
            "title": session_title(session),
            "table_size": session.table_size,
        },
        "present": [
            {"id": p.student_id, "name": names[p.student_id], "seated": p.student_id in where}
            for p in presences
        ],
        "tables": table_rows,
        "students": students,
        "needs_help": [s["id"] for s in students if s["needs_help"]],
        "leaderboard": leaderboard,
        "summary": _summary(session, students, table_rows),
    }


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


def place_label(place: int) -> str:
    """ "1st", "2nd", … as the play page's podium writes them."""
    if place == 1:
        return _("1st")
    if place == 2:
        return _("2nd")
    if place == 3:
        return _("3rd")
    return _("%(place)sth") % {"place": place}


def _name(user) -> str:
    return user.display_name or user.username


def _table_row(session, table: SessionTable, last_move, table_last, now: datetime) -> dict:
    students = {place.seat: place for place in table.places.all()}
    match: Match | None = table.match
    active: frozenset[int] = frozenset()
    scores = winners = places = None
    status = None
    if match is not None:
        status = match.status
        rules = engine.get_game(match.game)
        state = rules.load(match.state)
        if match.outcome:
            scores, winners = match.outcome["scores"], match.outcome["winners"]
            # Matches finished before places were stored get them from the same rule.
            places = match.outcome.get("places") or places_of(Outcome(scores, winners))
        else:
            scores = _live_scores(rules.view(state, None))
            if match.is_playing:
                active = rules.active(state)
    # A seat without a place is a bot's, unless the match has no bot there: its student was
    # deleted (with their place and seat), and the history must not make them a bot.
    bot_seats = (
        None if match is None else {seat.index for seat in match.seats.all() if seat.bot_level}
    )
    seats = []
    bot_number = 0
    for index in range(session.table_size):
        place = students.get(index)
        removed = place is None and bot_seats is not None and index not in bot_seats
        if place is None and not removed:
            bot_number += 1
        waiting = None
        rank = places[index] if places and index < len(places) else None
        if place is not None and match is not None and index in active:
            waiting = _waiting_seconds(match, index, last_move, table_last, now)
        seats.append(
            {
                "seat": index,
                "place": f"{table.number}:{index}",
                "student_id": place.student_id if place else None,
                "name": _name(place.student)
                if place
                else _("Removed player")
                if removed
                else bot_name(bot_number),
                "bot": place is None and not removed,
                "removed": removed,
                "score": scores[index] if scores and index < len(scores) else None,
                "winner": bool(winners and index in winners),
                "rank": rank,
                "rank_label": place_label(rank) if rank else "",
                "active": index in active,
                "waiting_seconds": waiting,
            }
        )
    if places:
        # A finished table reads as its podium: first place at the top, ties in seat order.
        seats.sort(key=lambda seat: (seat["rank"] or len(places) + 1, seat["seat"]))
    return {
        "number": table.number,
        "label": _("Table %(number)s") % {"number": table.number},
        "match_id": table.match_id,
        "status": status,
        "seats": seats,
        "watch_url": reverse("games:watch", args=[table.match_id]) if table.match_id else None,
    }


# Games where every seat may act at once, all the time (¡Mía!'s race for the card): there a child's
# own last move is what counts, since others acting does not excuse one who has not answered.
REAL_TIME_GAMES = frozenset({"mia"})


def _waiting_seconds(match: Match, seat: int, last_move, table_last, now: datetime) -> int:
    """How long the seat has been free to act without acting. In turn games (and the rounds of
    Add or Multiply?) the seat's chance came with the table's last change; in real-time games
    it has been there since the child's own last move (or the start)."""
    since = match.created_at
    own = last_move.get((match.pk, seat))
    if own is not None and own > since:
        since = own
    if match.game not in REAL_TIME_GAMES:
        last = table_last.get(match.pk)
        if last is not None and last > since:
            since = last
    return max(0, int((now - since).total_seconds()))


_SCORE_KEYS = ("scores", "totals", "pile_counts", "captured_counts")


def _live_scores(view: dict) -> list | None:
    """The running score of each seat, under whichever name the game's view gives it."""
    for key in _SCORE_KEYS:
        value = view.get(key)
        if isinstance(value, list) and all(isinstance(v, int) for v in value):
            return value
    return None
