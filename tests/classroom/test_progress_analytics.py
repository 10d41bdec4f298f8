"""Accuracy analytics: the rollups kept through the attempt writes (games.hooks) and the
selectors that read them, against hand-made attempts with figures worked out by hand."""

import datetime
import re
import statistics

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from classroom.progress import rollup
from classroom.progress.figures import Figures, Median, Period, median_from_histogram
from classroom.progress.models import (
    MEDIAN_BOUND_MS,
    MEDIAN_BOUND_SHARE,
    MEDIAN_EXACT_BELOW_MS,
    TIME_BUCKET_COUNT,
    TIME_BUCKET_EDGES_MS,
    AnswerTimesDay,
    AnswerTimesWeek,
    FactMissDay,
    SkillDay,
)
from classroom.progress.selectors import _skill_rows, class_progress, student_progress
from games.models import Attempt
from games.services import submit_move
from tests.factories import make_attempts, make_class, make_match, make_student, make_teacher

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
WEEK1 = datetime.datetime(2026, 3, 3, 10, 0, tzinfo=UTC)  # a Tuesday
WEEK2 = datetime.datetime(2026, 3, 10, 11, 0, tzinfo=UTC)
PERIOD = Period(datetime.date(2026, 3, 2), datetime.date(2026, 3, 15))


@pytest.fixture
def class_with_answers():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    make_attempts(
        ana,
        [
            (3, "+", 4, 7, 1200, WEEK1),  # right, add.within10
            (3, "+", 4, 8, 1800, WEEK1),  # off by one, fact 4+3
            (4, "+", 3, 6, 2600, WEEK1),  # off by one, the same fact
            (8, "-", 5, 3, 3200, WEEK1),  # right, sub.within10
            (5, "-", 8, 13, 4100, WEEK1),  # added instead of subtracting: sub.within10, fact 8-5
            (6, "x", 7, 42, 5000, WEEK2),  # right, mul.within100
            (7, "x", 6, 24, 7000, WEEK2),  # digits reversed, fact 7x6
        ],
    )
    make_attempts(ben, [(9, "+", 8, 17, 2000, WEEK2), (9, "+", 8, 16, 3000, WEEK2)])
    # Left out: a bot's attempt, another class's student, Ana's answer after the period.
    make_attempts(None, [(2, "+", 2, 5, 100, WEEK1)])
    outsider = make_student(make_class(make_teacher(), name="Other"), "Zoe", secret="9999")
    make_attempts(outsider, [(2, "+", 2, 5, 900, WEEK1)])
    make_attempts(ana, [(2, "+", 2, 5, 900, datetime.datetime(2026, 3, 16, 9, tzinfo=UTC))])
    return classroom, ana, ben


def skill_rows(progress):
    return [(s.skill, s.figures.attempts, s.figures.correct) for s in progress.skills]


def within_the_bound(shown_ms, *times):
    """The stated bound of every median shown: 0.2 s, or 5% of the true median."""
    true = statistics.median(times)
    return abs(shown_ms - true) <= max(MEDIAN_BOUND_MS, MEDIAN_BOUND_SHARE * true)


def test_class_figures_by_skill_student_and_total(class_with_answers):
    classroom, *_ = class_with_answers
    progress = class_progress(classroom=classroom, period=PERIOD)

    assert (progress.total.attempts, progress.total.correct) == (9, 4)
    # Nine answer times; the fifth is 3.0 s, the middle of its 2.95-3.05 s bucket.
    assert progress.total.median_ms == 3000
    # 5 - 8 answered 13 is subtraction within 10: the range is the problem's, not the answer's.
    assert skill_rows(progress) == [
        ("add.within10", 3, 1),
        ("add.within20", 2, 1),
        ("sub.within10", 2, 1),
        ("mul.within100", 2, 1),
    ]
    medians = [s.figures.median_ms for s in progress.skills]
    assert medians[:2] == [1800, 2500]  # under 4 s, at the tenth the page shows
    for shown, times in zip(
        medians, [(1200, 1800, 2600), (2000, 3000), (3200, 4100), (5000, 7000)], strict=True
    ):
        assert within_the_bound(shown, *times)
    assert [s.label for s in progress.skills][:2] == ["Addition within 10", "Addition within 20"]
    students = {s.student.display_name: s for s in progress.students}
    assert list(students) == ["Ana", "Ben"]
    assert (students["Ana"].figures.attempts, students["Ana"].figures.correct) == (7, 3)
    assert (students["Ben"].figures.attempts, students["Ben"].figures.correct) == (2, 1)
    assert students["Ana"].figures.accuracy_text == "43%"
    assert students["Ben"].figures.median_text == "2.5 s"


