"""Reads of the accuracy analytics, from the rollups (classroom/progress/models.py says why).

Every selector runs a fixed number of queries whatever the number of students: figures are
grouped in the database and combined here over at most students x weeks x skills rows.
"""

from __future__ import annotations

import dataclasses
import datetime
import operator
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q, QuerySet, Sum
from django.utils import timezone

from classroom.models import Classroom
from classroom.progress import mastery
from classroom.progress.mastery import (
    Grid,
    Level,
    Mastery,
    class_fact_grids,
    fact_grids_by_student,
    skill_mastery_by_student,
    student_fact_grids,
    student_skill_mastery,
)
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
from classroom.progress.numbers import (
    MIN_ANSWERS_TO_JUDGE,
    judged_percent,
    tenths_of_a_second,
    too_few,
)
from classroom.progress.rollup import week_start
from classroom.progress.wording import (
    MISTAKES,
    OPERATIONS,
    RANGES,
    WORDED_FIELDS,
    accuracy_text,
    change_text,
    fact_text,
    known_fact_text,
    median_precision_text,
    median_text,
    skill_label,
    wording,
)
from classroom.selectors import classroom_roster
from games.catalog import game_title
from games.models import Attempt

# A student's weakest skill is only named once it rests on enough answers to mean something.
WEAK_SKILL_MIN_ATTEMPTS = 5
MISSED_FACTS = 10
RECENT_MISTAKES = 10
_MISTAKE_KEYS = tuple((kind, f"s_{column}") for kind, column in MISTAKE_FIELDS.items())
_SUMMED = ("attempts", "correct", "elapsed_ms_sum", *MISTAKE_FIELDS.values())


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
    fact_grids: list[Grid] = field(default_factory=list)

    @property
    def median_precision(self) -> str:
        return median_precision_text()


# --- order ---------------------------------------------------------------------------------------


def _skill_order(skill: str) -> tuple[int, int, str]:
    operation, _dot, band = skill.partition(".")
    return (
        list(OPERATIONS).index(operation) if operation in OPERATIONS else len(OPERATIONS),
        list(RANGES).index(band) if band in RANGES else len(RANGES),
        skill,
    )


# --- queries -------------------------------------------------------------------------------------


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
    """The summed skill counts per ``group`` over the period, as dicts of ``s_<column>``, each
    with its summed answer-time ``histogram``. One statement whatever the period, so the counts
    and the histograms are one snapshot (answers committed meanwhile are in both or in neither):
    the counts summed per ``group`` and the answer times per ``group`` and bucket, each over the
    whole weeks' rows and the days' around them (``_summed_sql``), then the two sums one after
    the other, the counts with no bucket and the answer times with no counts. Each is summed on
    its own narrow rows: summed together, PostgreSQL sorted the answer times' hundred thousand
    rows as wide as the counts' on disk, four times as slow (docs/capacity.md)."""
    weeks, edges = _whole_weeks(period)
    quote = connection.ops.quote_name
    counts_sql, counts_params = _summed_sql(
        SkillWeek, SkillDay, weeks, edges, students, group, _SUMMED
    )
    times_sql, times_params = _summed_sql(
        AnswerTimesWeek, AnswerTimesDay, weeks, edges, students, (*group, "bucket"), ("answers",)
    )
    grouped = ", ".join(quote(c) for c in group)
    nothing = "CAST(NULL AS BIGINT)"
    sql = (
        f"WITH counts AS ({counts_sql}), times AS ({times_sql}) "
        f"SELECT {grouped}, {nothing}, {', '.join(quote(c) for c in _SUMMED)}, {nothing} "
        f"FROM counts UNION ALL "
        f"SELECT {grouped}, {quote('bucket')}, {', '.join([nothing] * len(_SUMMED))}, "
        f"{quote('answers')} FROM times"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*counts_params, *times_params])
        summed = cursor.fetchall()
    counts, histograms = {}, defaultdict(lambda: [0] * TIME_BUCKET_COUNT)
    for row in summed:
        key, bucket = row[: len(group)], row[len(group)]
        *summed_counts, answers = row[len(group) + 1 :]
        if bucket is None:
            counts[key] = summed_counts
        else:
            histograms[key][bucket] = answers
    names = (*group, *(f"s_{column}" for column in _SUMMED))
    rows = [
        {**dict(zip(names, (*key, *sums), strict=True)), "histogram": histograms[key]}
        for key, sums in counts.items()
    ]
    if "week" in group:  # SQLite hands dates back as text
        for row in rows:
            if isinstance(row["week"], str):
                row["week"] = datetime.date.fromisoformat(row["week"])
    return rows


