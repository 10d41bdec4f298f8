"""How well a student knows a skill or a fact (issue 14, item 7), and the fact grids.

The model (docs/progress.md, "Mastery and the fact grids", gives its reasons and sources): over
a student's latest answers on a skill (at most ``RECENT_ANSWERS``, in the period looked at), or
on one fact,

- an answer is *fluent* when it is right within ``FLUENT_MS`` (3 s, the retrieval threshold of
  fact-fluency research: slower right answers are usually counted out, not recalled);
- *practising*: fewer than ``MIN_ANSWERS`` answers, or under 60% of them right;
- *familiar*: at least 60% right;
- *proficient*: at least 80% right;
- *mastered*: at least 90% right and at least 80% fluent, with right fluent answers (in the
  period) on at least ``MASTERY_DAYS`` school days: one good lesson is not yet a known fact;
- a fact or skill whose latest answer is over ``REVIEW_AFTER_DAYS`` days old is *due for
  review*, and at most proficient until it is answered again.

A right answer slower than ``FLUENT_MS`` in a game whose times hold more than recall
(``engine.Game.times_recall``: ¡Mía!, ADD UP) is left out of the fluency share: its time says
nothing of recall. Such answers count for accuracy, and count as fluent when quick.

Shares are compared in whole numbers (``right * 10 >= 9 * answers``), so a boundary is exact.

A fact is one of the addition table's (0 + 0 to 10 + 10) or the times table's (1 x 1 to
10 x 10), as the child met it: 3 + 4 and 4 + 3 are cells of their own, as on a printed table.
An answer counts for a fact when its problem is exactly that pair of numbers under that
operation, whatever the game (a ¡Mía! claim of 5 + 9 is the child's 5 + 9).
"""

from __future__ import annotations

import datetime
import enum
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import Count, F, IntegerField, Max, Q, Window
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, RowNumber, TruncDate
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

import engine
from accounts.bidi import ltr
from classroom.progress.numbers import MIN_ANSWERS_TO_JUDGE as MIN_ANSWERS
from classroom.progress.numbers import percent
from classroom.progress.wording import percent_text
from games.models import Attempt

FLUENT_MS = 3000
RECENT_ANSWERS = 10
# Right, fluent answers on this many school days at least before a fact is mastered.
MASTERY_DAYS = 2
# A fact or skill whose latest answer is older than this is due for review.
REVIEW_AFTER_DAYS = 30
# A fact grid's cell is ticked when at least this share of its answers was fluent.
FLUENT_MOSTLY_PERCENT = 80


class Level(enum.IntEnum):
    NOT_STARTED = 0
    PRACTISING = 1
    FAMILIAR = 2
    PROFICIENT = 3
    MASTERED = 4

    @property
    def label(self) -> str:
        return str(LEVEL_LABELS[self])

    @property
    def key(self) -> str:
        return self.name.lower().replace("_", "-")


LEVEL_LABELS = {
    Level.NOT_STARTED: pgettext_lazy("mastery", "Not started"),
    Level.PRACTISING: pgettext_lazy("mastery", "Practising"),
    Level.FAMILIAR: pgettext_lazy("mastery", "Familiar"),
    Level.PROFICIENT: pgettext_lazy("mastery", "Proficient"),
    Level.MASTERED: pgettext_lazy("mastery", "Mastered"),
}


def is_fluent(correct: bool, elapsed_ms: int) -> bool:
    return bool(correct) and elapsed_ms <= FLUENT_MS


def games_timing_recall() -> dict[str, bool]:
    return {game.slug: game.times_recall for game in engine.list_games()}


def counts_for_fluency(correct: bool, elapsed_ms: int, times_recall: bool) -> bool:
    """Whether an answer's time says anything of recall: always in a game that times the fact
    alone; in one whose times hold waiting or other work, only when quick all the same (a slow
    right claim may be a slow search of the hand, not a slow recall)."""
    return times_recall or not correct or elapsed_ms <= FLUENT_MS


def level_of(
    answers: int,
    right: int,
    fluent: int,
    *,
    timed: int | None = None,
    fluent_days: int = MASTERY_DAYS,
    due_for_review: bool = False,
) -> Level:
    """The level of a student's latest ``answers`` answers, ``right`` of them right and
    ``fluent`` right within ``FLUENT_MS``, out of ``timed`` whose time counts for fluency (all
    unless told), with fluent answers on ``fluent_days`` school days."""
    timed = answers if timed is None else timed
    if answers == 0:
        return Level.NOT_STARTED
    if answers < MIN_ANSWERS or right * 10 < 6 * answers:
        return Level.PRACTISING
    if right * 10 < 8 * answers:
        return Level.FAMILIAR
    if (
        right * 10 >= 9 * answers
        and timed
        and fluent * 10 >= 8 * timed
        and fluent_days >= MASTERY_DAYS
        and not due_for_review
    ):
        return Level.MASTERED
    return Level.PROFICIENT