def test_week_by_week_with_lines_per_operation(class_with_answers):
    classroom, *_ = class_with_answers
    progress = class_progress(classroom=classroom, period=PERIOD)

    assert [w.week for w in progress.weeks] == [
        datetime.date(2026, 3, 2),
        datetime.date(2026, 3, 9),
    ]
    first, second = progress.weeks
    assert (first.figures.attempts, first.figures.correct) == (5, 2)
    assert (second.figures.attempts, second.figures.correct) == (4, 2)
    assert first.figures.accuracy_percent == 40
    # Four answers are too few to judge by: no percentage, and no point on the trend.
    assert second.figures.accuracy_percent is None and second.figures.too_few
    assert sorted(first.by_operation) == ["add", "sub"]
    assert first.by_operation["sub"].correct == 1 and first.by_operation["sub"].attempts == 2
    assert sorted(second.by_operation) == ["add", "mul"]
    assert progress.operations == ["add", "sub", "mul"]


def test_most_missed_facts_count_either_order_as_one_fact(class_with_answers):
    classroom, *_ = class_with_answers
    progress = class_progress(classroom=classroom, period=PERIOD)

    assert [(f.fact, f.text, f.misses) for f in progress.missed_facts] == [
        ("4+3", "4 + 3", 2),
        ("7x6", "7 × 6", 1),
        ("8-5", "8 − 5", 1),
        ("9+8", "9 + 8", 1),
    ]


def test_error_patterns(class_with_answers):
    classroom, *_ = class_with_answers
    mistakes = class_progress(classroom=classroom, period=PERIOD).total.mistakes
    assert mistakes == {
        "wrong_operation": 1,
        "regrouping": 0,
        "table_neighbour": 0,
        "table_related": 0,
        "operand_misread": 0,
        "reversed_digits": 1,
        "off_by_one": 3,
        "off_by_two": 0,
        "off_by_ten": 0,
        "operand_intrusion": 0,
        "far_off": 0,
        "other": 0,
    }


def test_one_students_progress(class_with_answers):
    _, ana, _ = class_with_answers
    progress = student_progress(student=ana, period=PERIOD)

    assert (progress.total.attempts, progress.total.correct) == (7, 3)
    assert skill_rows(progress) == [
        ("add.within10", 3, 1),
        ("sub.within10", 2, 1),
        ("mul.within100", 2, 1),
    ]
    assert [(w.figures.attempts, w.figures.correct) for w in progress.weeks] == [(5, 2), (2, 1)]
    assert [f.fact for f in progress.missed_facts] == ["4+3", "7x6", "8-5"]
    # make_attempts writes ¡Mía! claims: the answer is the target the cards were claimed for.
    assert [(m.game, m.did, m.right, m.kind) for m in progress.recent_mistakes] == [
        ("¡Mía!", "Claimed 7 × 6 for the 24", "7 × 6 makes 42", "Digits reversed"),
        ("¡Mía!", "Claimed 5 − 8 for the 13", "5 − 8 makes 3", "Wrong operation"),
        ("¡Mía!", "Claimed 4 + 3 for the 6", "4 + 3 makes 7", "Off by one"),
        ("¡Mía!", "Claimed 3 + 4 for the 8", "3 + 4 makes 7", "Off by one"),
    ]


