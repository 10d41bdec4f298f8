"""The tables of the whole-class export (``class_tables``): each file, its columns with their
type and meaning (README.csv's rows, in the reader's language), and the function that gives its
rows (``class_table_rows``). Column names are stable English identifiers, the same in every
language."""

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from classroom.progress.models import MISTAKE_FIELDS
from classroom.roster.class_table_rows import (
    ClassData,
    answers_rows,
    facts_rows,
    games_rows,
    homework_items_rows,
    homework_rows,
    sessions_rows,
    skills_rows,
    students_rows,
    weeks_rows,
)

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
        students_rows,
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
        answers_rows,
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
        games_rows,
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
        skills_rows,
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
        weeks_rows,
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
        facts_rows,
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
        homework_rows,
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
        homework_items_rows,
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
        sessions_rows,
    ),
)


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
