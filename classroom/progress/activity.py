"""What students played, for how long, and how they did in lessons and in homework (issue 14,
item 9).

- *Games played*: the matches a student answered in during the period (a seat without an answer
  is no game played), in the student's figures and in the table of games alike; *finished*,
  those that have ended.
- *Time playing*: per game, from the student's first answer to their last (a game with a single
  answer counts the time that answer took), summed over the games. Time at a table before the
  first answer or after the last is not counted, so it is a floor; a game without an answer adds
  nothing.
- *Where*: a game dealt at a class session's table is a lesson's, one made for an assignment is
  homework, any other (a table a teacher set up by hand) is "other".
- *How*: the answers of a calm table (¡Mía!'s option ``calm``: the child's own pace, no race, no
  clock; each such attempt is marked ``calm`` in its detail) have a row of their own among the
  games, "¡Mía! at a calm table", apart from the race's: their accuracy and numbers are not the
  race's.

Two queries for a class, whatever its size; the attempts are grouped per student and game in
the database, so a busy term's hundreds of thousands of answers come back as a few thousand rows.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Count, Max, Min, Q
from django.utils.translation import gettext_lazy as _

from classroom.progress.numbers import judged_percent, too_few
from classroom.progress.wording import accuracy_text
from games.catalog import game_title
from games.models import Attempt, Match

LESSON, HOMEWORK, OTHER = "lesson", "homework", "other"
WHERE_LABELS = {LESSON: _("In lessons"), HOMEWORK: _("Homework"), OTHER: _("Other games")}


@dataclass
class Tally:
    answers: int = 0
    right: int = 0

    def add(self, answers: int, right: int) -> None:
        self.answers += answers
        self.right += right

    @property
    def percent(self) -> int | None:
        return judged_percent(self.right, self.answers)

    @property
    def text(self) -> str:
        return accuracy_text(self.right, self.answers)

    @property
    def too_few(self) -> bool:
        return too_few(self.answers)


@dataclass
class StudentActivity:
    student: object
    games: int = 0
    finished: int = 0
    seconds: int = 0
    where: dict[str, Tally] = field(default_factory=lambda: {w: Tally() for w in WHERE_LABELS})

    @property
    def time_text(self) -> str:
        return duration_text(self.seconds)


@dataclass
class GameActivity:
    game: str
    calm: bool = False  # the answers of calm tables (docs/rules/mia.md, "A calm table")
    players: set = field(default_factory=set)
    games: set = field(default_factory=set)
    tally: Tally = field(default_factory=Tally)
    where: dict[str, Tally] = field(default_factory=lambda: {w: Tally() for w in WHERE_LABELS})

    @property
    def title(self) -> str:
        if self.calm:
            return _("%(game)s at a calm table") % {"game": game_title(self.game)}
        return game_title(self.game)


@dataclass
class Activity:
    students: list[StudentActivity]
    games: list[GameActivity]
    where: dict[str, Tally]

    @property
    def where_rows(self) -> list[tuple[str, Tally]]:
        return [(str(WHERE_LABELS[w]), tally) for w, tally in self.where.items()]


def duration_text(seconds: int) -> str:
    """ "1 h 05 min", "12 min", "under a minute", "—"."""
    if seconds <= 0:
        return "—"
    minutes = seconds // 60
    if minutes == 0:
        return str(_("under a minute"))
    if minutes < 60:
        return _("%(minutes)s min") % {"minutes": minutes}
    return _("%(hours)s h %(minutes)02d min") % {"hours": minutes // 60, "minutes": minutes % 60}


def activity(*, students: list, start: datetime.datetime, end: datetime.datetime) -> Activity:
    """The students' games and answers in [start, end)."""
    by_student = {student.pk: StudentActivity(student) for student in students}
    ids = list(by_student)
    where_total = {w: Tally() for w in WHERE_LABELS}
    games: dict[tuple[str, bool], GameActivity] = {}
    if not ids:
        return Activity([], [], where_total)

    per_game = list(
        Attempt.objects.filter(user_id__in=ids, created_at__gte=start, created_at__lt=end)
        .values("user_id", "match_id")
        .annotate(
            answers=Count("id"),
            right=Count("id", filter=Q(correct=True)),
            first=Min("created_at"),
            last=Max("created_at"),
            longest=Max("elapsed_ms"),
            # Answers marked as given at a calm table (a whole match is calm or not).
            calm=Count("id", filter=Q(detail__calm=True)),
            calm_right=Count("id", filter=Q(detail__calm=True, correct=True)),
        )
        .order_by()
    )
    # Each game's name and where it was played, read once per match rather than joined to every
    # answer the grouping above counts.
    matches = {
        match_id: (game, LESSON if table else HOMEWORK if work else OTHER, finished is not None)
        for match_id, game, table, work, finished in Match.objects.filter(
            pk__in={row["match_id"] for row in per_game}
        ).values_list("pk", "game", "session_table", "assignment_work", "finished_at")
    }
    for row in per_game:
        game_name, where, finished = matches[row["match_id"]]
        entry = by_student[row["user_id"]]
        entry.games += 1  # one row per student and game
        entry.finished += finished
        entry.where[where].add(row["answers"], row["right"])
        where_total[where].add(row["answers"], row["right"])
        span = (row["last"] - row["first"]).total_seconds()
        entry.seconds += int(span if row["answers"] > 1 else row["longest"] / 1000)
        calm = row["calm"], row["calm_right"]
        race = row["answers"] - calm[0], row["right"] - calm[1]
        for is_calm, (answers, right) in ((False, race), (True, calm)):
            if not answers:
                continue
            key = (game_name, is_calm)
            game = games.get(key) or games.setdefault(key, GameActivity(game_name, is_calm))
            game.players.add(row["user_id"])
            game.games.add(row["match_id"])
            game.tally.add(answers, right)
            game.where[where].add(answers, right)
    return Activity(
        students=list(by_student.values()),
        games=sorted(games.values(), key=lambda g: (game_title(g.game), g.calm)),
        where=where_total,
    )
