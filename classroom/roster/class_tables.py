"""The whole class's answers and figures as a zip of CSV files, one per table of the figures
(docs/privacy.md, "Taking it out"; docs/progress.md says how each figure is made), with a
README.csv naming every file and column, its type and meaning.

For programs and spreadsheets alike: column names are stable English identifiers, the same in
every language, and only the README's descriptions are in the reader's language. Every number is
a plain number (a share right is ``accuracy_fraction``, 0 to 1, never "50%"), a yes or no is
``true`` or ``false``, an empty cell is no value, times are ISO 8601 in the school's time zone
with its UTC offset (``2026-11-03T10:30:00+01:00``) and days ISO dates (``2026-11-03``).
Text cells that a spreadsheet would run as a formula are guarded as in every CSV of the site.

The zip is written as it is read (``class_tables_zip`` yields its bytes), a table at a time: the
answers are streamed from the database in chunks, and the figures come from the same selectors
as the report, over the class's whole history.
"""

from __future__ import annotations

import csv
import datetime
import io
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from django.db.models import Count, Max, Min, Q, Subquery
from django.db.models.fields.json import KT
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from classroom.homework.selectors import assignment_report, minutes_asked
from classroom.models import Classroom, SessionPlace
from classroom.progress.activity import HOMEWORK, LESSON, OTHER
from classroom.progress.mastery import FLUENT_MS, TABLES, Mastery
from classroom.progress.models import MISTAKE_FIELDS
from classroom.progress.report_files import write_row
from classroom.progress.selectors import Figures, Period, report_progress
from classroom.selectors import classroom_roster
from games.models import Attempt, Match

FORMAT = "arithmetic-games-classroom/class-tables/1"
INTEGER, DECIMAL, BOOLEAN, TEXT, DATETIME, DATE = (
    "integer",
    "decimal",
    "boolean",
    "text",
    "datetime",
    "date",
)
TYPES = (INTEGER, DECIMAL, BOOLEAN, TEXT, DATETIME, DATE)
README = "README.csv"
README_COLUMNS = ("file", "column", "type", "description")
_ROWS_PER_CHUNK = 2000


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    description: str


@dataclass(frozen=True)
class Table:
    file: str
    description: str
    columns: tuple[Column, ...]
    rows: Callable[[ClassData], Iterable[list]]


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


class ClassData:
    """The class's roster and figures, read once in the school's time zone; the answers
    themselves are read by the answers table as it is written."""

    def __init__(self, classroom: Classroom):
        self.classroom = classroom
        # homework_items.csv's rows, kept as homework.csv is written (one read of the reports).
        self.homework_items: list[list] = []
        self.roster = list(classroom_roster(classroom=classroom))
        self.student_ids = [e.student_id for e in self.roster]
        attempts = Attempt.objects.filter(user_id__in=self.student_ids)
        first = attempts.aggregate(first=Min("created_at"))["first"]
        today = timezone.localdate()
        self.period = Period(min(timezone.localdate(first), today) if first else today, today)
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
            Attempt.objects.filter(user_id__in=self.student_ids)
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
            .iterator(chunk_size=_ROWS_PER_CHUNK)
        )


def _fraction(right: int, answers: int) -> float | None:
    return round(right / answers, 4) if answers else None


# --- the tables ----------------------------------------------------------------------------------


def _students(data: ClassData) -> Iterator[list]:
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


def _answers(data: ClassData) -> Iterator[list]:
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


def _games(data: ClassData) -> Iterator[list]:
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


def _skills(data: ClassData) -> Iterator[list]:
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


def _weeks(data: ClassData) -> Iterator[list]:
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


def _facts(data: ClassData) -> Iterator[list]:
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


def _homework(data: ClassData) -> Iterator[list]:
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


def _homework_items(data: ClassData) -> Iterator[list]:
    yield from data.homework_items


def _sessions(data: ClassData) -> Iterator[list]:
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


# --- the columns ---------------------------------------------------------------------------------