def _summed_sql(week_model, day_model, weeks, edges, students, group, sums) -> tuple[str, list]:
    """A query of ``sums`` summed per ``group`` (each sum named as its column) over the whole
    ``weeks`` (first and last Monday) of ``week_model`` and the days of ``edges`` of
    ``day_model``, with its parameters."""
    quote = connection.ops.quote_name
    where_students, student_params = _students_sql(students)
    columns = ", ".join(quote(c) for c in (*group, *sums))
    parts, params = [], []
    if weeks is not None:
        parts.append(
            f"SELECT {columns} FROM {quote(week_model._meta.db_table)} "
            f'WHERE {where_students} AND "week" >= %s AND "week" <= %s'
        )
        params += [*student_params, weeks[0], weeks[1]]
    if edges:
        ranges = " OR ".join(['("day" >= %s AND "day" <= %s)'] * len(edges))
        parts.append(
            f"SELECT {columns} FROM {quote(day_model._meta.db_table)} "
            f"WHERE {where_students} AND ({ranges})"
        )
        params += [*student_params, *(day for edge in edges for day in edge)]
    grouped = ", ".join(quote(c) for c in group)
    # PostgreSQL sums a bigint as numeric (a Decimal here); the counts are whole numbers
    summed = ", ".join(f"CAST(SUM({quote(c)}) AS BIGINT) AS {quote(c)}" for c in sums)
    sql = (
        f"SELECT {grouped}, {summed} FROM ({' UNION ALL '.join(parts)}) AS period_rows "
        f"GROUP BY {grouped}"
    )
    return sql, params


def _students_sql(students) -> tuple[str, list]:
    """``students`` (an id, a list of ids or a query of ids) as a condition on student_id."""
    column = connection.ops.quote_name("student_id")
    if isinstance(students, int):
        return f"{column} = %s", [students]
    if isinstance(students, QuerySet):
        sql, params = students.query.sql_with_params()
        return f"{column} IN ({sql})", list(params)
    students = list(students)
    if not students:
        return "1 = 0", []
    return f"{column} IN ({', '.join(['%s'] * len(students))})", students


def _previous_accuracy(period: Period, students) -> dict[str, tuple[int, int]]:
    """(right, answers) per skill over the period before ``period``: two light queries (only the
    two counts are summed)."""
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for rows in _in_period(SkillDay, SkillWeek, period.previous(), students):
        summed = rows.values("skill").annotate(right=Sum("correct"), answers=Sum("attempts"))
        for row in summed.order_by():
            total = totals[row["skill"]]
            total[0] += row["right"] or 0
            total[1] += row["answers"] or 0
    return {skill: (right, answers) for skill, (right, answers) in totals.items()}


def _with_growth(skills: list[SkillFigures], previous: dict[str, tuple[int, int]]) -> None:
    for skill in skills:
        skill.previous = previous.get(skill.skill, (0, 0))


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
    """A class over a period: totals, per skill (with its change since the period before), per
    student, week by week, most-missed facts. At most seven queries whatever the size of the
    class: the roster, the figures per student and skill and per week (one statement each), the
    skills' counts of the period before and the missed facts (each from the weeks and from the
    days around them)."""
    roster = list(classroom_roster(classroom=classroom, with_accommodations=True))
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
    _with_growth(skills, _previous_accuracy(period, student_ids))
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
    """One student over a period, with their latest wrong answers, their level and change per
    skill and their fact grids. At most ten queries."""
    skills = _skills_of(_skill_rows(period, student.pk, "skill", "operation"))
    total = Figures()
    for skill in skills:
        total.add(skill.figures)
    weeks, operations = _weeks_of(period, _skill_rows(period, student.pk, "week", "operation"))
    start, end = period.bounds()
    masteries = student_skill_mastery(student_id=student.pk, start=start, end=end)
    for skill in skills:
        skill.mastery = masteries.get(skill.skill)
    _with_growth(skills, _previous_accuracy(period, student.pk))
    recent = list(
        Attempt.objects.filter(
            user=student, correct=False, created_at__gte=start, created_at__lt=end
        )
        .only(*WORDED_FIELDS, "mistake", "created_at")
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
        fact_grids=student_fact_grids(student_id=student.pk, start=start, end=end),
    )


@dataclass(frozen=True)
class RecentMistake:
    when: datetime.datetime
    game: str  # the game's title
    did: str  # "Claimed 5 + 9 for the 1": what the child did, as at the table (``wording``)
    right: str  # "5 + 9 makes 14"
    kind: str

    @classmethod
    def of(cls, attempt: Attempt) -> RecentMistake:
        worded = wording(attempt)
        return cls(
            when=attempt.created_at,
            game=game_title(attempt.game),
            did=worded.did,
            right=worded.right,
            kind=str(MISTAKES.get(attempt.mistake or "other", MISTAKES["other"])),
        )