def test_the_period_bounds_are_whole_days(class_with_answers):
    _, ana, _ = class_with_answers
    week2 = Period(datetime.date(2026, 3, 9), datetime.date(2026, 3, 16))
    progress = student_progress(student=ana, period=week2)
    assert progress.total.attempts == 3  # two on the 10th, one on the 16th
    assert student_progress(student=ana, period=Period(PERIOD.end, PERIOD.end)).total.attempts == 0


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("2026-03-02", "2026-03-15"),  # two whole weeks: weekly rows only
        ("2026-03-03", "2026-03-15"),  # a partial week, then a whole one
        ("2026-03-02", "2026-03-10"),  # a whole week, then two days
        ("2026-03-03", "2026-03-11"),  # no whole week at all
        ("2026-03-04", "2026-03-16"),  # days on both sides of a whole week
        ("2026-03-10", "2026-03-10"),
    ],
)
def test_whole_weeks_and_loose_days_add_up_to_the_attempts(class_with_answers, start, end):
    classroom, ana, ben = class_with_answers
    period = Period(datetime.date.fromisoformat(start), datetime.date.fromisoformat(end))
    begin, finish = period.bounds()
    attempts = Attempt.objects.filter(
        user__in=[ana, ben], created_at__gte=begin, created_at__lt=finish
    )
    progress = class_progress(classroom=classroom, period=period)
    assert progress.total.attempts == attempts.count()
    assert progress.total.correct == attempts.filter(correct=True).count()
    assert sum(w.figures.attempts for w in progress.weeks) == attempts.count()
    assert sum(f.misses for f in progress.missed_facts) == attempts.filter(correct=False).count()
    assert progress.total.elapsed_ms_sum == sum(a.elapsed_ms for a in attempts)


@pytest.mark.parametrize(
    "group", [("student_id", "skill", "operation"), ("student_id", "week", "operation")]
)
def test_a_periods_counts_and_answer_times_are_read_in_one_statement(class_with_answers, group):
    """One statement is one snapshot on both databases: answers committed while a page reads
    its figures are either in a row's counts and its histogram or in neither, so a median never
    rests on other answers than its accuracy. The period takes days from the daily tables
    (the 3rd and the 16th) and a whole week from the weekly ones."""
    _, ana, ben = class_with_answers
    period = Period(datetime.date(2026, 3, 3), datetime.date(2026, 3, 16))
    with CaptureQueriesContext(connection) as queries:
        rows = _skill_rows(period, [ana.pk, ben.pk], *group)
    assert len(queries) == 1
    begin, finish = period.bounds()
    attempts = Attempt.objects.filter(
        user__in=[ana, ben], created_at__gte=begin, created_at__lt=finish
    )
    assert sum(row["s_attempts"] for row in rows) == attempts.count() == 10
    for row in rows:
        assert sum(row["histogram"]) == row["s_attempts"] > 0, row
        assert len(row["histogram"]) == TIME_BUCKET_COUNT
    if "week" in group:
        mondays = {datetime.date(2026, 3, 2), datetime.date(2026, 3, 9), datetime.date(2026, 3, 16)}
        assert {row["week"] for row in rows} == mondays  # dates, also from SQLite's text


def test_a_students_weakest_skill_needs_enough_answers():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    make_attempts(ana, [(2, "+", 3, 5, 1000, WEEK1)] * 5 + [(9, "+", 8, 1, 1000, WEEK1)] * 4)
    make_attempts(ana, [(9, "-", 3, 6, 1000, WEEK1)] * 4 + [(9, "-", 3, 5, 1000, WEEK1)])
    summary = class_progress(classroom=classroom, period=PERIOD).students[0]
    # add.within20 is all wrong but has 4 answers; sub.within10 is 80% right on 5.
    assert summary.weakest_skill.skill == "sub.within10"


def test_bots_and_rolled_back_moves_leave_no_figures():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    make_attempts(None, [(2, "+", 3, 5, 1000, WEEK1)])
    with pytest.raises(RuntimeError), transaction.atomic():
        make_attempts(ana, [(2, "+", 3, 5, 1000, WEEK1)])
        raise RuntimeError("the move's transaction fails after the attempts were saved")
    assert not SkillDay.objects.exists()
    assert class_progress(classroom=classroom, period=PERIOD).total.attempts == 0