_STUDENT = Column("student_id", INTEGER, _("The student (students.csv)."))
_ANSWERS = Column("answers", INTEGER, _("Answers given."))
_RIGHT = Column("right_answers", INTEGER, _("Answers that were right."))
_ACCURACY = Column(
    "accuracy_fraction",
    DECIMAL,
    _(
        "Right answers divided by answers, from 0 to 1 (0.75: three in four right); empty without "
        "answers. The pages show a share only from 5 answers on."
    ),
)
_MEDIAN = (
    Column(
        "median_answer_ms",
        INTEGER,
        _(
            "Median answer time in milliseconds, read off the answer-time histogram as on the "
            "pages: within 200 ms, or within 5 per cent past 4 s."
        ),
    ),
    Column(
        "median_at_least",
        BOOLEAN,
        _("true when the median is past two minutes and median_answer_ms is a floor."),
    ),
)
_GAME = Column("game", TEXT, _("The game's code (mia, sum, add_up, mathable_junior...)."))
_WHERE = (
    Column(
        "where",
        TEXT,
        _(
            "Where the game was played: lesson (a class session's table), homework (an "
            "assignment's game) or other (a table a teacher set up)."
        ),
    ),
    Column("session_id", INTEGER, _("The class session, for a lesson's game (sessions.csv).")),
    Column("assignment_id", INTEGER, _("The homework, for a homework game (homework.csv).")),
)
_LEVEL = (
    Column(
        "level",
        TEXT,
        _(
            "Level from the latest answers (at most 10): not_started, practising, familiar, "
            "proficient or mastered (docs/progress.md, Mastery)."
        ),
    ),
    Column(
        "due_for_review",
        BOOLEAN,
        _("true when the latest answer is over 30 days old: at most proficient until answered."),
    ),
    Column("latest_answers", INTEGER, _("The latest answers the level rests on.")),
    Column("right_of_latest", INTEGER, _("Of those, the right ones.")),
    Column("fluent_of_latest", INTEGER, _("Of those, the fluent ones: right within 3 seconds.")),
    Column("fluent_days", INTEGER, _("School days with a right, fluent answer (mastery needs 2).")),
    Column("last_seen", DATE, _("The day of the latest answer.")),
)

