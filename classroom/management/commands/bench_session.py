"""Benchmark of one class session as large as a school assembly: for 30, 300 and 900 students (by
default; ADD UP at tables of 3) it seeds a class, has every student join, deals the tables, and
prints the teacher's pages' sizes and times in the lobby and during play, the time of "Start",
and the time to compute the live monitor once. Everything it made is deleted at the end unless
``--keep``. Targets (issue 15): every teacher page under 200 KB and 0.5 s, Start under 1 s.

The pages are read through Django's test client, in this process: what the server does, not the
network. Move -> monitor latency needs sockets and is measured by the load test, not here.
"""

from __future__ import annotations

import gzip
import statistics
import time
import uuid
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import teacher_create
from classroom.models import SessionPresence
from classroom.services import classroom_add_student, classroom_create
from classroom.sessions import selectors, services
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
            started = time.perf_counter()
            services.session_start(session=session)
            took = time.perf_counter() - started
            self._line("start", f"{took:.2f} s", took <= START_TARGET_S)
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
            times = []
            for _ in range(requests):
                started = time.perf_counter()
                selectors.session_monitor(session=session)
                times.append(time.perf_counter() - started)
            self._line(
                "monitor snapshot",
                f"median {statistics.median(times) * 1000:.0f} ms",
                statistics.median(times) <= PAGE_TARGET_S,
            )
        finally:
            if not keep:
                Match.objects.filter(created_by=teacher).delete()
                classroom.delete()
                User.objects.filter(pk__in=[s.pk for s in students] + [teacher.pk]).delete()

    def _answers(self, session, answers):
        """``answers`` stored answers per student, each with its move, as live play saves them
        (the monitor reads both): the session as it is some minutes into play."""
        now = timezone.now()
        records, attempts = [], []
        for match in Match.objects.filter(session_table__session=session).prefetch_related("seats"):
            version = match.version
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
        self.stdout.write(f"  ({len(attempts):,} answers stored, as after some minutes of play)")

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
