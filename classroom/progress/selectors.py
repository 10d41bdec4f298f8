"""Reads of the accuracy analytics, from the rollups (classroom/progress/models.py says why).

Every selector runs a fixed number of queries whatever the number of students: figures are
grouped in the database and combined here over at most students x weeks x skills rows, into the
values of classroom.progress.figures. A child's own page reads classroom.progress.own; a child's
level at a game, for seating, classroom.progress.levels.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import Q, QuerySet, Sum

from classroom.models import Classroom
from classroom.progress import mastery
from classroom.progress.figures import (
    WEAK_SKILL_MIN_ATTEMPTS,
    Figures,
    MissedFact,
    Period,
    Progress,
    SkillFigures,
    StudentSummary,
    WeekFigures,
    skill_order,
)
from classroom.progress.mastery import (
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
from classroom.progress.numbers import MIN_ANSWERS_TO_JUDGE
from classroom.progress.wording import MISTAKES, WORDED_FIELDS, wording
from classroom.selectors import classroom_roster
from games.catalog import game_title
from games.models import Attempt

MISSED_FACTS = 10
RECENT_MISTAKES = 10
_SUMMED = ("attempts", "correct", "elapsed_ms_sum", *MISTAKE_FIELDS.values())


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
    return sorted(skills.values(), key=lambda s: skill_order(s.skill))


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
    ordered = sorted(operations, key=lambda op: skill_order(f"{op}."))
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