def student_attempts(*, student):
    """All of a student's attempts, oldest first, streamed from the database."""
    return (
        Attempt.objects.filter(user=student)
        .only(*WORDED_FIELDS, "correct", "elapsed_ms", "skill", "mistake", "created_at")
        .order_by("created_at", "id")
        .iterator(chunk_size=2000)
    )


@dataclass
class StudentReport:
    student: object
    progress: Progress


# A student's most-missed facts in a report.
REPORT_MISSED_FACTS = 5


def report_settings(*, classroom: Classroom) -> dict:
    """Everything a class's report rests on besides its answers, period and language, as it is
    now: the school's zone (its days), the rules the figures are made by (the mastery model's
    thresholds, which games time recall, the answer-time buckets, how much is listed) and the
    class as the report names it. One query, the roster's."""
    roster = classroom_roster(classroom=classroom).values_list(
        "student_id",
        "student__display_name",
        "student__first_name",
        "student__last_name",
        "student__username",
        "student__accommodations__public_name",
    )
    return {
        "zone": classroom.teacher.zone.key,
        "rules": {
            "fluent_ms": mastery.FLUENT_MS,
            "recent_answers": mastery.RECENT_ANSWERS,
            "mastery_days": mastery.MASTERY_DAYS,
            "review_after_days": mastery.REVIEW_AFTER_DAYS,
            "fluent_mostly_percent": mastery.FLUENT_MOSTLY_PERCENT,
            "judged_from": MIN_ANSWERS_TO_JUDGE,
            "weak_skill_from": WEAK_SKILL_MIN_ATTEMPTS,
            "missed_facts": [MISSED_FACTS, REPORT_MISSED_FACTS],
            "times_recall": sorted(mastery.games_timing_recall().items()),
            "time_buckets_ms": list(TIME_BUCKET_EDGES_MS),
        },
        "roster": [list(row) for row in roster],
    }


def report_progress(
    *, classroom: Classroom, period: Period, facts_per_student: int = REPORT_MISSED_FACTS
):
    """Everything a class report needs: the class's progress and fact grids, and each student's
    figures, levels and fact grids, in at most fifteen queries (the per-student figures are
    grouped by student in the database, not fetched one by one)."""
    summary = class_progress(classroom=classroom, period=period)
    student_ids = [s.student.pk for s in summary.students]
    start, end = period.bounds()
    summary.fact_grids = class_fact_grids(student_ids=student_ids, start=start, end=end)
    masteries = skill_mastery_by_student(student_ids=student_ids, start=start, end=end)
    grids = fact_grids_by_student(student_ids=student_ids, start=start, end=end)
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
        levels = masteries.get(student_id, {})
        skills = [
            dataclasses.replace(skill, mastery=levels.get(skill.skill))
            for skill in student_summary.skills
        ]
        reports.append(
            StudentReport(
                student_summary.student,
                Progress(
                    period=period,
                    total=student_summary.figures,
                    skills=skills,
                    weeks=weeks,
                    missed_facts=facts,
                    operations=operations,
                    fact_grids=grids.get(student_id, []),
                ),
            )
        )
    return summary, reports


def _group(rows: Iterable[dict], key: str) -> dict:
    grouped = defaultdict(list)
    for row in rows:
        grouped[row[key]].append(row)
    return grouped


def classes_with_activity(*, period: Period, teacher_time_zone: str | None = None):
    """Classes in which at least one enrolled student answered something in the period (days at
    the school); only those of teachers in ``teacher_time_zone`` when given."""
    active_students = SkillDay.objects.filter(day__gte=period.start, day__lte=period.end).values(
        "student_id"
    )
    classes = Classroom.objects.filter(enrollments__student_id__in=active_students)
    if teacher_time_zone is not None:
        classes = classes.filter(teacher__time_zone=teacher_time_zone)
    return list(classes.distinct().order_by("pk"))


# --- a child's own page --------------------------------------------------------------------------

# A child's "facts I know" look back this far: a fact unseen for a month is due for review anyway.
OWN_LOOK_BACK_DAYS = 120


@dataclass(frozen=True)
class BestDay:
    day: datetime.date
    right: int