TABLES_OF_THE_CLASS = (
    Table(
        "students.csv",
        _("A row per student of the class, with their figures over all their answers."),
        (
            _STUDENT,
            Column("name", TEXT, _("The student's name as the teacher typed it.")),
            Column("sign_in", TEXT, _("How they sign in: picture or pin; empty when not set.")),
            Column("joined_class_at", DATETIME, _("When they joined the class.")),
            _ANSWERS,
            _RIGHT,
            _ACCURACY,
            *_MEDIAN,
            Column(
                "games_played",
                INTEGER,
                _("Games with at least one of their answers."),
            ),
            Column("games_finished", INTEGER, _("Of those, the ones that have ended.")),
            Column(
                "seconds_playing",
                INTEGER,
                _(
                    "Time playing in seconds: in each game, from their first answer to their last "
                    "(a floor)."
                ),
            ),
        ),
        _students,
    ),
    Table(
        "answers.csv",
        _("Every answer of every student: a row per arithmetic decision, oldest first."),
        (
            Column("answer_id", INTEGER, _("The answer's number.")),
            _STUDENT,
            Column(
                "answered_at",
                DATETIME,
                _("When, in the school's time zone with its offset from UTC."),
            ),
            Column("school_day", DATE, _("The day it counts on, in the school's time zone.")),
            _GAME,
            Column("match_id", INTEGER, _("The game (games.csv).")),
            *_WHERE,
            Column("operation", TEXT, _("add, sub or mul.")),
            Column("operator", TEXT, _("The sign: +, - or x.")),
            Column("operand_1", INTEGER, _("The problem's first number.")),
            Column("operand_2", INTEGER, _("The problem's second number.")),
            Column("answer", INTEGER, _("The student's number (typed, laid or claimed).")),
            Column("expected", INTEGER, _("The right result of the problem.")),
            Column(
                "target",
                INTEGER,
                _("The card the student aimed at (¡Mía!, SUM); empty in other games."),
            ),
            Column("correct", BOOLEAN, _("true when the answer was right.")),
            Column("elapsed_ms", INTEGER, _("Time the answer took, in milliseconds.")),
            Column("fluent", BOOLEAN, _("true when right within 3 seconds.")),
            Column("skill", TEXT, _("Operation and number range, such as add.within20.")),
            Column(
                "range",
                TEXT,
                _("The number range: the largest of the operands, result and target."),
            ),
            Column(
                "slip",
                TEXT,
                _("For a wrong answer, the kind of slip (docs/slips.md); empty when right."),
            ),
            Column(
                "calm_table",
                BOOLEAN,
                _("true for an answer at a calm ¡Mía! table (no race, the child's own pace)."),
            ),
        ),
        _answers,
    ),
    Table(
        "games.csv",
        _("A row per student and game they answered in."),
        (
            _STUDENT,
            Column("match_id", INTEGER, _("The game's number.")),
            _GAME,
            Column("variant", TEXT, _("The game's variant.")),
            *_WHERE,
            Column("first_answer_at", DATETIME, _("Their first answer in it.")),
            Column("last_answer_at", DATETIME, _("Their last answer in it.")),
            Column("finished", BOOLEAN, _("true when the game has ended.")),
            _ANSWERS,
            _RIGHT,
            _ACCURACY,
            Column(
                "seconds_playing",
                INTEGER,
                _("From their first answer to their last (one answer: its time), in seconds."),
            ),
        ),
        _games,
    ),
    Table(
        "skills.csv",
        _(
            "A row per student and skill (operation and number range) over all their answers, "
            "with their level and slips."
        ),
        (
            _STUDENT,
            Column("skill", TEXT, _("Operation and number range, such as add.within20.")),
            Column("operation", TEXT, _("add, sub or mul.")),
            Column("range", TEXT, _("The number range, such as within20.")),
            _ANSWERS,
            _RIGHT,
            _ACCURACY,
            *_MEDIAN,
            *_LEVEL,
            *(
                Column(
                    f"slips_{kind}",
                    INTEGER,
                    _("Wrong answers of this kind of slip (docs/slips.md)."),
                )
                for kind in MISTAKE_FIELDS
            ),
        ),
        _skills,
    ),
    Table(
        "weeks.csv",
        _("A row per student, week (Monday to Sunday) and operation with answers."),
        (
            _STUDENT,
            Column("week_start", DATE, _("The week's Monday.")),
            Column("operation", TEXT, _("add, sub or mul.")),
            _ANSWERS,
            _RIGHT,
            _ACCURACY,
        ),
        _weeks,
    ),
    Table(
        "facts.csv",
        _(
            "A row per student and table fact they answered (0 + 0 to 10 + 10, 1 x 1 to "
            "10 x 10; 3 + 4 and 4 + 3 apart), with their level on it."
        ),
        (
            _STUDENT,
            Column("operation", TEXT, _("add or mul.")),
            Column("first", INTEGER, _("The fact's first number.")),
            Column("second", INTEGER, _("The fact's second number.")),
            *_LEVEL,
        ),
        _facts,
    ),
    Table(
        "homework.csv",
        _("A row per homework and student it was set for."),
        (
            Column("assignment_id", INTEGER, _("The homework's number.")),
            Column("title", TEXT, _("The homework's title.")),
            Column("kind", TEXT, _("puzzles, bot_games or personal (personal practice).")),
            _GAME,
            Column("due_at", DATETIME, _("When it is due.")),
            _STUDENT,
            Column("items", INTEGER, _("Games or puzzles set.")),
            Column("items_done", INTEGER, _("Of those, the ones done.")),
            Column("finished", BOOLEAN, _("true when the homework is finished.")),
            _ANSWERS,
            _RIGHT,
            _ACCURACY,
            Column("stars", INTEGER, _("Stars won in its puzzles.")),
            Column(
                "minutes_asked",
                INTEGER,
                _("Personal practice sized in minutes: how many; empty otherwise."),
            ),
            Column("minutes_played", INTEGER, _("Minutes played, when it is sized in minutes.")),
        ),
        _homework,
    ),
    Table(
        "homework_items.csv",
        _("A row per homework, student and game or puzzle of it."),
        (
            Column("assignment_id", INTEGER, _("The homework (homework.csv).")),
            _STUDENT,
            Column("item", INTEGER, _("The item's place in the homework, from 0.")),
            _GAME,
            Column("state", TEXT, _("not_started, started or done.")),
            Column("match_id", INTEGER, _("The game played for it (games.csv).")),
            Column("stopped", BOOLEAN, _("true when it was over without a result.")),
            Column("stars", INTEGER, _("A puzzle's stars.")),
            Column("max_stars", INTEGER, _("The most stars a puzzle gives.")),
            Column("score", INTEGER, _("A game against bots: the student's score.")),
            Column("won", BOOLEAN, _("A game against bots: true when the student won.")),
            _ANSWERS,
            _RIGHT,
            _ACCURACY,
        ),
        _homework_items,
    ),
    Table(
        "sessions.csv",
        _("A row per class session, table and student seated at it."),
        (
            Column("session_id", INTEGER, _("The class session's number.")),
            _GAME,
            Column("variant", TEXT, _("The game's variant.")),
            Column("started_at", DATETIME, _("When the teacher started it.")),
            Column("ended_at", DATETIME, _("When it ended.")),
            Column("table", INTEGER, _("The table's number.")),
            Column("seat", INTEGER, _("The student's seat at it, from 0.")),
            _STUDENT,
            Column("match_id", INTEGER, _("The table's game (games.csv).")),
            _ANSWERS,
            _RIGHT,
            _ACCURACY,
        ),
        _sessions,
    ),
)


