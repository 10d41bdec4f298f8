"""Move -> monitor latency of one large session, measured through the real servers
(``python -m tools.session_load``; ``manage.py bench_session`` times the pages without servers).

    python -m tools.session_load --sizes 30 300 900 --daphnes 2 --rate 0.2 --duration 30

A class of load-test students (tools.loadtest) joins one session; the teacher deals and starts it
through the sessions services; the students then play ADD UP through their match sockets on
Daphne processes at a given rate (tools.loadtest.driver.LoadRun), while one teacher's screen is
imitated: the monitor socket (``/ws/session/<id>/``) and, after each of its messages, a fetch of
the page's live part (only the tables the message names, whole on connect and on the tick), as
static/js/session-live.js does, one fetch at a time.

A move is on the teacher's screen once a fetch whose ``X-As-Of`` (the server's clock before it
read the figures) is no earlier than the move's acknowledgement has arrived, and it asked for the
move's table or for everything. Latency is counted from when the move was sent, so it is never
flattering. Client and servers share one machine and its clock.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import http.client
import json
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import websockets
from django.contrib.auth import get_user_model
from django.urls import reverse

import engine
from accounts.services import teacher_create
from classroom.models import Enrollment, SessionPresence
from classroom.services import classroom_create
from classroom.sessions import services
from games.models import Match
from tools.loadtest import driver as loadtest
from tools.loadtest.servers import DaphneFleet, origin_for, shared_services
from tools.signed_in import signed_in_cookie

# perf_counter -> wall clock, for comparing the client's times with the server's ``as_of``
_WALL_OFFSET = time.time() - time.perf_counter()


@dataclass
class LiveSession:
    session_id: int
    classroom_id: int
    teacher_id: int
    teacher_cookie: str
    tables: list[loadtest.TableSpec]
    student_cookies: list[str]


def live_session_create(*, run: str, size: int, table_size: int) -> LiveSession:
    """A class of ``size`` signed-in students in one started session of ADD UP."""
    teacher = teacher_create(
        email=f"bench-live-{run}@example.com", password=run * 4, display_name="Bench"
    )
    classroom = classroom_create(teacher=teacher, name=f"Bench live {run}")
    students = loadtest.students_create(run=run, count=size)
    Enrollment.objects.bulk_create(
        Enrollment(classroom=classroom, student_id=s.user_id) for s in students
    )
    session = services.session_open(
        classroom=classroom, game="add_up", variant="standard", table_size=table_size
    )
    SessionPresence.objects.bulk_create(
        SessionPresence(session=session, student_id=s.user_id) for s in students
    )
    services.session_deal(session=session)
    services.session_start(session=session)
    return LiveSession(
        session.pk,
        classroom.pk,
        teacher.pk,
        signed_in_cookie(teacher),
        session_tables(session.pk, students),
        [s.cookie for s in students],
    )


def session_tables(session_id: int, students: list[loadtest.Student]) -> list[loadtest.TableSpec]:
    """The started session's matches as the load test's tables, each seat played by the student
    sitting in it (``students``: every student seated, with their signed-in cookies)."""
    by_user = {s.user_id: s for s in students}
    tables = []
    matches = Match.objects.filter(session_table__session_id=session_id).prefetch_related("seats")
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda seat: seat.index)
        if any(seat.user_id is None for seat in seats):
            raise RuntimeError("a table has a bot: give a size that the table size divides")
        tables.append(
            loadtest.TableSpec(
                [by_user[seat.user_id] for seat in seats],
                match.pk,
                match.seed,
                engine.get_game(match.game).load(match.state),
            )
        )
    return tables


def live_session_delete(live: LiveSession, run: str) -> None:
    from classroom.models import Classroom

    Classroom.objects.filter(pk=live.classroom_id).delete()
    loadtest.loadtest_cleanup(run=run, cookies=[*live.student_cookies, live.teacher_cookie])
    get_user_model().objects.filter(pk=live.teacher_id).delete()


@dataclass
class Shown:
    as_of: float  # wall-clock seconds
    on_screen: float  # wall-clock seconds: the live part was fetched
    fetch_s: float
    wire_bytes: int  # the message and the compressed live part
    tables: frozenset[int] | None  # the tables fetched; None: all


@dataclass
class MonitorFigures:
    shown: list[Shown] = field(default_factory=list)
    # (match id, sent, acknowledged), wall clock
    moves: list[tuple[int, float, float]] = field(default_factory=list)
    errors: int = 0

    def latencies_ms(self) -> tuple[list[float], int]:
        """Each move's latency to the screen, and the moves no message showed."""
        shown = sorted(self.shown, key=lambda s: s.as_of)
        as_of = [s.as_of for s in shown]
        latencies, missing = [], 0
        for match_id, sent, acknowledged in self.moves:
            index = bisect.bisect_left(as_of, acknowledged)
            on_screen = next(
                (s.on_screen for s in shown[index:] if s.tables is None or match_id in s.tables),
                None,
            )
            if on_screen is None:
                missing += 1
            else:
                latencies.append((on_screen - sent) * 1000)
        return sorted(latencies), missing

    def percentile_ms(self, p: int) -> float | None:
        latencies, _missing = self.latencies_ms()
        return latencies[max(0, -(-p * len(latencies) // 100) - 1)] if latencies else None

    def report(self, seconds: float) -> list[str]:
        latencies, missing = self.latencies_ms()
        pct = self.percentile_ms

        fetches = [s.fetch_s * 1000 for s in self.shown]
        rate = sum(s.wire_bytes for s in self.shown) / 1024 / seconds if seconds else 0
        return [
            f"moves followed: {len(self.moves)}, shown: {len(latencies)}, never shown: {missing}",
            "move -> monitor (sent to on screen, live part fetched): "
            + ", ".join(f"p{p} {pct(p):.0f} ms" for p in (50, 95, 99) if pct(p) is not None),
            f"monitor messages: {len(self.shown)} in {seconds:.0f} s, live part fetch median "
            f"{statistics.median(fetches) if fetches else 0:.0f} ms, "
            f"{rate:.1f} KB/s to the teacher's screen",
        ]


class MonitorScreen:
    """One teacher's session page: its monitor socket and the live part fetched on each message.
    ``projector``: the projector's page instead, which follows the same socket but fetches its
    whole live part on every message (its region has no data-live-parts) and tells no ``X-As-Of``:
    its figures are its fetches, not the moves it shows."""

    def __init__(
        self,
        *,
        url: str,
        session_id: int,
        cookie: str,
        figures: MonitorFigures,
        projector: bool = False,
    ):
        self.url = url
        self.session_id = session_id
        self.cookie = cookie
        self.figures = figures
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.whole_part_only = projector
        live_view = "classroom:sessions_projector_live" if projector else "classroom:sessions_live"
        self.live_path = reverse(live_view, args=[session_id])

    async def open(self) -> None:
        self.ws = await websockets.connect(
            f"{self.url}/ws/session/{self.session_id}/",
            origin=origin_for(self.url),
            additional_headers={"Cookie": self.cookie},
            proxy=None,
            open_timeout=60,
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                message = json.loads(text)
                if message.get("type") != "monitor":
                    continue
                tables = None if self.whole_part_only else message.get("tables")
                asked = None if tables is None else frozenset(tables)
                if asked is not None and not asked:
                    continue
                fetch_s, size, as_of = await asyncio.to_thread(self._fetch_live_part, asked)
                self.figures.shown.append(
                    Shown(as_of / 1000, time.time(), fetch_s, len(text) + size, asked)
                )

    def _fetch_live_part(self, tables: frozenset[int] | None) -> tuple[float, int, int]:
        parts = urlsplit(self.url.replace("ws://", "http://"))
        path = self.live_path
        if tables is not None:
            path += "?tables=" + ",".join(str(t) for t in sorted(tables))
        started = time.perf_counter()
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        try:
            connection.request(
                "GET", path, headers={"Cookie": self.cookie, "Accept-Encoding": "gzip"}
            )
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                self.figures.errors += 1
            as_of = int(response.getheader("X-As-Of", "0"))
        finally:
            connection.close()
        return time.perf_counter() - started, len(body), as_of

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(self.reader, 30)


@dataclass
class ClassScreens:
    """What one class's teacher had open: the session page's monitor and, when asked for, the
    projector's page."""

    session_id: int
    monitor: MonitorFigures = field(default_factory=MonitorFigures)
    projector: MonitorFigures | None = None


async def measure(
    live: LiveSession,
    urls: list[str],
    pids: list[int],
    *,
    rate: float,
    duration: float,
    screen: bool = True,
) -> tuple[loadtest.Figures, MonitorFigures]:
    """Plays the session at ``rate`` moves a second for ``duration`` seconds, the teacher's
    screen on the first server (unless ``screen`` is false: what the players see without it), and
    follows every move of the session's matches to it."""
    figures, (screens,) = await measure_classes(
        [live], urls, pids, rate=rate, duration=duration, screen=screen
    )
    return figures, screens.monitor


async def measure_classes(
    lives: list[LiveSession],
    urls: list[str],
    pids: list[int],
    *,
    rate: float,
    duration: float,
    screen: bool = True,
    projector: bool = False,
) -> tuple[loadtest.Figures, list[ClassScreens]]:
    """Several classes' sessions played at once, ``rate`` moves a second in all, each followed to
    its teacher's screen (and, with ``projector``, the projector's page open beside it) on the
    first server."""
    screens = [
        ClassScreens(live.session_id, projector=MonitorFigures() if projector else None)
        for live in lives
    ]
    monitor_of = {
        table.match_id: class_screens.monitor
        for live, class_screens in zip(lives, screens, strict=True)
        for table in live.tables
    }

    def acknowledged(match_id: int, sent: float, received: float) -> None:
        monitor = monitor_of.get(match_id)
        if monitor is not None:
            monitor.moves.append((match_id, sent + _WALL_OFFSET, received + _WALL_OFFSET))

    run = loadtest.LoadRun(
        tables=[table for live in lives for table in live.tables],
        urls=urls,
        game="add_up",
        variant="standard",
        level="easy",
        daphne_pids=pids,
        log=lambda line: None,
        on_acknowledged=acknowledged,
    )
    watchers = []
    for live, class_screens in zip(lives, screens, strict=True):
        pages = [(class_screens.monitor, False)]
        if class_screens.projector is not None:
            pages.append((class_screens.projector, True))
        watchers.extend(
            MonitorScreen(
                url=urls[0],
                session_id=live.session_id,
                cookie=live.teacher_cookie,
                figures=figures,
                projector=is_projector,
            )
            for figures, is_projector in pages
        )
    try:
        await run.connect()
        if screen:
            for watcher in watchers:
                await watcher.open()
        figures = await run.play(rate, duration)
        await run.drain(figures)
        # The last moves' snapshot: the throttle sends one within half a second.
        await asyncio.sleep(3)
    finally:
        for watcher in watchers:
            await watcher.close()
        await run.close()
        await asyncio.sleep(1.0)
    return figures, screens


# --- the command line ----------------------------------------------------------------------------

MONITOR_TARGET_MS = 1000  # move -> monitor p95 (issue 15)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.session_load",
        description="Plays a class session of each size through Daphne processes (PostgreSQL and "
        "Redis) while a teacher's screen is imitated: move -> monitor latency (docs/capacity.md).",
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 300, 900])
    parser.add_argument("--table-size", type=int, default=3)
    parser.add_argument("--daphnes", type=int, default=2)
    parser.add_argument("--rate", type=float, default=0.2, help="moves a second per student")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds")
    parser.add_argument(
        "--no-screen",
        action="store_true",
        help="no teacher's screen (the players' figures without it)",
    )
    return parser


def run_session_load(options: dict | list[str], *, stdout=None) -> bool:
    """Each size's session played and followed to the teacher's screen; the report goes to
    ``stdout``. True when every size met the target."""
    if isinstance(options, list):
        options = vars(parser().parse_args(options))
    stdout = stdout or sys.stdout
    if not shared_services():
        raise ValueError("the live session needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    met = True
    for size in options["sizes"]:
        stdout.write(f"\n{size} students, ADD UP at tables of {options['table_size']}\n")
        met = _live(size, options, stdout) and met
    return met


def _live(size: int, options: dict, stdout) -> bool:
    rate = options["rate"] * size
    run = secrets.token_hex(4)
    live = live_session_create(run=run, size=size, table_size=options["table_size"])
    # Earlier sizes wrote and deleted many rows: their dead rows must not be vacuumed in the middle
    # of the measurement.
    loadtest.database_vacuum()
    try:
        with DaphneFleet(options["daphnes"]) as fleet:
            figures, monitor = asyncio.run(
                measure(
                    live,
                    fleet.urls,
                    fleet.pids,
                    rate=rate,
                    duration=options["duration"],
                    screen=not options["no_screen"],
                )
            )
    finally:
        live_session_delete(live, run)
    stdout.write(
        f"  live, {options['daphnes']} Daphne processes, {rate:g} moves/s for "
        f"{options['duration']:g} s: {figures.acked} moves acknowledged, "
        f"players' p99 {figures.worst_p99} ms, lost {figures.lost}; CPU: "
        + ", ".join(f"{name} {percent:.0f}%" for name, percent in figures.cpu.items())
        + "\n"
    )
    if options["no_screen"]:
        return figures.lost == 0
    for line in monitor.report(figures.duration):
        stdout.write("  " + line + "\n")
    _latencies, missing = monitor.latencies_ms()
    p95 = monitor.percentile_ms(95)
    ok = p95 is not None and p95 <= MONITOR_TARGET_MS and not missing and not monitor.errors
    shown = f"{p95:.0f} ms" if p95 is not None else "none shown"
    stdout.write(f"  move -> monitor p95: {shown} {'(target met)' if ok else '(target MISSED)'}\n")
    return ok


def main(argv: list[str] | None = None) -> int:
    try:
        return 0 if run_session_load(argv or sys.argv[1:]) else 1
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