def test_a_real_move_reaches_the_rollup_through_the_signal():
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    match = make_match(players=[ana], bots=["easy"], seed=7, at_ms=1_700_000_000_000)
    rules = engine.get_game(match.game)
    claim = rules.hint(rules.load(match.state), 0)
    submit_move(match_id=match.pk, user=ana, move=claim, client_id="c-1", at_ms=1_700_000_002_300)
    row = SkillDay.objects.get(student=ana)
    assert (row.attempts, row.correct, row.elapsed_ms_sum) == (1, 1, 2300)
    times = AnswerTimesDay.objects.filter(student=ana).values_list("skill", "bucket", "answers")
    assert list(times) == [(row.skill, 23, 1)]  # 2.3 s: the 2.25-2.35 s bucket
    attempt = match.attempts.get()
    assert row.skill == attempt.skill and row.operation == attempt.operation


def test_rebuild_gives_the_same_rollups_as_live_play(class_with_answers):
    _, ana, ben = class_with_answers

    def snapshot():
        skills = sorted(
            SkillDay.objects.filter(student__in=[ana, ben]).values_list(
                "student_id", "day", "skill", "attempts", "correct", "elapsed_ms_sum"
            )
        )
        times = [
            sorted(
                model.objects.filter(student__in=[ana, ben]).values_list(
                    "student_id", "week", "skill", "operation", "bucket", "answers"
                )
            )
            for model in (AnswerTimesDay, AnswerTimesWeek)
        ]
        facts = sorted(
            FactMissDay.objects.filter(student__in=[ana, ben]).values_list(
                "student_id", "day", "fact", "misses"
            )
        )
        return skills, times, facts

    live = snapshot()
    assert live[1][0] and live[1][1]
    SkillDay.objects.filter(student=ana).update(attempts=999)
    AnswerTimesWeek.objects.filter(student=ana).update(answers=999)
    rollup.rollups_rebuild(student_ids=[ana.pk, ben.pk])
    assert snapshot() == live


@pytest.mark.parametrize(
    ("operands", "operator", "fact"),
    [
        ([5, 8], "+", "8+5"),
        ([8, 5], "+", "8+5"),
        ([5, 8], "-", "8-5"),
        ([6, 7], "x", "7x6"),
        ([8, 2], "÷", "8÷2"),
        ([1, 2, 3], "+", ""),  # an equation, not a fact
        ([], "mixed", ""),
        ([2, 3], "mixed", ""),
    ],
)
def test_fact_keys(operands, operator, fact):
    assert rollup.fact_key(operands, operator) == fact


def test_median_from_histogram_edges():
    empty = [0] * TIME_BUCKET_COUNT
    assert median_from_histogram(empty) is None
    one = list(empty)
    one[0] = 1  # a single answer under 0.05 s: the middle of the first bucket
    assert median_from_histogram(one) == Median(25)
    slow = list(empty)
    slow[-1] = 3  # two minutes and more: the open bucket's lower edge, as a lower bound
    assert median_from_histogram(slow) == Median(120_000, at_least=True)
    assert [rollup.time_bucket(ms) for ms in (0, 49, 50, 149, 150, 3949, 3950)] == [
        0,
        0,
        1,
        1,
        2,
        39,
        40,
    ]
    assert rollup.time_bucket(119_999) == TIME_BUCKET_COUNT - 2
    assert rollup.time_bucket(10**9) == TIME_BUCKET_COUNT - 1


def _histogram_of(times):
    histogram = [0] * TIME_BUCKET_COUNT
    for ms in times:
        histogram[rollup.time_bucket(ms)] += 1
    return histogram


