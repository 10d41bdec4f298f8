"""Reads of the accuracy analytics, from the rollups (classroom/progress/models.py says why).

Every selector runs a fixed number of queries whatever the number of students: figures are
grouped in the database and combined here over at most students x weeks x skills rows.
"""

from __future__ import annotations

import datetime
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from classroom.models import Classroom
from classroom.progress.models import (
    MISTAKE_FIELDS,
    TIME_BUCKET_COUNT,
    TIME_BUCKET_EDGES_MS,
    TIME_BUCKET_FIELDS,
    FactMissDay,
    FactMissWeek,
    SkillDay,
    SkillWeek,
)
from classroom.progress.rollup import week_start
from classroom.selectors import classroom_roster
from games.models import Attempt

OPERATIONS = {
    "add": _("Addition"),
    "sub": _("Subtraction"),
    "mul": _("Multiplication"),
    "div": _("Division"),
    "mixed": _("Mixed operations"),
}
RANGES = {
    "within10": _("within 10"),
    "within20": _("within 20"),
    "within100": _("within 100"),
    "over100": _("over 100"),
}
MISTAKES = {
    "off_by_one": _("Off by one"),
    "off_by_ten": _("Off by ten"),
    "wrong_operation": _("Wrong operation"),
    "reversed_digits": _("Digits swapped"),
    "other": _("Other slips"),
}
SIGNS = {"+": "+", "-": "−", "x": "×", "÷": "÷"}
# A student's weakest skill is only named once it rests on enough answers to mean something.
WEAK_SKILL_MIN_ATTEMPTS = 5
MISSED_FACTS = 10
RECENT_MISTAKES = 10
_SUMMED = ("attempts", "correct", "elapsed_ms_sum", *MISTAKE_FIELDS.values(), *TIME_BUCKET_FIELDS)
_FACT = re.compile(r"^(-?\d+)([+\-x÷])(-?\d+)$")


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


def median_from_histogram(histogram: Iterable[int]) -> float | None:
    """The median answer time read off bucket counts: the bucket holding the middle answer, and
    within it a straight line (answers spread evenly across the bucket). In the open last bucket
    it is that bucket's lower edge."""
    counts = list(histogram)
    total = sum(counts)
    if not total:
        return None
    middle = total / 2
    seen = 0
    for index, count in enumerate(counts):
        if count and seen + count >= middle:
            low = TIME_BUCKET_EDGES_MS[index - 1] if index else 0
            if index == len(TIME_BUCKET_EDGES_MS):
                return float(low)
            high = TIME_BUCKET_EDGES_MS[index]
            return low + (high - low) * (middle - seen) / count
        seen += count
    return None  # unreachable: the counts add up to total


@dataclass
class Figures:
    attempts: int = 0
    correct: int = 0
    elapsed_ms_sum: int = 0
    mistakes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MISTAKE_FIELDS, 0))
    histogram: list[int] = field(default_factory=lambda: [0] * TIME_BUCKET_COUNT)

    def add_row(self, row: dict) -> None:
        """Adds a row of summed rollup columns (``s_<column>``)."""
        self.attempts += row["s_attempts"] or 0
        self.correct += row["s_correct"] or 0
        self.elapsed_ms_sum += row["s_elapsed_ms_sum"] or 0
        for kind, column in MISTAKE_FIELDS.items():
            self.mistakes[kind] += row[f"s_{column}"] or 0
        for index, column in enumerate(TIME_BUCKET_FIELDS):
            self.histogram[index] += row[f"s_{column}"] or 0

    def add(self, other: Figures) -> None:
        self.attempts += other.attempts
        self.correct += other.correct
        self.elapsed_ms_sum += other.elapsed_ms_sum
        for kind, count in other.mistakes.items():
            self.mistakes[kind] += count
        for index, count in enumerate(other.histogram):
            self.histogram[index] += count

    @property
    def wrong(self) -> int:
        return self.attempts - self.correct

    @property
    def accuracy(self) -> float | None:
        """Right answers / answers, 0..1; None without answers."""
        return self.correct / self.attempts if self.attempts else None

    @property
    def accuracy_percent(self) -> int | None:
        return None if self.accuracy is None else round(self.accuracy * 100)

    @property
    def median_ms(self) -> int | None:
        median = median_from_histogram(self.histogram)
        return None if median is None else round(median)

    @property
    def median_seconds(self) -> float | None:
        median = self.median_ms
        return None if median is None else round(median / 1000, 1)

    @property
    def accuracy_text(self) -> str:
        return "—" if self.accuracy is None else f"{self.accuracy_percent}%"

    @property
    def median_text(self) -> str:
        return seconds_text(self.median_seconds)

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

    @property
    def label(self) -> str:
        return skill_label(self.skill)


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
        return min(judged, key=lambda s: (s.figures.accuracy, _skill_order(s.skill)))


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


# --- labels --------------------------------------------------------------------------------------


