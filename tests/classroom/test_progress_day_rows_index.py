"""A period's days around its whole weeks (a few at each end) are read from the day tables
through an index on the day, not by reading every day row the class ever made: on PostgreSQL the
period queries did read the whole table (20 ms of the class page over 90 days, growing with the
history kept; docs/capacity.md, "Progress pages and the report")."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection

from classroom.progress import selectors
from classroom.progress.models import AnswerTimesDay, AnswerTimesWeek, FactMissDay, FactMissWeek
from tests.factories import make_class, make_student

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("services")]

DAYS = 120
SKILLS = ("add.to10", "add.to20", "mul.to25", "mul.to100")


def _history(students, today):
    rows, misses = [], []
    for student in students:
        for back in range(DAYS):
            day = today - datetime.timedelta(days=back)
            week = day - datetime.timedelta(days=day.weekday())
            for number, skill in enumerate(SKILLS):
                operation = skill.partition(".")[0]
                for bucket in range(6):
                    rows.append(
                        AnswerTimesDay(
                            student=student,
                            day=day,
                            week=week,
                            skill=skill,
                            operation=operation,
                            bucket=bucket,
                            answers=3,
                        )
                    )
                misses.append(
                    FactMissDay(
                        student=student,
                        day=day,
                        week=week,
                        fact=f"{number}+{back % 9}",
                        operation=operation,
                        misses=1,
                    )
                )
    AnswerTimesDay.objects.bulk_create(rows)
    FactMissDay.objects.bulk_create(misses)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {AnswerTimesDay._meta.db_table}, {FactMissDay._meta.db_table}")


def _plan(sql, params) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.timeout(60)
def test_the_days_of_a_period_are_read_through_the_day_index():
    classroom = make_class()
    students = [make_student(classroom, name=f"Child {n}") for n in range(8)]
    today = datetime.date(2026, 11, 26)  # a Thursday: days at both ends of the 90
    _history(students, today)
    period = selectors.Period.last_days(90, today=today)
    _weeks, edges = selectors._whole_weeks(period)
    assert edges, "the period must have days around its whole weeks"
    ids = [student.pk for student in students]

    times_sql, times_params = selectors._summed_sql(
        AnswerTimesWeek, AnswerTimesDay, None, edges, ids, ("student_id", "bucket"), ("answers",)
    )
    plan = _plan(times_sql, times_params)
    assert f"Seq Scan on {AnswerTimesDay._meta.db_table}" not in plan, plan
    assert "answertimesday_day" in plan, plan

    fact_rows = selectors._in_period(FactMissDay, FactMissWeek, period, ids)[-1]
    plan = _plan(*fact_rows.values("fact").query.sql_with_params())
    assert f"Seq Scan on {FactMissDay._meta.db_table}" not in plan, plan
    assert "factmissday_day" in plan, plan