class Answer(NamedTuple):
    correct: bool
    elapsed_ms: int
    times_recall: bool = True


@dataclass(frozen=True)
class Mastery:
    """A level and what it rests on: the latest ``answers`` answers (``timed`` of them with a
    time that counts for fluency), the school days with a right, fluent answer in the period
    and the day of the latest answer."""

    answers: int
    right: int
    fluent: int
    timed: int | None = None
    fluent_days: int = MASTERY_DAYS
    last_seen: datetime.date | None = None
    due_for_review: bool = False

    @classmethod
    def of(
        cls,
        latest: Iterable[tuple],
        *,
        fluent_days: int = MASTERY_DAYS,
        last_seen: datetime.date | None = None,
        as_of: datetime.date | None = None,
    ) -> Mastery:
        """``latest``: ``Answer``s (right, milliseconds, whether the game times recall) of the
        latest answers; ``as_of``: the day the level is read on (for the review)."""
        answers = right = fluent = timed = 0
        for correct, elapsed_ms, *times_recall in latest:
            answers += 1
            right += bool(correct)
            fluent += is_fluent(correct, elapsed_ms)
            timed += counts_for_fluency(correct, elapsed_ms, all(times_recall))
        due = (
            last_seen is not None
            and as_of is not None
            and (as_of - last_seen).days > REVIEW_AFTER_DAYS
        )
        return cls(answers, right, fluent, timed, fluent_days, last_seen, due)

    @property
    def level(self) -> Level:
        return level_of(
            self.answers,
            self.right,
            self.fluent,
            timed=self.timed,
            fluent_days=self.fluent_days,
            due_for_review=self.due_for_review,
        )

    @property
    def level_text(self) -> str:
        """The level's name, "Proficient (due for review)" when not seen for a month."""
        if self.due_for_review:
            return _("%(level)s (due for review)") % {"level": self.level.label}
        return self.level.label

    @property
    def reached(self) -> str:
        """How the level was reached: "12 of the latest 12 right, 10 fluent, on 3 days; last
        seen 4 Nov 2026"."""
        text = _("%(right)s of the latest %(answers)s right, %(fluent)s fluent") % {
            "right": self.right,
            "answers": self.answers,
            "fluent": self.fluent,
        }
        if self.last_seen is None:
            return text
        return ngettext(
            "%(figures)s, on %(days)s day; last seen %(day)s",
            "%(figures)s, on %(days)s days; last seen %(day)s",
            self.fluent_days,
        ) % {
            "figures": text,
            "days": self.fluent_days,
            "day": formats.date_format(self.last_seen, "SHORT_DATE_FORMAT"),
        }

    @property
    def text(self) -> str:
        """What a screen reader and a CSV cell say: "Proficient: 9 of the latest 10 right, 6
        fluent, on 2 days; last seen 4 Nov 2026"."""
        if not self.answers:
            return self.level.label
        return _("%(level)s: %(reached)s") % {"level": self.level_text, "reached": self.reached}


# --- fact grids ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    operation: str  # as Attempt.operation
    operator: str  # as Attempt.operator
    sign: str
    numbers: range
    title: str


TABLES = (
    Table("add", "+", "+", range(11), _("Addition facts, 0 + 0 to 10 + 10")),
    Table("mul", "x", "×", range(1, 11), _("Multiplication facts, 1 × 1 to 10 × 10")),
)

# Cells are shaded by share right in five steps of one blue, light to dark (a single hue reads
# the same to every kind of colour vision); the share is written in the cell as well.
SHADES = ((95, 5), (85, 4), (70, 3), (50, 2), (0, 1))