def _skill_order(skill: str) -> tuple[int, int, str]:
    operation, _dot, band = skill.partition(".")
    return (
        list(OPERATIONS).index(operation) if operation in OPERATIONS else len(OPERATIONS),
        list(RANGES).index(band) if band in RANGES else len(RANGES),
        skill,
    )


def skill_label(skill: str) -> str:
    operation, _dot, band = skill.partition(".")
    return f"{OPERATIONS.get(operation, operation)} {RANGES.get(band, band)}".strip()


def seconds_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return gettext("%(seconds)s s") % {"seconds": number_format(seconds, 1)}


def operation_label(operation: str) -> str:
    return str(OPERATIONS.get(operation, operation))


def fact_text(fact: str) -> str:
    found = _FACT.match(fact)
    if not found:
        return fact
    left, sign, right = found.groups()
    return f"{left} {SIGNS[sign]} {right}"


# --- queries -------------------------------------------------------------------------------------


def _summed(sources, *group) -> list[dict]:
    """Sums of the rollup columns grouped by ``group``, over each source in turn: a group may come
    twice (from the weeks and from the days), and the callers add rows up anyway."""
    sums = {f"s_{c}": Sum(c) for c in _SUMMED}
    return [row for rows in sources for row in rows.values(*group).annotate(**sums).order_by()]


def _whole_weeks(period: Period):
    """The Mondays of the first and last whole weeks inside the period (None if it has none),
    and the day ranges before and after them."""
    first_monday = period.start + datetime.timedelta(days=-period.start.weekday() % 7)
    last_sunday = period.end - datetime.timedelta(days=(period.end.weekday() + 1) % 7)
    if first_monday > last_sunday:
        return None, [(period.start, period.end)]
    edges = []
    if period.start < first_monday:
        edges.append((period.start, first_monday - datetime.timedelta(days=1)))
    if last_sunday < period.end:
        edges.append((last_sunday + datetime.timedelta(days=1), period.end))
    return (first_monday, last_sunday - datetime.timedelta(days=6)), edges


def _in_period(day_model, week_model, period: Period, students) -> list:
    """The rollup rows that make up the period: whole weeks from the weekly table, the days
    around them from the daily one (one or two querysets; at most 12 days come from days).
    ``students`` is a student id, a list of ids or a queryset of ids."""
    weeks, edges = _whole_weeks(period)
    by_student = Q(student_id=students) if isinstance(students, int) else Q(student_id__in=students)
    sources = []
    if weeks is not None:
        sources.append(
            week_model.objects.filter(by_student, week__gte=weeks[0], week__lte=weeks[1])
        )
    if edges:
        days = Q()
        for first, last in edges:
            days |= Q(day__gte=first, day__lte=last)
        sources.append(day_model.objects.filter(by_student, days))
    return sources


def _skill_rows(period: Period, students, *group) -> list[dict]:
    return _summed(_in_period(SkillDay, SkillWeek, period, students), *group)


def _fact_rows(period: Period, students, *group) -> dict[tuple, int]:
    """Misses per ``group`` (which ends with fact and operation) over the period."""
    totals: dict[tuple, int] = defaultdict(int)
    for rows in _in_period(FactMissDay, FactMissWeek, period, students):
        for row in rows.values(*group).annotate(total=Sum("misses")).order_by():
            totals[tuple(row[key] for key in group)] += row["total"]
    return totals


def _most_missed(totals: dict[tuple, int], limit: int) -> list[MissedFact]:
    """The facts of ``totals`` ((..., fact, operation) -> misses), most misses first."""
    ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0][-2]))
    return [MissedFact(key[-2], key[-1], total) for key, total in ranked[:limit]]


def _skills_of(rows: Iterable[dict]) -> list[SkillFigures]:
    skills: dict[str, SkillFigures] = {}
    for row in rows:
        skill = skills.get(row["skill"])
        if skill is None:
            skill = skills[row["skill"]] = SkillFigures(
                row["skill"], row["operation"], row["skill"].partition(".")[2]
            )
        skill.figures.add_row(row)
    return sorted(skills.values(), key=lambda s: _skill_order(s.skill))


def _weeks_of(period: Period, rows: Iterable[dict]) -> tuple[list[WeekFigures], list[str]]:
    weeks = {monday: WeekFigures(monday) for monday in period.weeks()}
    operations = set()
    for row in rows:
        week = weeks.get(row["week"])
        if week is None:  # a week_start outside the period cannot come back from the filter
            continue
        operations.add(row["operation"])
        week.figures.add_row(row)
        week.by_operation.setdefault(row["operation"], Figures()).add_row(row)
    ordered = sorted(operations, key=lambda op: _skill_order(f"{op}."))
    return list(weeks.values()), ordered