@dataclass
class OwnProgress:
    """What a child sees of their own progress (docs/progress.md, "The child's own page"): only
    their own answers, never a classmate's or the class's."""

    week_start: datetime.date
    today: datetime.date
    stars: list[datetime.date]  # the days of this week with at least one right answer
    right_this_week: int
    right_today: int
    learned_this_week: list[str]  # "3 + 4 = 7": known by heart now and not at the week's start
    known: int  # facts known by heart now
    best: BestDay | None  # the day with most right answers, ever (today counts)

    @property
    def week(self) -> list[tuple[datetime.date, bool, bool]]:
        """Monday to Sunday: (day, a star, still to come)."""
        days = [self.week_start + datetime.timedelta(days=n) for n in range(7)]
        return [(day, day in self.stars, day > self.today) for day in days]

    @property
    def best_today(self) -> bool:
        """Today is the best day yet (and beats every earlier day, not only ties it)."""
        return bool(self.best and self.best.day == self.today and self.right_today)


def _known_facts(student_id: int, start, end) -> dict[str, tuple[str, int, int]]:
    """The facts (as "3 + 4") the student knows by heart as of ``end``: mastered."""
    known = {}
    for grid in student_fact_grids(student_id=student_id, start=start, end=end):
        for row in grid.rows:
            for cell in row:
                if cell.mastery is not None and cell.mastery.level == Level.MASTERED:
                    known[cell.fact] = (grid.table.operation, cell.first, cell.second)
    return known


def own_progress(*, student, today: datetime.date | None = None) -> OwnProgress:
    """A child's week: a star for each day they answered right, the facts they came to know by
    heart this week, and their best day. Five queries, all on the child's own rows."""
    today = today or timezone.localdate()
    monday = week_start(today)
    days = dict(
        SkillDay.objects.filter(student=student)
        .values("day")
        .annotate(right=Sum("correct"))
        .order_by()
        .values_list("day", "right")
    )
    best = None
    for day, right in sorted(days.items()):
        # The earliest day of the highest count: a later tie is not a new best.
        if right and (best is None or right > best.right):
            best = BestDay(day, right)
    tz = timezone.get_current_timezone()
    look_back = datetime.datetime.combine(
        today - datetime.timedelta(days=OWN_LOOK_BACK_DAYS), datetime.time.min, tzinfo=tz
    )
    week_began = datetime.datetime.combine(monday, datetime.time.min, tzinfo=tz)
    tomorrow = datetime.datetime.combine(
        today + datetime.timedelta(days=1), datetime.time.min, tzinfo=tz
    )
    known_now = _known_facts(student.pk, look_back, tomorrow)
    known_before = _known_facts(student.pk, look_back, week_began)
    learned = sorted(
        (operands for fact, operands in known_now.items() if fact not in known_before),
    )
    this_week = {day: right for day, right in days.items() if monday <= day <= today and right}
    return OwnProgress(
        week_start=monday,
        today=today,
        stars=sorted(this_week),
        right_this_week=sum(this_week.values()),
        right_today=days.get(today) or 0,
        learned_this_week=[known_fact_text(*operands) for operands in learned],
        known=len(known_now),
        best=best,
    )


# --- levels for seating (classroom.sessions: "seat children of similar level together") ---------

# How far back a child's answers count for their level at a game: a school term.
GAME_LEVEL_DAYS = 120


@dataclass(frozen=True, order=True)
class GameLevel:
    """A child's level at a game's skills: the mean mastery level (0 not started .. 4 mastered)
    of the skills the class has answered in that game, then the share of right answers among
    their latest answers on them (ties of level). Higher is stronger."""

    mean_level: float
    accuracy: float


def levels_in_game(*, student_ids: list[int], game: str, now=None) -> dict[int, GameLevel]:
    """Each child's ``GameLevel`` at ``game``'s skills, from their latest answers on those skills
    in the last ``GAME_LEVEL_DAYS`` days (in any game: a fact is the same fact everywhere). The
    game's skills are those the class answered in it; a class that never played it is read on
    every skill. A child with no answers on them has no entry. Three queries for the class."""
    if not student_ids:
        return {}
    end = now or timezone.now()
    start = end - datetime.timedelta(days=GAME_LEVEL_DAYS)
    skills = set(
        Attempt.objects.filter(
            user_id__in=student_ids, game=game, created_at__gte=start, created_at__lt=end
        )
        .values_list("skill", flat=True)
        .distinct()
    )
    masteries = skill_mastery_by_student(student_ids=student_ids, start=start, end=end)
    levels: dict[int, GameLevel] = {}
    for student_id, by_skill in masteries.items():
        read = [m for skill, m in by_skill.items() if not skills or skill in skills]
        answers = sum(m.answers for m in read)
        if not answers:
            continue
        levels[student_id] = GameLevel(
            mean_level=sum(int(m.level) for m in read) / len(read),
            accuracy=sum(m.right for m in read) / answers,
        )
    return levels