@pytest.mark.parametrize(
    ("times", "shown"),
    [
        ([2100, 9500], "5.8 s"),  # the mean of the two middle answers, not the lower one's bucket
        ([2100], "2.1 s"),
        ([1000, 1000, 1000, 30_000], "1.0 s"),
        ([4100, 4300, 4500], "4.2 s"),  # past 4 s, read within the bound: truly 4.3 s
        ([500, 700, 800, 900, 1100], "0.8 s"),
    ],
)
def test_a_median_is_the_middle_answer_or_the_mean_of_the_two(times, shown):
    figures = Figures(histogram=_histogram_of(times), elapsed_ms_sum=sum(times))
    assert figures.median_text == shown


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.one_of(st.integers(0, 6000), st.integers(0, MEDIAN_EXACT_BELOW_MS - 1)),
        min_size=1,
        max_size=60,
    )
)
def test_every_median_is_within_the_stated_bound(times):
    """The pages say: within 0.2 s, or 5% past 4 s (models.MEDIAN_BOUND_*)."""
    true = statistics.median(times)
    shown = median_from_histogram(_histogram_of(times))
    assert not shown.at_least
    assert abs(shown.ms - true) <= max(MEDIAN_BOUND_MS, MEDIAN_BOUND_SHARE * true) + 0.5


def test_every_bucket_is_narrow_enough_for_the_bound():
    """A value read as its bucket's middle is off by at most half the width: 0.1 s, or 2.5% of
    the bucket's start; the mean of two such values then keeps the stated bound."""
    for low, high in zip((0, *TIME_BUCKET_EDGES_MS[:-1]), TIME_BUCKET_EDGES_MS, strict=True):
        assert high - low <= max(MEDIAN_BOUND_MS, MEDIAN_BOUND_SHARE * low), (low, high)


def test_a_moves_upsert_names_only_the_counts_it_adds_to():
    """A move's answer adds to three of a roll-up row's fifteen counts; the others are left to
    the database's default, so the statement the move's transaction parses stays short. Its
    answer time is a row of the answer times."""
    student = make_student(make_class(), "Ana")
    attempt = Attempt(
        user_id=student.pk,
        skill="add.within10",
        operation="add",
        operator="+",
        operands=[3, 4],
        correct=False,
        mistake="off_by_one",
        elapsed_ms=2300,
        created_at=WEEK1,
    )
    attempt.student_time_zone = ""
    skill_day = rollup.rollup_statements([attempt])[0][0]
    counts = re.findall(r'= "?classroom_skillday"?\."?(\w+)"?', skill_day)
    assert sorted(counts) == ["attempts", "elapsed_ms_sum", "off_by_one"]
    rollup.rollup_add([attempt])
    row = SkillDay.objects.get(student=student)
    assert (row.attempts, row.correct, row.off_by_one) == (1, 0, 1)
    times = AnswerTimesDay.objects.filter(student=student).values_list("bucket", "answers")
    assert list(times) == [(23, 1)]


def test_a_moves_answer_times_are_one_statement_per_table():
    """All the buckets a move adds to, of every student and skill, go in one multi-row upsert
    per table (the move pipelines its statements); the counts add up on a second move."""
    ana = make_student(make_class(), "Ana")
    attempts = []
    for skill, operands, elapsed in [
        ("add.within10", [3, 4], 950),
        ("add.within10", [2, 4], 2300),
        ("add.within20", [9, 4], 2300),
        ("add.within20", [8, 4], 130_000),
    ]:
        attempt = Attempt(
            user_id=ana.pk, skill=skill, operation="add", operator="+", operands=operands,
            correct=True, elapsed_ms=elapsed, created_at=WEEK1,
        )  # fmt: skip
        attempt.student_time_zone = ""
        attempts.append(attempt)
    statements = rollup.rollup_statements(attempts)
    for table in ("classroom_answertimesday", "classroom_answertimesweek"):
        [times] = [sql for sql, _params in statements if f"INTO {_quoted(table)}" in sql]
        assert times.count("(%s") == 4
    rollup.rollup_add(attempts)
    rollup.rollup_add(attempts[1:2])
    expected = [("add.within10", 10, 1), ("add.within10", 23, 2), ("add.within20", 23, 1),
                ("add.within20", TIME_BUCKET_COUNT - 1, 1)]  # fmt: skip
    for model in (AnswerTimesDay, AnswerTimesWeek):
        assert sorted(model.objects.values_list("skill", "bucket", "answers")) == expected


def _quoted(table):
    return connection.ops.quote_name(table)