@dataclass(frozen=True)
class Cell:
    first: int
    second: int
    sign: str
    answers: int
    right: int
    fluent: int
    mastery: Mastery | None = None  # a student's grid: of the fact's latest answers

    @property
    def fact(self) -> str:
        return f"{self.first} {self.sign} {self.second}"

    @property
    def judged(self) -> bool:
        return self.answers >= MIN_ANSWERS

    @property
    def percent(self) -> int | None:
        return percent(self.right, self.answers) if self.judged else None

    @property
    def fluent_percent(self) -> int | None:
        return percent(self.fluent, self.answers) if self.judged else None

    @property
    def shade(self) -> int:
        """0 without a judged share, else 1 (under half right) to 5 (95% or more)."""
        share = self.percent
        if share is None:
            return 0
        return next(shade for floor, shade in SHADES if share >= floor)

    @property
    def fluent_mostly(self) -> bool:
        """Mostly fluent answers: the cell is outlined (a cue besides colour)."""
        # A student's cell: of the answers whose time counts for fluency (not a slow ¡Mía! claim).
        timed = self.answers if self.mastery is None else self.mastery.timed
        return self.judged and self.fluent * 100 >= FLUENT_MOSTLY_PERCENT * timed

    @property
    def short(self) -> str:
        """The cell's visible text: the share right, or "right/answers" when too few."""
        if not self.answers:
            return ""
        if not self.judged:
            return f"{self.right}/{self.answers}"
        return percent_text(self.percent)

    @property
    def text(self) -> str:
        fact = ltr(self.fact)  # kept left to right in a right-to-left sentence
        if not self.answers:
            return _("%(fact)s: no answers") % {"fact": fact}
        if self.mastery is not None:
            return _("%(fact)s: %(level)s, %(reached)s") % {
                "fact": fact,
                "level": self.mastery.level_text,
                "reached": self.mastery.reached,
            }
        return _("%(fact)s: %(right)s of %(answers)s right, %(fluent)s fluent") % {
            "fact": fact,
            "right": self.right,
            "answers": self.answers,
            "fluent": self.fluent,
        }


@dataclass
class Grid:
    table: Table
    rows: list[list[Cell]]

    @property
    def answers(self) -> int:
        return sum(cell.answers for row in self.rows for cell in row)

    @property
    def caption(self) -> str:
        return str(self.table.title)


def _empty_counts(table: Table) -> dict[tuple[int, int], list[int]]:
    return {(a, b): [0, 0, 0] for a in table.numbers for b in table.numbers}


def _fact_filter(table: Table) -> Q:
    low, high = table.numbers[0], table.numbers[-1]
    return Q(
        operation=table.operation,
        first__gte=low,
        first__lte=high,
        second__gte=low,
        second__lte=high,
        third__isnull=True,
    )


def _with_operands(query):
    return query.annotate(
        first=Cast(KT("operands__0"), IntegerField()),
        second=Cast(KT("operands__1"), IntegerField()),
        third=KT("operands__2"),
    )


def latest_per_skill(attempts):
    """Each student's ``RECENT_ANSWERS`` newest of ``attempts`` per skill, numbered ``newest``
    (1 the newest): what a level and the list of who is stuck are judged on."""
    return attempts.annotate(
        newest=Window(
            RowNumber(),
            partition_by=[F("user_id"), F("skill")],
            order_by=[F("created_at").desc(), F("id").desc()],
        )
    ).filter(newest__lte=RECENT_ANSWERS)


def class_fact_grids(*, student_ids: list[int], start, end) -> list[Grid]:
    """The class's answers per fact in [start, end): one grouped query per table."""
    grids = []
    for table in TABLES:
        counts = _empty_counts(table)
        if student_ids:
            rows = (
                _with_operands(
                    Attempt.objects.filter(
                        user_id__in=student_ids,
                        created_at__gte=start,
                        created_at__lt=end,
                        operation=table.operation,
                    )
                )
                .filter(_fact_filter(table))
                .values("first", "second")
                .annotate(
                    answers=Count("id"),
                    right=Count("id", filter=Q(correct=True)),
                    fluent=Count("id", filter=Q(correct=True, elapsed_ms__lte=FLUENT_MS)),
                )
                .order_by()
            )
            for row in rows:
                counts[row["first"], row["second"]] = [row["answers"], row["right"], row["fluent"]]
        grids.append(_grid(table, counts, {}))
    return grids


def student_fact_grids(*, student_id: int, start, end) -> list[Grid]:
    """A student's latest ``RECENT_ANSWERS`` answers per fact in [start, end), and the level
    they make: how well the child knows each fact now, where the class's grid sums the period.
    One query: a child's table facts of a period are some hundreds of rows."""
    return fact_grids_by_student(student_ids=[student_id], start=start, end=end).get(
        student_id, _student_grids({})
    )


