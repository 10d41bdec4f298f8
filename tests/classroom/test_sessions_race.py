"""Students join a dealt lobby at the very moment the teacher starts, each thread with its own
PostgreSQL connection: the session's row lock must leave every student who got in before the start
seated exactly once, no table over its size, every table one match, and the students who came
after the start waiting for a table (never seated twice, never at a full table)."""

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from classroom.models import ClassSession, SessionPlace, SessionPresence
from classroom.sessions.services import (
    session_deal,
    session_join,
    session_seat_late_arrivals,
    session_start,
)
from games.models import Match, Seat
from tests.classroom.sessions_helpers import a_class
from tests.factories import make_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

EARLY = 6
LATE = 24
ROUNDS = 5


def at_once(barrier, write, **kwargs):
    barrier.wait()
    try:
        write(**kwargs)
    finally:
        connection.close()  # back to the pool


def test_joins_racing_the_start_seat_everybody_once(services, request):
    pool_size = (connection.pool.min_size, connection.pool.max_size)
    connection.pool.resize(min_size=1, max_size=LATE + 10)
    request.addfinalizer(lambda: connection.pool.resize(*pool_size))

    for _round in range(ROUNDS):
        classroom, students = a_class(EARLY + LATE)
        session = make_session(classroom, table_size=4)
        for student in students[:EARLY]:
            session_join(session=session, student=student)
        session_deal(session=session)
        barrier = threading.Barrier(LATE + 1)
        with ThreadPoolExecutor(max_workers=LATE + 1) as pool:
            jobs = [
                pool.submit(at_once, barrier, session_join, session=session, student=s)
                for s in students[EARLY:]
            ]
            jobs.append(pool.submit(at_once, barrier, session_start, session=session))
            for job in jobs:
                job.result()

        session.refresh_from_db()
        assert session.status == ClassSession.Status.PLAYING
        places = list(SessionPlace.objects.filter(table__session=session))
        seated = Counter(place.student_id for place in places)
        assert all(count == 1 for count in seated.values())
        present = set(
            SessionPresence.objects.filter(session=session).values_list("student_id", flat=True)
        )
        assert present == {s.pk for s in students}
        # Whoever is not seated joined after the start, and will get a table from the teacher.
        assert {students[i].pk for i in range(EARLY)} <= set(seated)
        per_table = Counter(place.table_id for place in places)
        assert max(per_table.values()) <= 4
        matches = Match.objects.filter(session_table__session=session)
        assert matches.count() == len(per_table)
        seated_in_matches = Counter(
            Seat.objects.filter(match__in=matches, user__isnull=False).values_list(
                "user_id", flat=True
            )
        )
        assert seated_in_matches == seated
        late = session_seat_late_arrivals(session=session)
        assert len(late) == -(-(len(present) - len(seated)) // 4)
        assert SessionPlace.objects.filter(table__session=session).count() == EARLY + LATE
