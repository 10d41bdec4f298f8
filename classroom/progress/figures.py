"""The figures the progress pages and reports show, as plain values: the period they cover,
a class's or a student's answers summed (``Figures``: accuracy, median answer time, slips), by
skill, by week, the most-missed facts, and the whole ``Progress``. classroom.progress.selectors
fills them from the rollups; nothing here queries."""

from __future__ import annotations

import datetime
import operator
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils import timezone

from classroom.progress.mastery import Grid, Mastery
from classroom.progress.models import MISTAKE_FIELDS, TIME_BUCKET_COUNT, TIME_BUCKET_EDGES_MS
from classroom.progress.numbers import judged_percent, tenths_of_a_second, too_few
from classroom.progress.rollup import week_start
from classroom.progress.wording import (
    MISTAKES,
    OPERATIONS,
    RANGES,
    accuracy_text,
    change_text,
    fact_text,
    median_precision_text,
    median_text,
    skill_label,
)

# A student's weakest skill is only named once it rests on enough answers to mean something.
WEAK_SKILL_MIN_ATTEMPTS = 5
_MISTAKE_KEYS = tuple((kind, f"s_{column}") for kind, column in MISTAKE_FIELDS.items())


# --- periods -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    start: datetime.date
    end: datetime.date  # inclusive

    @classmethod
    def last_days(cls, days: int, today: datetime.date | None = None) -> Period:
        today = today or timezone.localdate()
        return cls(today - datetime.timedelta(days=days - 1), today)

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1

    def previous(self) -> Period:
        """The period of the same length just before this one (growth is measured against it)."""
        return Period(
            self.start - datetime.timedelta(days=self.days), self.start - datetime.timedelta(days=1)
        )

    def weeks(self) -> list[datetime.date]:
        """The Mondays of the weeks the period touches, in order."""
        first, last = week_start(self.start), week_start(self.end)
        return [first + datetime.timedelta(weeks=n) for n in range((last - first).days // 7 + 1)]

    def bounds(self) -> tuple[datetime.datetime, datetime.datetime]:
        """[start, end) as aware datetimes of the site's time zone, for raw attempts."""
        tz = timezone.get_current_timezone()
        start = datetime.datetime.combine(self.start, datetime.time.min, tzinfo=tz)
        end = datetime.datetime.combine(
            self.end + datetime.timedelta(days=1), datetime.time.min, tzinfo=tz
        )
        return start, end


# --- figures -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Median:
    """A median answer time read off a histogram: ``ms`` is within ``MEDIAN_BOUND_MS`` or
    ``MEDIAN_BOUND_SHARE`` of the true median, whichever is larger; ``at_least`` when a middle
    answer lies past the last edge, and ``ms`` is then a lower bound."""

    ms: int
    at_least: bool = False


def median_from_histogram(histogram: Iterable[int], total_ms: int | None = None) -> Median | None:
    """The median of the answers counted in ``histogram``: the middle answer's value, or the mean
    of the two middle answers' for an even count (2.1 s and 9.5 s make 5.8 s), each read as the
    middle of its bucket. Of one or two answers the median is their mean, exact when their
    ``total_ms`` is given."""
    counts = list(histogram)
    total = sum(counts)
    if not total:
        return None
    if total <= 2 and total_ms is not None:
        return Median(ms=(2 * total_ms + total) // (2 * total))
    ranks = [(total + 1) // 2, total // 2 + 1]  # 1-based; the same rank twice for an odd count
    values, at_least, seen = [], False, 0
    for index, count in enumerate(counts):
        while ranks and ranks[0] <= seen + count:
            ranks.pop(0)
            low = TIME_BUCKET_EDGES_MS[index - 1] if index else 0
            if index == len(TIME_BUCKET_EDGES_MS):
                values.append(low)
                at_least = True
            else:
                values.append((low + TIME_BUCKET_EDGES_MS[index]) / 2)
        seen += count
    return Median(ms=int(sum(values) / len(values) + 0.5), at_least=at_least)


@dataclass
class Figures:
    attempts: int = 0
    correct: int = 0
    elapsed_ms_sum: int = 0
    mistakes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MISTAKE_FIELDS, 0))
    histogram: list[int] = field(default_factory=lambda: [0] * TIME_BUCKET_COUNT)

    def add_row(self, row: dict) -> None:
        """Adds a row of summed rollup columns (``s_<column>``) and its ``histogram``, bucket by
        bucket in C (a row is added to several figures: its student's, its skill's, the
        class's)."""
        self.attempts += row["s_attempts"] or 0
        self.correct += row["s_correct"] or 0
        self.elapsed_ms_sum += row["s_elapsed_ms_sum"] or 0
        for kind, key in _MISTAKE_KEYS:
            self.mistakes[kind] += row[key] or 0
        self.histogram = list(map(operator.add, self.histogram, row["histogram"]))

    def add(self, other: Figures) -> None:
        self.attempts += other.attempts
        self.correct += other.correct
        self.elapsed_ms_sum += other.elapsed_ms_sum
        for kind, count in other.mistakes.items():
            self.mistakes[kind] += count
        self.histogram = list(map(operator.add, self.histogram, other.histogram))

    @property
    def wrong(self) -> int:
        return self.attempts - self.correct

    @property
    def accuracy(self) -> float | None:
        """Right answers / answers, 0..1; None without answers."""
        return self.correct / self.attempts if self.attempts else None

    @property
    def too_few(self) -> bool:
        return too_few(self.attempts)

    @property
    def accuracy_percent(self) -> int | None:
        """None without answers or with too few to judge (``numbers``)."""
        return judged_percent(self.correct, self.attempts)

    @property
    def median(self) -> Median | None:
        return median_from_histogram(self.histogram, self.elapsed_ms_sum)

    @property
    def median_ms(self) -> int | None:
        median = self.median
        return None if median is None else median.ms

    @property
    def median_seconds(self) -> float | None:
        median = self.median_ms
        return None if median is None else tenths_of_a_second(median)

    @property
    def accuracy_text(self) -> str:
        return accuracy_text(self.correct, self.attempts)

    @property
    def median_text(self) -> str:
        median = self.median
        return median_text(self.median_seconds, at_least=median is not None and median.at_least)

    def mistake_rows(self) -> list[MistakeCount]:
        return [MistakeCount(kind, MISTAKES[kind], n) for kind, n in self.mistakes.items()]


@dataclass(frozen=True)
class MistakeCount:
    kind: str
    label: str
    count: int


@dataclass
class SkillFigures:
    skill: str
    operation: str
    range: str
    figures: Figures = field(default_factory=Figures)
    mastery: Mastery | None = None  # a student's, from their latest answers on it
    # (right, answers) on the skill in the period before, of the same length
    previous: tuple[int, int] = (0, 0)

    @property
    def label(self) -> str:
        return skill_label(self.skill)

    @property
    def change_points(self) -> int | None:
        """The accuracy's change against the period before, in percentage points; None unless
        both periods have enough answers to judge."""
        before = judged_percent(*self.previous)
        now = self.figures.accuracy_percent
        return None if before is None or now is None else now - before

    @property
    def change_text(self) -> str:
        return change_text(self.change_points, self.previous[1])


@dataclass
class WeekFigures:
    week: datetime.date
    figures: Figures = field(default_factory=Figures)
    by_operation: dict[str, Figures] = field(default_factory=dict)


@dataclass(frozen=True)
class MissedFact:
    fact: str
    operation: str
    misses: int

    @property
    def text(self) -> str:
        return fact_text(self.fact)


@dataclass
class StudentSummary:
    student: object
    figures: Figures = field(default_factory=Figures)
    skills: list[SkillFigures] = field(default_factory=list)

    @property
    def weakest_skill(self) -> SkillFigures | None:
        judged = [s for s in self.skills if s.figures.attempts >= WEAK_SKILL_MIN_ATTEMPTS]
        if not judged:
            return None
        return min(judged, key=lambda s: (s.figures.accuracy, skill_order(s.skill)))


@dataclass
class Progress:
    """The figures of a class or of one student over a period."""

    period: Period
    total: Figures
    skills: list[SkillFigures]
    weeks: list[WeekFigures]
    missed_facts: list[MissedFact]
    operations: list[str]  # the operations present, in display order (the trend's lines)
    students: list[StudentSummary] = field(default_factory=list)
    recent_mistakes: list = field(default_factory=list)
    fact_grids: list[Grid] = field(default_factory=list)

    @property
    def median_precision(self) -> str:
        return median_precision_text()


def skill_order(skill: str) -> tuple[int, int, str]:
    """Skills in display order: by operation, then number range, then name."""
    operation, _dot, band = skill.partition(".")
    return (
        list(OPERATIONS).index(operation) if operation in OPERATIONS else len(OPERATIONS),
        list(RANGES).index(band) if band in RANGES else len(RANGES),
        skill,
    )
