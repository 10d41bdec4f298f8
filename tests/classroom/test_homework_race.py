"""A child double-taps "Play" (or opens two tabs): many requests for the same homework item at the
same instant, each on its own PostgreSQL connection, must leave one work and one match."""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from classroom.homework.services import work_next, work_start
from classroom.models import AssignmentWork
from games.models import Match
from tests.factories import make_assignment, make_class, make_student

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8
ROUNDS = 10


def test_simultaneous_starts_of_one_item_make_one_match(services, request):
    classroom = make_class()
    students = [make_student(classroom, f"S{i}", secret=f"{1000 + i}") for i in range(ROUNDS)]
    assignment = make_assignment(classroom)
    barrier = threading.Barrier(THREADS)

    def start(student, first):
        barrier.wait()
        try:
            if first:
                return work_start(assignment=assignment, student=student, item=0).pk
            return work_next(assignment=assignment, student=student).pk
        finally:
            connection.close()

    pool_size = (connection.pool.min_size, connection.pool.max_size)
    connection.pool.resize(min_size=1, max_size=THREADS + 5)
    request.addfinalizer(lambda: connection.pool.resize(*pool_size))

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for student in students:
            jobs = [pool.submit(start, student, n % 2 == 0) for n in range(THREADS)]
            answers = {job.result() for job in jobs}
            works = list(AssignmentWork.objects.filter(student=student))
            assert [w.pk for w in works] == list(answers)
            assert Match.objects.filter(seats__user=student).count() == 1
    assert Match.objects.count() == ROUNDS
