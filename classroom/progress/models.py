"""Rollups behind the accuracy analytics (imported by classroom.models, so they belong to the
classroom app and its migrations).

Why rollups and not queries over ``games.Attempt``: a class of 30 students who played for a term
has some 200,000 attempts; an exact median over them (PostgreSQL ``percentile_cont``) sorts every
row of the period on each page view (``bench_progress`` prints how long: about as long as the whole
dashboard may take), and SQLite has no median at all. The dashboard needs accuracy, median answer
time, a weekly trend, most-missed facts and error patterns, per student and per skill, over any
range of days. So each attempt is counted once, when it is written, into:

- ``SkillDay`` and ``SkillWeek``: per student, day (or Monday-to-Sunday week) and skill
  ("add.within20"): the counts, the sum of answer times and the count of each kind of slip. A
  period's figures are plain ``SUM`` queries, the same on both databases: its whole weeks come
  from ``SkillWeek``, the days before the first Monday and after the last Sunday from
  ``SkillDay``; 90 days of a class of 30 are some 6,000 rows instead of 200,000 attempts (or
  22,000 daily rows).
- ``AnswerTimesDay`` and ``AnswerTimesWeek``: the same rows' histograms of answer times in fixed
  buckets (``TIME_BUCKET_EDGES_MS``), a row per student, day (week), skill and bucket that has
  answers, so a histogram is one ``GROUP BY`` (..., bucket) on both databases and a move adds to a
  few short rows (not 112 columns a row, one per bucket).
  A median is read off the summed histogram (``figures.median_from_histogram``): within 0.2 s
  of the true median, or 5% of it past 4 s, as the pages say (the buckets are 0.1 s wide to 4 s,
  then 5% wide to two minutes). A lesson's running figures keep theirs the same way
  (``classroom.models.SessionAnswerTimes``).
- ``FactMissDay`` and ``FactMissWeek``: per student, day (week) and missed fact ("8+5"; 5+8 is
  the same fact), for wrong answers only: most-missed facts are counted over the misses, which are
  few, instead of over every answer (a table of all answers per fact would be as long as the
  attempts themselves).

All six are written in the transaction that saves the attempts
(``games.hooks``, see ``classroom.progress.rollup``), so they never disagree
with the attempts; ``rollup.rollups_rebuild`` recomputes them from the attempts when needed.
"""

from django.conf import settings
from django.db import models


