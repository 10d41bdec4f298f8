"""Benchmark of the analytics: seeds a class (30 students, 200,000 attempts by default), then
prints the time to compile its progress report and the dashboard pages' times and query counts.

Attempts are saved with bulk_create and counted into the rollups by ``rollup.rollup_add``, the
function the live-play receiver calls (the signal itself is not sent: its other receivers expect
real matches). Everything it made is deleted at the end unless ``--keep``. Targets (the issue's):
report <= 10 s, dashboard median <= 200 ms with <= 20 queries.
"""

from __future__ import annotations

import datetime
import math
import random
import statistics
import time
import uuid

from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import engine
from accounts.models import User
from accounts.services import teacher_create
from classroom.models import ProgressReport
from classroom.progress import rollup, services
from classroom.services import classroom_add_student, classroom_create
from engine.core import skill_tag
from engine.mistakes import classify
from games.models import Attempt, Match, MoveRecord, Seat

REPORT_TARGET_S = 10.0
PAGE_TARGET_MS = 200.0
PAGE_QUERY_TARGET = 20
BATCH = 5000


class Command(BaseCommand):
    help = "Seeds a big class and times the progress report and the dashboard pages."

    def add_arguments(self, parser):
        parser.add_argument("--students", type=int, default=30)
        parser.add_argument("--attempts", type=int, default=200_000)
        parser.add_argument("--days", type=int, default=90, help="spread over the last N days")
        parser.add_argument("--requests", type=int, default=20, help="timed requests per page")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the seeded data")

    def handle(self, *args, **options):
        rng = random.Random(options["seed"])
        self.keep = options["keep"]
        self.stdout.write(
            f"bench_progress on {connection.vendor}: {options['students']} students, "
            f"{options['attempts']:,} attempts over {options['days']} days"
        )
        started = time.perf_counter()
        self.match_ids = []
        teacher, classroom, students = self._class(options["students"])
        try:
            self._attempts(rng, students, options["attempts"], options["days"])
            self.stdout.write(f"seeded in {time.perf_counter() - started:.1f} s")
            if connection.vendor == "postgresql":
                # Fresh planner statistics, as autovacuum gathers them soon after a bulk load.
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
            self._report(classroom, options["days"])
            self._pages(teacher, classroom, students[0], options["requests"])
            if connection.vendor == "postgresql":
                self._raw_median(students, options["days"])
        finally:
            if not options["keep"]:
                self._clean(teacher, students)

    # --- seeding ---------------------------------------------------------------------------------

    def _class(self, size):
        tag = uuid.uuid4().hex[:8]
        teacher = teacher_create(
            email=f"bench-{tag}@example.org", password=uuid.uuid4().hex, display_name="Bench"
        )
        classroom = classroom_create(teacher=teacher, name=f"Benchmark {tag}")
        students = [
            classroom_add_student(classroom=classroom, display_name=f"Student {n + 1:02d}")
            for n in range(size)
        ]
        return teacher, classroom, students

    def _attempts(self, rng, students, total, days):
        today = timezone.localdate()
        tz = timezone.get_current_timezone()
        per_student = [total // len(students)] * len(students)
        for n in range(total % len(students)):
            per_student[n] += 1
        batch: list[Attempt] = []
        self.match_ids = []
        # A real table's state, as the pages read it (who passes card after card reads the
        # latest ¡Mía! game of each student): one deal serves every bench match.
        mia = engine.get_game("mia")
        table_state = mia.dump(mia.new(variant="express", players=2, seed=rng.randrange(2**31)))
        for student, count in zip(students, per_student, strict=True):
            skill_level = rng.uniform(0.6, 0.95)
            speed = rng.uniform(2500, 6000)
            # One match a day the student played, its moves' attempts spread over the day.
            match_days = sorted(
                {today - datetime.timedelta(days=rng.randrange(days)) for _ in range(count)}
            )
            matches = Match.objects.bulk_create(
                Match(
                    game="mia",
                    variant="express",
                    seed=rng.randrange(2**31),
                    state=table_state,
                    status=Match.Status.FINISHED,
                    label="bench",
                )
                for _ in match_days
            )
            self.match_ids += [match.pk for match in matches]
            # The student's seat at each (the games-and-time page counts games by seat).
            Seat.objects.bulk_create(
                Seat(match=match, index=0, user=student, name=student.display_name)
                for match in matches
            )
            moves = MoveRecord.objects.bulk_create(
                MoveRecord(
                    match=match,
                    version=1,
                    actor=MoveRecord.Actor.PLAYER,
                    seat=0,
                    received_at=datetime.datetime.combine(day, datetime.time(9), tzinfo=tz),
                    now_ms=0,
                )
                for match, day in zip(matches, match_days, strict=True)
            )
            for _ in range(count):
                slot = rng.randrange(len(match_days))
                when = datetime.datetime.combine(
                    match_days[slot],
                    datetime.time(rng.randrange(8, 16), rng.randrange(60), rng.randrange(60)),
                    tzinfo=tz,
                )
                batch.append(
                    _attempt(rng, student, matches[slot], moves[slot], when, skill_level, speed)
                )
                if len(batch) >= BATCH:
                    self._save(batch)
                    batch = []
        self._save(batch)

    def _save(self, batch):
        with transaction.atomic():
            Attempt.objects.bulk_create(batch)
            rollup.rollup_add(batch)

    # --- timings ---------------------------------------------------------------------------------

    def _report(self, classroom, days):
        today = timezone.localdate()
        report = ProgressReport.objects.create(
            classroom=classroom,
            period_start=today - datetime.timedelta(days=days - 1),
            period_end=today,
        )
        timings = []
        for _ in range(2):  # the first pays for imports and loading fonts
            ProgressReport.objects.filter(pk=report.pk).update(status=ProgressReport.Status.QUEUED)
            started = time.perf_counter()
            outcome = services.report_compile(report_id=report.pk)
            timings.append(time.perf_counter() - started)
            if outcome != "done":
                raise RuntimeError(f"the report was not compiled: {outcome}")
        report.refresh_from_db()
        self.stdout.write(
            f"report compile: {timings[1]:.2f} s (first, cold: {timings[0]:.2f} s); "
            f"PDF {report.pdf_file.size / 1024:.0f} KiB, CSV {report.csv_file.size / 1024:.0f} KiB"
            f"  [target <= {REPORT_TARGET_S:.0f} s: {_verdict(timings[1] <= REPORT_TARGET_S)}]"
        )
        if not self.keep:
            for stored in (report.pdf_file, report.csv_file):
                stored.delete(save=False)

    def _pages(self, teacher, classroom, student, requests):
        client = Client()
        client.force_login(teacher)
        pages = [
            (
                "class page, last 30 days",
                reverse("classroom:progress_class", args=[classroom.pk]),
                {},
            ),
            (
                "class page, last 90 days",
                reverse("classroom:progress_class", args=[classroom.pk]),
                {"period": "90"},
            ),
            (
                "student page, last 30 days",
                reverse("classroom:progress_student", args=[classroom.pk, student.pk]),
                {},
            ),
            (
                "student page, last 90 days",
                reverse("classroom:progress_student", args=[classroom.pk, student.pk]),
                {"period": "90"},
            ),
            (
                "class fact grids, last 30 days",
                reverse("classroom:progress_class_facts", args=[classroom.pk]),
                {},
            ),
            (
                "class fact grids, last 90 days",
                reverse("classroom:progress_class_facts", args=[classroom.pk]),
                {"period": "90"},
            ),
            (
                "games and time, last 30 days",
                reverse("classroom:progress_class_activity", args=[classroom.pk]),
                {},
            ),
            (
                "games and time, last 90 days",
                reverse("classroom:progress_class_activity", args=[classroom.pk]),
                {"period": "90"},
            ),
            ("report list", reverse("classroom:progress_reports"), {}),
        ]
        for name, url, query in pages:
            queries = _QueryCounter()
            with connection.execute_wrapper(queries):
                response = client.get(url, query)  # also warms caches and templates
            if response.status_code != 200:
                raise RuntimeError(f"{name}: HTTP {response.status_code}")
            times = []
            for _ in range(requests):
                started = time.perf_counter()
                client.get(url, query)
                times.append((time.perf_counter() - started) * 1000)
            median = statistics.median(times)
            ok = median <= PAGE_TARGET_MS and queries.count <= PAGE_QUERY_TARGET
            self.stdout.write(
                f"{name}: median {median:.0f} ms (min {min(times):.0f}, max {max(times):.0f}) "
                f"over {requests} requests, {queries.count} queries"
                f"  [target <= {PAGE_TARGET_MS:.0f} ms, <= {PAGE_QUERY_TARGET} queries: "
                f"{_verdict(ok)}]"
            )

    def _raw_median(self, students, days):
        """For comparison: exact medians straight from the attempts, as the rollups avoid."""
        since = timezone.now() - datetime.timedelta(days=days)
        ids = [s.pk for s in students]
        sql = (
            "SELECT user_id, skill, count(*), percentile_cont(0.5) WITHIN GROUP "
            "(ORDER BY elapsed_ms) FROM games_attempt WHERE user_id = ANY(%s) "
            "AND created_at >= %s GROUP BY user_id, skill"
        )
        times = []
        with connection.cursor() as cursor:
            for _ in range(5):
                started = time.perf_counter()
                cursor.execute(sql, [ids, since])
                cursor.fetchall()
                times.append((time.perf_counter() - started) * 1000)
        self.stdout.write(
            f"for comparison, exact medians from the raw attempts (percentile_cont, one query): "
            f"median {statistics.median(times):.0f} ms"
        )

    def _clean(self, teacher, students):
        started = time.perf_counter()
        with transaction.atomic():
            Match.objects.filter(pk__in=self.match_ids).delete()
            User.objects.filter(pk__in=[s.pk for s in students]).delete()
            teacher.delete()  # and with it the class and its reports
        self.stdout.write(f"cleaned up in {time.perf_counter() - started:.1f} s")


class _QueryCounter:
    """Counts statements at the cursor (a request empties Django's own query log as it starts)."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


_TRUE = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "x": lambda a, b: a * b}
_SLIPS = ("off_by_one", "off_by_one", "wrong_operation", "off_by_ten", "other", "other")


def _attempt(rng, student, match, move, when, skill_level, speed) -> Attempt:
    """A plausible answer: mostly small sums, some take-aways and times tables; right with the
    student's skill level, else a typical slip; answer times spread like children's."""
    roll = rng.random()
    if roll < 0.5:
        operator = "+"
        a, b = (
            (rng.randint(1, 10), rng.randint(1, 10))
            if rng.random() < 0.7
            else (
                rng.randint(10, 50),
                rng.randint(1, 30),
            )
        )
    elif roll < 0.8:
        operator = "-"
        a = rng.randint(2, 20)
        b = rng.randint(1, a)
    else:
        operator = "x"
        a, b = rng.randint(2, 10), rng.randint(2, 10)
    expected = _TRUE[operator](a, b)
    answer = expected
    if rng.random() > skill_level:
        slip = rng.choice(_SLIPS)
        if slip == "off_by_one":
            answer = expected + rng.choice((-1, 1))
        elif slip == "off_by_ten":
            answer = expected + rng.choice((-10, 10))
        elif slip == "wrong_operation":
            answer = a + b if operator != "+" else abs(a - b)
        else:
            answer = expected + rng.randint(2, 7)
    correct = answer == expected
    elapsed = min(int(rng.lognormvariate(math.log(speed), 0.55)), 300_000)
    skill = skill_tag(operator, [a, b, expected])
    return Attempt(
        match=match,
        move=move,
        user=student,
        seat=0,
        game="mia",
        operator=operator,
        operation=skill.split(".")[0],
        skill=skill,
        operands=[a, b],
        answer=answer,
        expected=expected,
        correct=correct,
        elapsed_ms=elapsed,
        mistake="" if correct else classify([a, b], operator, answer, expected),
        created_at=when,
    )
