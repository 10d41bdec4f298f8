"""What the whole-class export reads (``class_tables``): the class's roster, figures and games,
read once in the school's time zone (``ClassData``), and the rows of each table, a function per
table (``students_rows``, ``answers_rows``...). The answers are streamed from the database in
chunks; the figures come from the same selectors as the report, over the class's whole history.
``class_table_columns`` names each table's columns."""

import datetime
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Count, Max, Min, Q, Subquery
from django.db.models.fields.json import KT
from django.utils import timezone

from classroom.homework.selectors import assignment_report, minutes_asked
from classroom.models import Classroom, SessionPlace
from classroom.progress.activity import HOMEWORK, LESSON, OTHER
from classroom.progress.figures import Figures, Period
from classroom.progress.mastery import FLUENT_MS, TABLES, Mastery
from classroom.progress.models import MISTAKE_FIELDS
from classroom.progress.selectors import report_progress
from classroom.selectors import classroom_roster
from games.models import Attempt, Match

ROWS_PER_CHUNK = 2000


# --- what is read once for every table -----------------------------------------------------------


@dataclass
class MatchRow:
    """A student's answers in one game (match)."""

    student_id: int
    match_id: int
    answers: int
    right: int
    first: datetime.datetime
    last: datetime.datetime
    longest_ms: int

    @property
    def seconds_playing(self) -> int:
        """As the pages count it: first answer to last, or the one answer's time."""
        if self.answers > 1:
            return int((self.last - self.first).total_seconds())
        return self.longest_ms // 1000


@dataclass(frozen=True)
class MatchInfo:
    game: str
    variant: str
    where: str
    session_id: int | None
    assignment_id: int | None
    finished: bool


# A JSON true read as text: PostgreSQL's ->> gives "true", SQLite's gives 1.
_JSON_TRUE = ("true", 1)
# A match deleted between two reads of the export: its answers went with it.
_UNKNOWN_MATCH = MatchInfo("", "", OTHER, None, None, False)


def whole_history(*, classroom: Classroom) -> Period:
    """The class's whole history: from the day of its first answer to today, at the school."""
    zone = classroom.teacher.zone
    students = classroom_roster(classroom=classroom).values("student_id")
    first = Attempt.objects.filter(user_id__in=students).aggregate(first=Min("created_at"))["first"]
    today = timezone.localdate(timezone=zone)
    return Period(min(timezone.localdate(first, timezone=zone), today) if first else today, today)


class ClassData:
    """The class's roster and figures, read once in the school's time zone; the answers
    themselves are read by the answers table as it is written. ``period``: the answers up to its
    last day (the history asked for, when the export is written later); None: all of them."""

    def __init__(self, classroom: Classroom, period: Period | None = None):
        self.classroom = classroom
        # homework_items.csv's rows, kept as homework.csv is written (one read of the reports).
        self.homework_items: list[list] = []
        self.roster = list(classroom_roster(classroom=classroom))
        self.student_ids = [e.student_id for e in self.roster]
        self.period = period or whole_history(classroom=classroom)
        self.until = self.period.bounds()[1]
        attempts = Attempt.objects.filter(user_id__in=self.student_ids, created_at__lt=self.until)
        self.summary, self.reports = report_progress(classroom=classroom, period=self.period)
        self.matches = {
            pk: MatchInfo(
                game,
                variant,
                LESSON if session_id else HOMEWORK if assignment_id else OTHER,
                session_id,
                assignment_id,
                finished_at is not None,
            )
            for pk, game, variant, session_id, assignment_id, finished_at in Match.objects.filter(
                pk__in=Subquery(attempts.values("match_id"))
            ).values_list(
                "pk",
                "game",
                "variant",
                "session_table__session_id",
                "assignment_work__assignment_id",
                "finished_at",
            )
        }
        self.match_rows = [
            MatchRow(
                row["user_id"],
                row["match_id"],
                row["answers"],
                row["right"],
                row["first"],
                row["last"],
                row["longest"],
            )
            for row in attempts.values("user_id", "match_id")
            .annotate(
                answers=Count("id"),
                right=Count("id", filter=Q(correct=True)),
                first=Min("created_at"),
                last=Max("created_at"),
                longest=Max("elapsed_ms"),
            )
            .order_by("user_id", "first", "match_id")
        ]

    def attempts(self):
        return (
            Attempt.objects.filter(user_id__in=self.student_ids, created_at__lt=self.until)
            # Only the one key of the game's extra keys, as text: "true" at a calm table.
            .annotate(calm=KT("detail__calm"))
            .order_by("user_id", "created_at", "id")
            .values_list(
                "pk",
                "user_id",
                "created_at",
                "game",
                "match_id",
                "operation",
                "operator",
                "operands",
                "answer",
                "expected",
                "target",
                "correct",
                "elapsed_ms",
                "skill",
                "mistake",
                "calm",
            )
            .iterator(chunk_size=ROWS_PER_CHUNK)
        )


def _fraction(right: int, answers: int) -> float | None:
    return round(right / answers, 4) if answers else None


# --- the tables ----------------------------------------------------------------------------------


def students_rows(data: ClassData) -> Iterator[list]:
    games: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in data.match_rows:
        totals = games[row.student_id]
        info = data.matches.get(row.match_id)
        totals[0] += 1
        totals[1] += bool(info and info.finished)
        totals[2] += row.seconds_playing
    figures = {s.student.pk: s.figures for s in data.summary.students}
    for enrollment in data.roster:
        student = enrollment.student
        total = figures.get(student.pk, Figures())
        median = total.median
        yield [
            student.pk,
            student.display_name,
            student.secret_kind or None,
            enrollment.joined_at,
            total.attempts,
            total.correct,
            _fraction(total.correct, total.attempts),
            None if median is None else median.ms,
            None if median is None else median.at_least,
            *games[student.pk],
        ]