def fact_grids_by_student(*, student_ids: list[int], start, end) -> dict[int, list[Grid]]:
    """``student_fact_grids`` of several students in one query (the reports)."""
    if not student_ids:
        return {}
    rows = (
        _with_operands(
            Attempt.objects.filter(
                user_id__in=student_ids,
                created_at__gte=start,
                created_at__lt=end,
                operation__in=[table.operation for table in TABLES],
            )
        )
        .filter(_fact_filter(TABLES[0]) | _fact_filter(TABLES[1]))
        .order_by("user_id", "-created_at", "-id")
        .values_list(
            "user_id", "operation", "first", "second", "correct", "elapsed_ms", "game", "created_at"
        )
    )
    times_recall = games_timing_recall()
    answers: dict[int, dict[tuple[str, int, int], list[Answer]]] = defaultdict(
        lambda: defaultdict(list)
    )
    # Per student and fact: the school days with a right, fluent answer, and the latest one.
    fluent_days: dict[int, dict[tuple[str, int, int], set]] = defaultdict(lambda: defaultdict(set))
    last_seen: dict[int, dict[tuple[str, int, int], datetime.date]] = defaultdict(dict)
    for user_id, operation, first, second, correct, elapsed_ms, game, created_at in rows:
        fact = operation, first, second
        day = timezone.localdate(created_at)
        last_seen[user_id].setdefault(fact, day)
        if is_fluent(correct, elapsed_ms):
            fluent_days[user_id][fact].add(day)
        latest = answers[user_id][fact]
        if len(latest) < RECENT_ANSWERS:
            latest.append(Answer(correct, elapsed_ms, times_recall.get(game, True)))
    as_of = _as_of(end)
    return {
        student_id: _student_grids(
            {
                fact: Mastery.of(
                    latest,
                    fluent_days=len(fluent_days[student_id][fact]),
                    last_seen=last_seen[student_id][fact],
                    as_of=as_of,
                )
                for fact, latest in answers.get(student_id, {}).items()
            }
        )
        for student_id in student_ids
    }


def _as_of(end) -> datetime.date:
    """The school day a level is read on: the period's last day, or today while it runs."""
    return timezone.localdate(min(end - datetime.timedelta(microseconds=1), timezone.now()))


def _student_grids(masteries_by_fact: dict[tuple[str, int, int], Mastery]) -> list[Grid]:
    grids = []
    for table in TABLES:
        counts = _empty_counts(table)
        masteries = {}
        for (first, second), cell in counts.items():
            mastery = masteries_by_fact.get((table.operation, first, second))
            if mastery is not None:
                cell[:] = [mastery.answers, mastery.right, mastery.fluent]
                masteries[first, second] = mastery
        grids.append(_grid(table, counts, masteries))
    return grids


def _grid(table: Table, counts, masteries) -> Grid:
    return Grid(
        table,
        [
            [
                Cell(a, b, table.sign, *counts[a, b], mastery=masteries.get((a, b)))
                for b in table.numbers
            ]
            for a in table.numbers
        ],
    )


# --- skills --------------------------------------------------------------------------------------


def student_skill_mastery(*, student_id: int, start, end) -> dict[str, Mastery]:
    """Per skill, the student's level from their latest ``RECENT_ANSWERS`` answers in
    [start, end). One query: a window numbers each skill's answers newest first."""
    return skill_mastery_by_student(student_ids=[student_id], start=start, end=end).get(
        student_id, {}
    )


def skill_mastery_by_student(
    *, student_ids: list[int], start, end
) -> dict[int, dict[str, Mastery]]:
    """``student_skill_mastery`` of several students in one query."""
    if not student_ids:
        return {}
    in_period = Attempt.objects.filter(
        user_id__in=student_ids, created_at__gte=start, created_at__lt=end
    )
    rows = latest_per_skill(in_period).values_list(
        "user_id", "skill", "correct", "elapsed_ms", "game"
    )
    times_recall = games_timing_recall()
    latest: dict[int, dict[str, list[Answer]]] = defaultdict(lambda: defaultdict(list))
    for user_id, skill, correct, elapsed_ms, game in rows:
        latest[user_id][skill].append(Answer(correct, elapsed_ms, times_recall.get(game, True)))
    # The days behind a level are the whole period's, not only the latest answers': a long
    # second lesson must not push the first day's answers out of sight.
    days = (
        in_period.values("user_id", "skill")
        .annotate(
            fluent_days=Count(
                TruncDate("created_at", tzinfo=timezone.get_current_timezone()),
                filter=Q(correct=True, elapsed_ms__lte=FLUENT_MS),
                distinct=True,
            ),
            last_seen=Max("created_at"),
        )
        .order_by()
    )
    seen = {
        (row["user_id"], row["skill"]): (row["fluent_days"], timezone.localdate(row["last_seen"]))
        for row in days
    }
    as_of = _as_of(end)
    return {
        user_id: {
            skill: Mastery.of(
                answers,
                fluent_days=seen[user_id, skill][0],
                last_seen=seen[user_id, skill][1],
                as_of=as_of,
            )
            for skill, answers in skills.items()
        }
        for user_id, skills in latest.items()
    }