# --- the files -----------------------------------------------------------------------------------


def cell(value):
    """A value as the CSV holds it: numbers as they are, true/false, ISO times and days."""
    if type(value) is int or type(value) is str:
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.datetime):
        return timezone.localtime(value).isoformat(timespec="seconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def readme_rows() -> Iterator[list]:
    """A row per file (its column empty) then a row per column, in the reader's language."""
    yield [README, "", "", _("This file: every file of the export and its columns.")]
    for column, meaning in zip(README_COLUMNS, _readme_meanings(), strict=True):
        yield [README, column, TEXT, meaning]
    for table in TABLES_OF_THE_CLASS:
        yield [table.file, "", "", str(table.description)]
        for column in table.columns:
            yield [table.file, column.name, column.type, str(column.description)]


def _readme_meanings() -> list:
    return [
        _("The file."),
        _("The column; empty on the row that describes the file."),
        _(
            "integer, decimal (a dot before the decimals), boolean (true or false), text, "
            "datetime (ISO 8601 with the offset from UTC) or date (ISO 8601)."
        ),
        _("What it holds."),
    ]


def _csv_chunks(header: Iterable[str], rows: Iterable[list]) -> Iterator[bytes]:
    """UTF-8 with a byte-order mark (spreadsheets need it for accents), commas, a header."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    out.write("\ufeff")
    writer.writerow(header)
    for n, row in enumerate(rows, 1):
        write_row(writer, [cell(value) for value in row])
        if n % _ROWS_PER_CHUNK == 0:
            yield out.getvalue().encode()
            out.seek(0)
            out.truncate()
    yield out.getvalue().encode()


class _Sink:
    """The zip's output, handed on as it is written (a stream has no seek: zipfile then writes
    each file's sizes after its data)."""

    def __init__(self):
        self._chunks: list[bytes] = []

    def write(self, data) -> int:
        self._chunks.append(bytes(data))
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self._chunks)
        self._chunks.clear()
        return data


def class_tables_zip(*, classroom: Classroom, language: str) -> Iterator[bytes]:
    """The export's bytes, as they are made, README.csv's descriptions in ``language``. Runs in
    the school's time zone: the days, weeks and times of every table are the school's, as on the
    pages. Both are set here, not by the caller: a server sends a stream after the view is over."""
    with translation.override(language), timezone.override(classroom.teacher.zone):
        data = ClassData(classroom)
        sink = _Sink()
        with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.comment = FORMAT.encode()
            files = [(README, list(README_COLUMNS), readme_rows)]
            files += [
                (table.file, [c.name for c in table.columns], _bound(table.rows, data))
                for table in TABLES_OF_THE_CLASS
            ]
            for name, header, rows in files:
                with archive.open(_entry(name), "w") as member:
                    for chunk in _csv_chunks(header, rows()):
                        member.write(chunk)
                        yield sink.take()
                yield sink.take()
        yield sink.take()


def _bound(rows, data):
    return lambda: rows(data)


def _entry(name: str) -> zipfile.ZipInfo:
    entry = zipfile.ZipInfo(name, date_time=timezone.localtime().timetuple()[:6])
    entry.compress_type = zipfile.ZIP_DEFLATED
    return entry