def answers_rows(data: ClassData) -> Iterator[list]:
    zone = timezone.get_current_timezone()
    for (
        pk,
        user_id,
        created_at,
        game,
        match_id,
        operation,
        operator,
        operands,
        answer,
        expected,
        target,
        correct,
        elapsed_ms,
        skill,
        mistake,
        calm,
    ) in data.attempts():
        numbers = operands if isinstance(operands, list) else []
        info = data.matches.get(match_id) or _UNKNOWN_MATCH
        at = created_at.astimezone(zone)
        yield [
            pk,
            user_id,
            at.isoformat(timespec="seconds"),
            at.date().isoformat(),
            game,
            match_id,
            info.where,
            info.session_id,
            info.assignment_id,
            operation,
            operator,
            numbers[0] if len(numbers) > 0 else None,
            numbers[1] if len(numbers) > 1 else None,
            answer,
            expected,
            target,
            correct,
            elapsed_ms,
            bool(correct and elapsed_ms <= FLUENT_MS),
            skill,
            skill.partition(".")[2],
            mistake or None,
            calm in _JSON_TRUE,
        ]


def games_rows(data: ClassData) -> Iterator[list]:
    for row in data.match_rows:
        info = data.matches.get(row.match_id) or _UNKNOWN_MATCH
        yield [
            row.student_id,
            row.match_id,
            info.game,
            info.variant,
            info.where,
            info.session_id,
            info.assignment_id,
            row.first,
            row.last,
            info.finished,
            row.answers,
            row.right,
            _fraction(row.right, row.answers),
            row.seconds_playing,
        ]


def _mastery_cells(mastery: Mastery | None) -> list:
    if mastery is None:
        return [None, None, None, None, None, None, None]
    return [
        mastery.level.name.lower(),
        mastery.due_for_review,
        mastery.answers,
        mastery.right,
        mastery.fluent,
        mastery.fluent_days,
        mastery.last_seen,
    ]


def skills_rows(data: ClassData) -> Iterator[list]:
    for report in data.reports:
        for skill in report.progress.skills:
            figures = skill.figures
            median = figures.median
            yield [
                report.student.pk,
                skill.skill,
                skill.operation,
                skill.range,
                figures.attempts,
                figures.correct,
                _fraction(figures.correct, figures.attempts),
                None if median is None else median.ms,
                None if median is None else median.at_least,
                *_mastery_cells(skill.mastery),
                *(figures.mistakes[kind] for kind in MISTAKE_FIELDS),
            ]


def weeks_rows(data: ClassData) -> Iterator[list]:
    for report in data.reports:
        for week in report.progress.weeks:
            for operation, figures in sorted(week.by_operation.items()):
                yield [
                    report.student.pk,
                    week.week,
                    operation,
                    figures.attempts,
                    figures.correct,
                    _fraction(figures.correct, figures.attempts),
                ]


def facts_rows(data: ClassData) -> Iterator[list]:
    operations = {table.sign: table.operation for table in TABLES}
    for report in data.reports:
        for grid in report.progress.fact_grids:
            for row in grid.rows:
                for cell in row:
                    if not cell.answers:
                        continue
                    yield [
                        report.student.pk,
                        operations[cell.sign],
                        cell.first,
                        cell.second,
                        *_mastery_cells(cell.mastery),
                    ]


def _homework_reports(data: ClassData):
    return [
        assignment_report(assignment=assignment)
        for assignment in data.classroom.assignments.order_by("due_at", "id")
    ]


def homework_rows(data: ClassData) -> Iterator[list]:
    for report in _homework_reports(data):
        assignment = report.assignment
        for result in report.students:
            yield [
                assignment.pk,
                assignment.title,
                assignment.kind,
                assignment.game,
                assignment.due_at,
                result.student.pk,
                len(result.items),
                result.done,
                result.finished,
                result.attempts,
                result.right,
                _fraction(result.right, result.attempts),
                result.stars,
                minutes_asked(assignment),
                result.minutes_played if result.minutes is not None else None,
            ]
            for item in result.items:
                data.homework_items.append(
                    [
                        assignment.pk,
                        result.student.pk,
                        item.item,
                        item.title or assignment.game,
                        item.state,
                        item.match_id,
                        item.stopped,
                        item.stars,
                        item.max_stars or None,
                        item.score,
                        item.won,
                        item.attempts,
                        item.right,
                        _fraction(item.right, item.attempts),
                    ]
                )


def homework_items_rows(data: ClassData) -> Iterator[list]:
    yield from data.homework_items


def sessions_rows(data: ClassData) -> Iterator[list]:
    answered = {(row.student_id, row.match_id): row for row in data.match_rows}
    places = (
        SessionPlace.objects.filter(table__session__classroom=data.classroom)
        .order_by("table__session__created_at", "table__session_id", "table__number", "seat")
        .values_list(
            "table__session_id",
            "table__session__game",
            "table__session__variant",
            "table__session__started_at",
            "table__session__ended_at",
            "table__number",
            "seat",
            "table__match_id",
            "student_id",
        )
    )
    for session_id, game, variant, started, ended, table, seat, match_id, student_id in places:
        row = answered.get((student_id, match_id))
        yield [
            session_id,
            game,
            variant,
            started,
            ended,
            table,
            seat,
            student_id,
            match_id,
            row.answers if row else 0,
            row.right if row else 0,
            _fraction(row.right, row.answers) if row else None,
        ]
