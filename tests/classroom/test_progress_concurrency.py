"""The rollups under concurrent writers on PostgreSQL: moves of one student committed at the same
instant by several processes (threads with their own connections here) lose no count, and
writers of overlapping rows never deadlock (rows are upserted in key order)."""

import datetime
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from classroom.models import FactMissDay, SkillDay, SkillWeek
from tests.factories import make_attempts, make_class, make_student

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

THREADS = 8
MOVES = 15
WHEN = datetime.datetime(2026, 3, 3, 10, tzinfo=datetime.UTC)


def test_concurrent_moves_of_one_student_are_all_counted(services, request):
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    barrier = threading.Barrier(THREADS)

    def play(thread):
        try:
            barrier.wait()
            for move in range(MOVES):
                # Both students in one transaction, in an order that differs between threads.
                first, second = (ana, ben) if (thread + move) % 2 else (ben, ana)
                make_attempts(first, [(3, "+", 4, 8, 1000, WHEN), (9, "-", 4, 5, 2000, WHEN)])
                make_attempts(second, [(3, "+", 4, 7, 1000, WHEN)])
        finally:
            connection.close()

    pool_size = (connection.pool.min_size, connection.pool.max_size)
    connection.pool.resize(min_size=1, max_size=THREADS + 5)
    request.addfinalizer(lambda: connection.pool.resize(*pool_size))
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        list(pool.map(play, range(THREADS)))

    moves = THREADS * MOVES
    for student in (ana, ben):
        add = SkillDay.objects.get(student=student, skill="add.within10")
        assert add.attempts == moves  # first or second, one add.within10 answer per round
        week = SkillWeek.objects.get(student=student, skill="add.within10")
        assert (week.attempts, week.correct) == (add.attempts, add.correct)
    misses = sum(FactMissDay.objects.filter(fact="4+3").values_list("misses", flat=True))
    assert misses == moves  # 3 + 4 = 8, once per round by whoever went first


def test_simultaneous_requests_for_one_report_make_one(services, monkeypatch):
    """Teachers double-click: requests for one class and period at the same instant, each on a
    connection of its own, join one report."""
    from django.db import connections

    from classroom.models import ProgressReport
    from classroom.progress import services as reports
    from classroom.progress.selectors import Period

    monkeypatch.setattr(reports, "_enqueue", lambda report_id: None)  # no worker needed here
    classroom = make_class()
    period = Period(datetime.date(2026, 3, 1), datetime.date(2026, 3, 14))
    barrier = threading.Barrier(4)

    def request_it(_):
        try:
            barrier.wait(timeout=10)
            return reports.report_request(classroom=classroom, period=period).pk
        finally:
            connections.close_all()

    with ThreadPoolExecutor(4) as pool:
        ids = list(pool.map(request_it, range(4), timeout=60))
    assert len(set(ids)) == 1 and ProgressReport.objects.count() == 1
