"""Accuracy analytics: the rollups kept from attempts_recorded and the selectors that read them,
against hand-made attempts with figures worked out by hand."""

import datetime

import pytest
from django.db import transaction

import engine
from classroom.progress import rollup
from classroom.progress.models import TIME_BUCKET_COUNT, FactMissDay, SkillDay
from classroom.progress.selectors import (
    Period,
    class_progress,
    median_from_histogram,
    student_progress,
)
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
            (5, "-", 8, 13, 4100, WEEK1),  # added instead of subtracting: sub.within20, fact 8-5
            (6, "x", 7, 42, 5000, WEEK2),  # right, mul.within100
            (7, "x", 6, 24, 7000, WEEK2),  # digits swapped, fact 7x6
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
    return [
        (s.skill, s.figures.attempts, s.figures.correct, s.figures.median_ms)
        for s in progress.skills
    ]


def test_class_figures_by_skill_student_and_total(class_with_answers):
    classroom, *_ = class_with_answers
    progress = class_progress(classroom=classroom, period=PERIOD)

    assert (progress.total.attempts, progress.total.correct) == (9, 4)
    # Nine answer times; the middle (4.5th) falls in the 3.0-3.5 s bucket, which holds two:
    # 3000 + 500 * (4.5 - 4) / 2.
    assert progress.total.median_ms == 3125
    assert skill_rows(progress) == [
        ("add.within10", 3, 1, 1750),  # 1.2, 1.8, 2.6 s: 1500 + 500 * (1.5 - 1) / 1
        ("add.within20", 2, 1, 2500),  # 2.0 and 3.0 s: the middle is the top of 2.0's bucket
        ("sub.within10", 1, 1, 3250),
        ("sub.within20", 1, 0, 4250),
        ("mul.within100", 2, 1, 6000),  # 5.0 s (the 5-6 s bucket) and 7.0 s
    ]
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
    assert first.figures.accuracy_percent == 40 and second.figures.accuracy_percent == 50
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
        "off_by_one": 3,
        "off_by_ten": 0,
        "wrong_operation": 1,
        "reversed_digits": 1,
        "other": 0,
    }


def test_one_students_progress(class_with_answers):
    _, ana, _ = class_with_answers
    progress = student_progress(student=ana, period=PERIOD)

    assert (progress.total.attempts, progress.total.correct) == (7, 3)
    assert skill_rows(progress) == [
        ("add.within10", 3, 1, 1750),
        ("sub.within10", 1, 1, 3250),
        ("sub.within20", 1, 0, 4250),
        ("mul.within100", 2, 1, 6000),
    ]
    assert [(w.figures.attempts, w.figures.correct) for w in progress.weeks] == [(5, 2), (2, 1)]
    assert [f.fact for f in progress.missed_facts] == ["4+3", "7x6", "8-5"]
    assert [(m.text, m.expected, m.kind) for m in progress.recent_mistakes] == [
        ("7 × 6 = 24", 42, "Digits swapped"),
        ("5 − 8 = 13", 3, "Wrong operation"),
        ("4 + 3 = 6", 7, "Off by one"),
        ("3 + 4 = 8", 7, "Off by one"),
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
    assert row.t04 == 1  # 2.3 s: the 2.0-2.5 s bucket
    attempt = match.attempts.get()
    assert row.skill == attempt.skill and row.operation == attempt.operation


def test_rebuild_gives_the_same_rollups_as_live_play(class_with_answers):
    _, ana, ben = class_with_answers

    def snapshot():
        skills = sorted(
            SkillDay.objects.filter(student__in=[ana, ben]).values_list(
                "student_id", "day", "skill", "attempts", "correct", "elapsed_ms_sum", "t05"
            )
        )
        facts = sorted(
            FactMissDay.objects.filter(student__in=[ana, ben]).values_list(
                "student_id", "day", "fact", "misses"
            )
        )
        return skills, facts

    live = snapshot()
    SkillDay.objects.filter(student=ana).update(attempts=999)
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
    one[0] = 1  # a single answer under 0.5 s: the middle of the first bucket
    assert median_from_histogram(one) == 250
    slow = list(empty)
    slow[-1] = 3  # 5 minutes and more: the open bucket's lower edge
    assert median_from_histogram(slow) == 300_000
    assert [rollup.time_bucket(ms) for ms in (0, 499, 500, 4999, 5000, 299_999, 10**9)] == [
        0,
        0,
        1,
        9,
        10,
        28,
        29,
    ]
    assert TIME_BUCKET_COUNT == 30
