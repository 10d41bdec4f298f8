"""Benchmark of one class session as large as a school assembly: for 30, 300 and 900 students (by
default; ADD UP at tables of 3) it seeds a class, has every student join, deals the tables, and
prints the teacher's pages' sizes and times in the lobby and during play, the time of "Start",
and the time to compute the live monitor once, then again with five times the answers stored (it
must not grow: the monitor reads running figures, not answers). Everything it made is deleted at
the end unless ``--keep``. Targets (issue 15): every teacher page under 200 KB and 0.5 s, Start
under 1 s.

The pages are read through Django's test client, in this process: what the server does, not the
network. The session played through its sockets on Daphne processes, followed to a teacher's
screen (move -> monitor p95 under 1 s and under 100 KB/s per screen), is a development tool:
``python -m tools.session_load`` (docs/capacity.md).
"""

from __future__ import annotations

import asyncio
import gzip
import statistics
import time
import uuid
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.core.management.base import BaseCommand
from django.db import connection
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import teacher_create
from classroom.models import SessionPresence
from classroom.services import classroom_add_student, classroom_create
from classroom.sessions import selectors, services
from classroom.sessions.figures import figures_rebuild
from games.models import Attempt, Match, MoveRecord

PAGE_TARGET_KB = 200
PAGE_TARGET_S = 0.5
START_TARGET_S = 1.0