def class_progress(*, classroom: Classroom, period: Period) -> Progress:
    """A class over a period: totals, per skill, per student, week by week, most-missed facts.
    At most seven queries (the roster, then each kind of figure from the weeks and from the days
    around them), whatever the size of the class."""
    roster = list(classroom_roster(classroom=classroom))
    # A subquery rather than a list of ids: one statement shape, whatever the class size.
    student_ids = classroom_roster(classroom=classroom).values("student_id")
    summaries = {e.student_id: StudentSummary(e.student) for e in roster}
    per_student_skill = _skill_rows(period, student_ids, "student_id", "skill", "operation")
    total = Figures()
    for row in per_student_skill:
        summary = summaries.get(row["student_id"])
        if summary is None:  # left the class between the two queries
            continue
        summary.figures.add_row(row)
        total.add_row(row)
    for student_id, rows in _group(per_student_skill, "student_id").items():
        if student_id in summaries:
            summaries[student_id].skills = _skills_of(rows)
    skills = _skills_of(row for row in per_student_skill if row["student_id"] in summaries)
    weeks, operations = _weeks_of(period, _skill_rows(period, student_ids, "week", "operation"))
    return Progress(
        period=period,
        total=total,
        skills=skills,
        weeks=weeks,
        missed_facts=_most_missed(
            _fact_rows(period, student_ids, "fact", "operation"), MISSED_FACTS
        ),
        operations=operations,
        students=list(summaries.values()),
    )


def student_progress(*, student, period: Period) -> Progress:
    """One student over a period, with their latest wrong answers. At most seven queries."""
    skills = _skills_of(_skill_rows(period, student.pk, "skill", "operation"))
    total = Figures()
    for skill in skills:
        total.add(skill.figures)
    weeks, operations = _weeks_of(period, _skill_rows(period, student.pk, "week", "operation"))
    start, end = period.bounds()
    recent = list(
        Attempt.objects.filter(
            user=student, correct=False, created_at__gte=start, created_at__lt=end
        )
        .only("operands", "operator", "answer", "expected", "mistake", "skill", "created_at")
        .order_by("-created_at", "-id")[:RECENT_MISTAKES]
    )
    return Progress(
        period=period,
        total=total,
        skills=skills,
        weeks=weeks,
        missed_facts=_most_missed(
            _fact_rows(period, student.pk, "fact", "operation"), MISSED_FACTS
        ),
        operations=operations,
        recent_mistakes=[RecentMistake.of(attempt) for attempt in recent],
    )


@dataclass(frozen=True)
class RecentMistake:
    when: datetime.datetime
    text: str  # "8 + 5 = 12"
    expected: int | None
    kind: str

    @classmethod
    def of(cls, attempt: Attempt) -> RecentMistake:
        operands = attempt.operands if isinstance(attempt.operands, list) else []
        sign = f" {SIGNS.get(attempt.operator, attempt.operator)} "
        left = sign.join(str(n) for n in operands) or "?"
        answer = "?" if attempt.answer is None else attempt.answer
        return cls(
            when=attempt.created_at,
            text=f"{left} = {answer}",
            expected=attempt.expected,
            kind=str(MISTAKES.get(attempt.mistake or "other", MISTAKES["other"])),
        )


@dataclass
class StudentReport:
    student: object
    progress: Progress


def report_progress(*, classroom: Classroom, period: Period, facts_per_student: int = 5):
    """Everything a class report needs: the class's progress and each student's, in at most eleven
    queries (the per-student figures are grouped by student in the database, not fetched one by
    one)."""
    summary = class_progress(classroom=classroom, period=period)
    student_ids = [s.student.pk for s in summary.students]
    weekly_rows = _group(
        _skill_rows(period, student_ids, "student_id", "week", "operation"), "student_id"
    )
    fact_totals: dict[int, dict] = defaultdict(dict)
    for key, total in _fact_rows(period, student_ids, "student_id", "fact", "operation").items():
        fact_totals[key[0]][key] = total
    reports = []
    for student_summary in summary.students:
        student_id = student_summary.student.pk
        weeks, operations = _weeks_of(period, weekly_rows.get(student_id, []))
        facts = _most_missed(fact_totals.get(student_id, {}), facts_per_student)
        reports.append(
            StudentReport(
                student_summary.student,
                Progress(
                    period=period,
                    total=student_summary.figures,
                    skills=student_summary.skills,
                    weeks=weeks,
                    missed_facts=facts,
                    operations=operations,
                ),
            )
        )
    return summary, reports


def _group(rows: Iterable[dict], key: str) -> dict:
    grouped = defaultdict(list)
    for row in rows:
        grouped[row[key]].append(row)
    return grouped


def classes_with_activity(*, period: Period) -> list[Classroom]:
    """Classes in which at least one enrolled student answered something in the period."""
    active_students = SkillDay.objects.filter(day__gte=period.start, day__lte=period.end).values(
        "student_id"
    )
    return list(
        Classroom.objects.filter(enrollments__student_id__in=active_students)
        .distinct()
        .order_by("pk")
    )
