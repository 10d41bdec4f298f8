"""A child's own progress page (docs/progress.md, "The child's own page"): this week's stars, the
facts they came to know by heart, their best day. Only their own answers, never a classmate's or
the class's."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Sum
from django.utils import timezone

from classroom.progress.mastery import Level, student_fact_grids
from classroom.progress.models import SkillDay
from classroom.progress.rollup import week_start
from classroom.progress.wording import known_fact_text

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