def _answer_time_edges() -> tuple[int, ...]:
    """Upper edges, in ms, of the answer-time buckets: 0.1 s wide and centred on the tenths of a
    second up to 3.95 s (where most of a practised child's answers fall, each is then read as the
    tenth the page shows), then each at most 5% wider than where it starts, up to two minutes; the
    last bucket is open. A value read as its bucket's middle is within 0.1 s or 2.5% of the
    truth, and a median (the mean of one or two such values) within ``MEDIAN_BOUND_MS`` or
    ``MEDIAN_BOUND_SHARE`` of it, whichever is larger (``figures.median_from_histogram``)."""
    edges = list(range(50, 4000, 100))
    while edges[-1] < MEDIAN_EXACT_BELOW_MS:
        edges.append(min(edges[-1] * 105 // 1000 * 10, MEDIAN_EXACT_BELOW_MS))
    return tuple(edges)


MEDIAN_BOUND_MS = 200
MEDIAN_BOUND_SHARE = 0.05
# Past two minutes a median is shown as "at least": the last bucket has no upper edge.
MEDIAN_EXACT_BELOW_MS = 120_000
TIME_BUCKET_EDGES_MS = _answer_time_edges()
TIME_BUCKET_COUNT = len(TIME_BUCKET_EDGES_MS) + 1
MISTAKE_FIELDS = {
    # Attempt.mistake (engine.mistakes.KINDS) -> column
    "wrong_operation": "wrong_operation",
    "regrouping": "regrouping",
    "table_neighbour": "table_neighbour",
    "table_related": "table_related",
    "operand_misread": "operand_misread",
    "reversed_digits": "reversed_digits",
    "off_by_one": "off_by_one",
    "off_by_two": "off_by_two",
    "off_by_ten": "off_by_ten",
    "operand_intrusion": "operand_intrusion",
    "far_off": "far_off",
    "other": "other_mistake",
}


class SkillCounts(models.Model):
    """A student's answers of one skill over a day or a week."""

    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    week = models.DateField()  # the Monday of the week: the weekly trend groups on it
    skill = models.CharField(max_length=32)
    operation = models.CharField(max_length=8)
    attempts = models.PositiveIntegerField(default=0, db_default=0)
    correct = models.PositiveIntegerField(default=0, db_default=0)
    elapsed_ms_sum = models.BigIntegerField(default=0, db_default=0)
    off_by_one = models.PositiveIntegerField(default=0, db_default=0)
    off_by_ten = models.PositiveIntegerField(default=0, db_default=0)
    wrong_operation = models.PositiveIntegerField(default=0, db_default=0)
    regrouping = models.PositiveIntegerField(default=0, db_default=0)
    table_neighbour = models.PositiveIntegerField(default=0, db_default=0)
    operand_misread = models.PositiveIntegerField(default=0, db_default=0)
    reversed_digits = models.PositiveIntegerField(default=0, db_default=0)
    table_related = models.PositiveIntegerField(default=0, db_default=0)
    off_by_two = models.PositiveIntegerField(default=0, db_default=0)
    operand_intrusion = models.PositiveIntegerField(default=0, db_default=0)
    far_off = models.PositiveIntegerField(default=0, db_default=0)
    other_mistake = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        abstract = True
        app_label = "classroom"

    def __str__(self) -> str:
        return f"{self.student_id} {self.week} {self.skill}: {self.correct}/{self.attempts}"


class SkillDay(SkillCounts):
    day = models.DateField()

    class Meta:
        app_label = "classroom"
        constraints = [
            # Also the index of every period query: student IN (...) AND day BETWEEN ...
            models.UniqueConstraint(fields=["student", "day", "skill"], name="skillday_unique")
        ]


class SkillWeek(SkillCounts):
    class Meta:
        app_label = "classroom"
        constraints = [
            models.UniqueConstraint(fields=["student", "week", "skill"], name="skillweek_unique")
        ]


class AnswerTimes(models.Model):
    """How many of a student's answers of one skill over a day or a week took a time within one
    bucket (``TIME_BUCKET_EDGES_MS``; bucket 0 is the fastest). A row only for the buckets that
    have answers: a practised child's answers of a week fall in a dozen or so of them."""

    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    week = models.DateField()
    skill = models.CharField(max_length=32)
    operation = models.CharField(max_length=8)  # the skill's, as in SkillCounts: the trend's lines
    bucket = models.PositiveSmallIntegerField()
    answers = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        abstract = True
        app_label = "classroom"

    def __str__(self) -> str:
        return f"{self.student_id} {self.week} {self.skill} t{self.bucket}: {self.answers}"


class AnswerTimesDay(AnswerTimes):
    day = models.DateField()

    class Meta:
        app_label = "classroom"
        constraints = [
            models.UniqueConstraint(
                fields=["student", "day", "skill", "bucket"], name="answertimesday_unique"
            )
        ]
        # A period's days around its whole weeks are a few days at each end: without an index
        # on the day, PostgreSQL read the whole table for them (20 ms of the class page over 90
        # days, and growing with the history kept; docs/capacity.md).
        indexes = [models.Index(fields=["day"], name="answertimesday_day")]


class AnswerTimesWeek(AnswerTimes):
    class Meta:
        app_label = "classroom"
        constraints = [
            models.UniqueConstraint(
                fields=["student", "week", "skill", "bucket"], name="answertimesweek_unique"
            )
        ]


class FactMisses(models.Model):
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    week = models.DateField()
    fact = models.CharField(max_length=24)  # normalised, e.g. "8+5", "9-4", "7x6"
    operation = models.CharField(max_length=8)
    misses = models.PositiveIntegerField(default=0, db_default=0)

    class Meta:
        abstract = True
        app_label = "classroom"

    def __str__(self) -> str:
        return f"{self.student_id} {self.week} {self.fact}: {self.misses}"


class FactMissDay(FactMisses):
    day = models.DateField()

    class Meta:
        app_label = "classroom"
        constraints = [
            models.UniqueConstraint(fields=["student", "day", "fact"], name="factmissday_unique")
        ]
        indexes = [models.Index(fields=["day"], name="factmissday_day")]  # as AnswerTimesDay's


class FactMissWeek(FactMisses):
    class Meta:
        app_label = "classroom"
        constraints = [
            models.UniqueConstraint(fields=["student", "week", "fact"], name="factmissweek_unique")
        ]