class Command(BaseCommand):
    help = "Times a class session's teacher pages and Start for 30, 300 and 900 students."

    def add_arguments(self, parser):
        parser.add_argument("--sizes", type=int, nargs="+", default=[30, 300, 900])
        parser.add_argument("--table-size", type=int, default=3)
        parser.add_argument("--requests", type=int, default=5, help="timed requests per page")
        parser.add_argument(
            "--answers", type=int, default=20, help="answers per student once playing"
        )
        parser.add_argument("--keep", action="store_true", help="keep the seeded data")

    def handle(self, *args, **options):
        self.stdout.write(
            f"bench_session on {connection.vendor}: ADD UP, tables of {options['table_size']}"
        )
        for size in options["sizes"]:
            self._one(
                size,
                options["table_size"],
                options["requests"],
                options["answers"],
                options["keep"],
            )

    def _one(self, size, table_size, requests, answers, keep):
        tag = uuid.uuid4().hex[:8]
        teacher = teacher_create(
            email=f"bench-{tag}@example.com", password=uuid.uuid4().hex, display_name="Bench"
        )
        classroom = classroom_create(teacher=teacher, name=f"Bench {tag}")
        students = [
            classroom_add_student(classroom=classroom, display_name=f"Student {n:04d}")
            for n in range(size)
        ]
        try:
            session = services.session_open(
                classroom=classroom, game="add_up", variant="standard", table_size=table_size
            )
            SessionPresence.objects.bulk_create(
                SessionPresence(session=session, student=student) for student in students
            )
            services.session_deal(session=session)
            client = Client()
            client.force_login(teacher)
            self.stdout.write(f"\n{size} students, {-(-size // table_size)} tables")
            detail = reverse("classroom:sessions_detail", args=[session.pk])
            self._page(client, "lobby page", detail, requests)
            self._page(
                client,
                "lobby live part",
                reverse("classroom:sessions_live", args=[session.pk]),
                requests,
            )
            # SQLite has one connection for every thread, and a caller's transaction (a test's)
            # is not seen from another: stay on this thread then.
            if connection.vendor == "sqlite" or connection.in_atomic_block:
                started = time.perf_counter()
                services.session_start(session=session)
                took = told = time.perf_counter() - started
            else:
                took, told = asyncio.run(self._start_as_a_server_does(session))
            self._line("start", f"{took:.2f} s", took <= START_TARGET_S)
            self.stdout.write(f"  (every student told of their seat {told:.2f} s after Start)")
            session.refresh_from_db()
            self._answers(session, answers)
            self._page(client, "session page, playing", detail, requests)
            self._page(
                client,
                "live part, playing",
                reverse("classroom:sessions_live", args=[session.pk]),
                requests,
            )
            self._page(
                client,
                "projector",
                reverse("classroom:sessions_projector", args=[session.pk]),
                requests,
            )
            self._snapshot(session, requests, "monitor snapshot")
            # The monitor's work per change must not grow as the lesson goes on.
            self._answers(session, answers * 4)
            self._snapshot(session, requests, "monitor snapshot, five times the answers")
        finally:
            if not keep:
                Match.objects.filter(created_by=teacher).delete()
                classroom.delete()
                User.objects.filter(pk__in=[s.pk for s in students] + [teacher.pk]).delete()

    async def _start_as_a_server_does(self, session) -> tuple[float, float]:
        """Start as the view runs it on a server: in a worker thread of the event loop, which the
        news of the seats is handed to, not waited for (games.delivery); then how long until
        that news has left (over Redis when REDIS_URL is set)."""

        def start():
            try:
                services.session_start(session=session)
            finally:
                connection.close()

        started = time.perf_counter()
        await sync_to_async(start)()
        took = time.perf_counter() - started
        while pending := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            await asyncio.gather(*pending, return_exceptions=True)
        return took, time.perf_counter() - started

    def _answers(self, session, answers):
        """``answers`` stored answers per student, each with its move, as live play saves them
        (the monitor reads both): the session as it is some minutes into play."""
        now = timezone.now()
        records, attempts = [], []
        versions = dict(
            MoveRecord.objects.filter(match__session_table__session=session)
            .values("match_id")
            .annotate(last=Max("version"))
            .values_list("match_id", "last")
        )
        for match in Match.objects.filter(session_table__session=session).prefetch_related("seats"):
            version = versions.get(match.pk, match.version)
            for n in range(answers):
                for seat in match.seats.all():
                    if seat.user_id is None:
                        continue
                    version += 1
                    when = now - timedelta(seconds=answers - n)
                    record = MoveRecord(
                        match=match,
                        version=version,
                        actor=MoveRecord.Actor.PLAYER,
                        seat=seat.index,
                        move={"type": "bench"},
                        events=[],
                        received_at=when,
                        now_ms=int(when.timestamp() * 1000),
                    )
                    records.append(record)
                    attempts.append((record, match, seat, n))
        MoveRecord.objects.bulk_create(records, batch_size=5000)
        Attempt.objects.bulk_create(
            (
                Attempt(
                    match=match,
                    move=record,
                    user_id=seat.user_id,
                    seat=seat.index,
                    game=match.game,
                    operator="+",
                    operation="add",
                    skill="add.within20",
                    operands=[7, 8],
                    answer=15 if n % 4 else 14,
                    expected=15,
                    correct=bool(n % 4),
                    elapsed_ms=2000 + 37 * n,
                    created_at=record.received_at,
                )
                for record, match, seat, n in attempts
            ),
            batch_size=5000,
        )
        # Bulk rows skip the move path, which keeps the session's running figures: count them.
        figures_rebuild(session_id=session.pk)
        stored = Attempt.objects.filter(match__session_table__session=session).count()
        self.stdout.write(f"  ({stored:,} answers stored, as after some minutes of play)")

    def _snapshot(self, session, requests, name):
        times = []
        for _ in range(requests):
            started = time.perf_counter()
            selectors.session_monitor(session=session)
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        self._line(name, f"median {median * 1000:.0f} ms", median <= PAGE_TARGET_S)

    def _page(self, client, name, url, requests):
        """Asked for as a browser asks (gzip accepted): the size is what goes over the wire, the
        page's own HTML size beside it."""
        times, sent, html = [], 0, 0
        for _ in range(requests):
            started = time.perf_counter()
            response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
            times.append(time.perf_counter() - started)
            if response.status_code != 200:
                raise RuntimeError(f"{name}: {response.status_code}")
            sent = len(response.content)
            compressed = response.get("Content-Encoding") == "gzip"
            html = len(gzip.decompress(response.content)) if compressed else sent
        median = statistics.median(times)
        ok = median <= PAGE_TARGET_S and sent <= PAGE_TARGET_KB * 1024
        self._line(
            name,
            f"median {median * 1000:.0f} ms, {sent / 1024:.0f} KB sent ({html / 1024:.0f} KB HTML)",
            ok,
        )

    def _line(self, name, figures, ok):
        self.stdout.write(f"  {name}: {figures} {'(target met)' if ok else '(target MISSED)'}")
