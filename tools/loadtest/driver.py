"""The load test of live play: ``python -m tools.loadtest`` (docs/capacity.md).

Real websocket clients in one asyncio process. Students sit at tables of three and play a
turn-based game (ADD UP by default) through ``/ws/match/<id>/`` at a target total rate of moves.
Each table keeps a mirror of its engine state, started from the seed the test chose and advanced by
every acknowledged move, so the seat whose turn it is picks its move with the engine's own bot:
students playing bots' moves as fast as a class would, through the real server. ¡Mía!, the
real-time game, is raced instead (tools.loadtest.mia): every seat claims the same card at once.

The set-up (students, their sessions, their matches) goes through the ORM and the real services;
the load goes through the sockets only. The servers are either running already (``--url``) or
started here (tools.loadtest.servers.DaphneFleet, also used by the tests that need several Daphne
processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import json
import math
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import psutil
import websockets
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection, connections, transaction

import engine
from accounts.models import Role
from games.models import Match
from games.services import SeatSpec, match_create, now_ms
from tools.loadtest.servers import match_socket
from tools.signed_in import signed_in_cookie, signed_out

USERNAME_PREFIX = "loadtest-"
TABLE_SIZE = 3
GAMES = ("add_up", "sum")  # turn-based: one move in flight per table, easy to mirror
# The consumer writes these keys first, in this order, so the version is read without parsing the
# whole message (the view and events are the bulk of it and the client needs neither).
STATE_PREFIX = '{"type":"state","version":'
# Saturation: the achieved rate falls short of the target by more than this, or p99 is above it.
SHORTFALL = 0.95
P99_LIMIT_MS = 50.0
# A move not answered within this is counted as unanswered and its table's mirror reloaded.
STUCK_SECONDS = 10.0
# A move answered try_again (the server is busy or restarting) is sent again after these waits,
# as the page sends it (static/js/play/moves.js, RESEND_AFTER_MS).
RESEND_AFTER_S = (1.0, 2.0)
# How the sockets are spread over the servers (LoadRun): one by one, or each match on one server.
ROUTES = ("socket", "match")


# --- set-up: students, sessions, matches (sync, ORM) ---------------------------------------------


@dataclass(frozen=True)
class Student:
    user_id: int
    name: str
    cookie: str  # the Cookie header of their signed-in session


@dataclass
class TableSpec:
    students: list[Student]
    match_id: int
    seed: int
    state: engine.State  # the mirror, as the match starts


def students_create(*, run: str, count: int) -> list[Student]:
    """``count`` student accounts named ``loadtest-<run>-<n>``, each signed in (a session made
    directly, as the class-code login would leave it)."""
    User = get_user_model()
    users = User.objects.bulk_create(
        User(
            username=f"{USERNAME_PREFIX}{run}-{n:05d}",
            role=Role.STUDENT,
            display_name=f"Load {n}",
            password=make_password(None),
        )
        for n in range(count)
    )
    return [Student(user.pk, user.display_name, signed_in_cookie(user)) for user in users]


def table_create(
    *, students: Sequence[Student], game: str, variant: str, options: dict | None = None
) -> TableSpec:
    """A new match for these students, through the real service, and its mirror from the seed."""
    rules = engine.get_game(game)
    seed = secrets.randbits(62)
    at_ms = now_ms()
    User = get_user_model()
    users = User.objects.in_bulk([student.user_id for student in students])
    match = match_create(
        game=game,
        variant=variant,
        seats=[SeatSpec(name=s.name, user=users[s.user_id]) for s in students],
        options=options,
        label="Load test",
        seed=seed,
        at_ms=at_ms,
    )
    mirror = rules.new(
        variant=variant, players=len(students), seed=seed, options=options, now_ms=at_ms
    )
    if rules.dump(mirror) != match.state:
        raise RuntimeError("the mirror of a new match differs from the match the server made")
    return TableSpec(list(students), match.pk, seed, mirror)


def mirror_reload(table: TableSpec) -> engine.State:
    """The match as the server has it, for a table whose mirror went astray (after an error)."""
    match = Match.objects.only("game", "state").get(pk=table.match_id)
    return engine.get_game(match.game).load(match.state)


def loadtest_cleanup(*, run: str | None, cookies: Sequence[str] = ()) -> tuple[int, int]:
    """Delete the students of a run (every run: ``run=None``), their matches and the sessions of
    ``cookies``.
    Returns (students, matches) deleted."""
    User = get_user_model()
    prefix = f"{USERNAME_PREFIX}{run}-" if run else USERNAME_PREFIX
    users = User.objects.filter(username__startswith=prefix, role=Role.STUDENT)
    with transaction.atomic():
        matches = Match.objects.filter(
            pk__in=Match.objects.filter(seats__user__in=users).values("pk")
        )
        match_count = matches.count()
        matches.delete()
        student_count = users.count()
        users.delete()
    signed_out(cookies)
    return student_count, match_count


def database_vacuum() -> bool:
    """VACUUM ANALYZE, on PostgreSQL. Every move rewrites its match row; where autovacuum is off
    (as on some test machines) the dead rows of earlier runs would slow each later one."""
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
    return True


# --- CPU -----------------------------------------------------------------------------------------


class CpuProbe:
    """CPU use of the processes that serve the load, over a window: each Daphne process, this load
    client, PostgreSQL (all its processes together) and Redis, when they are found on this host."""

    def __init__(self, daphne_pids: Sequence[int]):
        self.daphnes = [_process(pid) for pid in daphne_pids]
        self.client = psutil.Process()
        # Only the services this site uses: a PostgreSQL serving others is not part of the load.
        self.postgres = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
        self.redis = bool(settings.REDIS_URL)

    def _groups(self) -> dict[str, list[psutil.Process]]:
        groups: dict[str, list[psutil.Process]] = {"load client": [self.client]}
        for n, process in enumerate(self.daphnes, 1):
            if process is not None:
                groups[f"daphne#{n}"] = [process]
        groups["postgres"] = []
        groups["redis"] = []
        groups["nginx"] = []  # tools/nginx_loopback.py's, when the sockets go through it
        for process in psutil.process_iter(["name"]):
            name = process.info["name"] or ""
            if self.postgres and name in {"postgres", "postmaster"}:
                groups["postgres"].append(process)
            elif name == "nginx":
                groups["nginx"].append(process)
            elif self.redis and name.startswith("redis-server"):
                groups["redis"].append(process)
        return {name: members for name, members in groups.items() if members}

    def start(self) -> None:
        self._started = time.monotonic()
        self._before = {
            name: {p.pid: _cpu_seconds(p) for p in members}
            for name, members in self._groups().items()
        }

    def stop(self) -> dict[str, float]:
        """Percent of one core per group since ``start``."""
        wall = max(time.monotonic() - self._started, 1e-6)
        result = {}
        for name, members in self._groups().items():
            before = self._before.get(name, {})
            used = sum(max(0.0, _cpu_seconds(p) - before.get(p.pid, 0.0)) for p in members)
            result[name] = round(100 * used / wall, 1)
        return result


def _process(pid: int) -> psutil.Process | None:
    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


def _cpu_seconds(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system


def listening_pids(urls: Sequence[str]) -> list[int]:
    """The processes listening on the ports of ``urls`` on this host (servers started elsewhere);
    none when the system does not tell."""
    ports = {urlsplit(url).port for url in urls}
    pids = []
    with contextlib.suppress(psutil.Error, OSError):
        for conn in psutil.net_connections(kind="tcp"):
            if conn.status == psutil.CONN_LISTEN and conn.laddr.port in ports and conn.pid:
                pids.append(conn.pid)
    return sorted(set(pids))


# --- the load (async) ----------------------------------------------------------------------------


@dataclass
class Figures:
    """What one step of the load measured."""

    target_rate: float
    duration: float = 0.0
    sent: int = 0
    acked: int = 0  # acknowledged on the mover's socket within the step
    unanswered: int = 0  # sent in this step and never acknowledged
    late: int = 0  # moves due while their table still waited for its last answer or next game
    mover_ms: list[float] = field(default_factory=list)
    others_ms: list[float] = field(default_factory=list)
    lost: int = 0
    out_of_order: int = 0
    errors: Counter = field(default_factory=Counter)
    connected: int = 0
    # closed as the step ended because their table was between two games, not lost
    between_games: int = 0
    sockets: int = 0
    open: bool = True  # still pacing moves
    reconnects: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    started: float = 0.0  # perf_counter when the step began
    # second of the step a move was sent in -> its mover latencies (ms), and tables restarted
    timeline: dict[int, list[float]] = field(default_factory=dict)
    restarts_at: Counter = field(default_factory=Counter)
    # how late this client's own event loop woke up (ms): its share of every latency above
    client_lag_ms: list[float] = field(default_factory=list)

    @property
    def achieved(self) -> float:
        return self.acked / self.duration if self.duration else 0.0

    def latency(self, which: str) -> dict[str, float | None]:
        values = sorted(self.mover_ms if which == "mover" else self.others_ms)
        return {f"p{p}": _percentile(values, p) for p in (50, 95, 99)}

    @property
    def worst_p99(self) -> float | None:
        p99s = [self.latency(which)["p99"] for which in ("mover", "others")]
        p99s = [p for p in p99s if p is not None]
        return max(p99s) if p99s else None

    @property
    def saturated(self) -> bool:
        worst = self.worst_p99
        return self.achieved < SHORTFALL * self.target_rate or (
            worst is not None and worst > P99_LIMIT_MS
        )

    def as_dict(self) -> dict:
        return {
            "target_rate": self.target_rate,
            "duration_s": round(self.duration, 2),
            "achieved_rate": round(self.achieved, 1),
            "sent": self.sent,
            "acked": self.acked,
            "unanswered": self.unanswered,
            "late": self.late,
            "latency_mover_ms": self.latency("mover"),
            "latency_others_ms": self.latency("others"),
            "lost": self.lost,
            "out_of_order": self.out_of_order,
            "errors": dict(self.errors),
            "connected": self.connected,
            "between_games": self.between_games,
            "sockets": self.sockets,
            "reconnects": self.reconnects,
            "cpu_percent": self.cpu,
            "client_lag_ms": {
                f"p{p}": _percentile(sorted(self.client_lag_ms), p) for p in (50, 99)
            },
            "timeline": [
                {
                    "second": second,
                    "moves": len(values),
                    "p50": _percentile(sorted(values), 50),
                    "p99": _percentile(sorted(values), 99),
                    "restarts": self.restarts_at.get(second, 0),
                }
                for second, values in sorted(self.timeline.items())
            ],
            "saturated": self.saturated,
        }


def _percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    return round(values[max(0, math.ceil(p / 100 * len(values)) - 1)], 2)


class Sock:
    """One student's socket at a table."""

    __slots__ = ("closed_code", "cookie", "last_version", "reader", "seat", "table", "url", "ws")

    def __init__(self, table: Table, seat: int, url: str, cookie: str):
        self.table = table
        self.seat = seat
        self.url = url
        self.cookie = cookie
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.last_version = -1  # -1: the first state (sent on connect) not yet received
        self.closed_code: int | None = None

    async def open(self, match_id: int, origin: str | None) -> None:
        self.last_version = -1
        self.closed_code = None
        self.ws = await match_socket(
            self.url,
            match_id,
            self.cookie,
            origin=origin,
            open_timeout=60,
            compression=None,
            ping_interval=None,
            max_queue=None,
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        table = self.table
        clock = time.perf_counter
        try:
            async for text in self.ws:
                received = clock()
                if not table.reads_views and text.startswith(STATE_PREFIX):
                    version = int(text[len(STATE_PREFIX) : text.index(",", len(STATE_PREFIX))])
                    table.on_state(self, version, received)
                    continue
                message = json.loads(text)
                if message.get("type") == "state":
                    table.on_state(self, message["version"], received, message)
                elif message.get("type") == "error":
                    table.on_error(self, message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed_code = self.ws.close_code if self.ws.close_code is not None else 1006
            table.on_closed(self)

    @property
    def open_now(self) -> bool:
        return self.ws is not None and self.closed_code is None

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader


class Table:
    """Three sockets, the mirror of their match, and at most one move in flight."""

    # The mover's mirror says what each seat may play: a state's version is all a socket needs.
    reads_views = False

    def __init__(self, run: LoadRun, spec: TableSpec, urls: Sequence[str]):
        self.run = run
        self.spec = spec
        self.rules = engine.get_game(run.game)
        self.mirror = spec.state
        self.socks = [
            Sock(self, seat, url, student.cookie)
            for seat, (student, url) in enumerate(zip(spec.students, urls, strict=True))
        ]
        self.rng = random.Random(spec.seed)
        # version -> (sent at, figures of the step it was sent in, sockets still to receive it)
        self.sent: dict[int, list] = {}
        # (version, seat, move, figures of its step): the move awaiting its acknowledgement
        self.pending: tuple[int, int, dict, Figures] | None = None
        self.busy = True  # connecting, restarting, or reloading its mirror
        self.broken = False
        # Tables play at different speeds, as real ones do; their games then end at different
        # times instead of all at once.
        self.pace = run.rng.uniform(0.5, 1.5)
        self.owed = False  # a move fell due while the table was not ready: play it when it is
        self.resent = 0  # times the pending move was sent again after a try_again

    # -- connecting

    async def connect(self) -> None:
        self.busy = True
        for sock in self.socks:
            async with self.run.connect_slots:
                await sock.open(self.spec.match_id, self.run.origin)

    def all_caught_up(self) -> bool:
        final = self.final_version()
        return all(s.last_version >= final for s in self.socks if s.open_now)

    def final_version(self) -> int:
        """The match's version as far as the table knows."""
        return self.mirror.version

    def new_game(self) -> None:
        """The table's knowledge of its new match (``self.spec``) as it starts."""
        self.mirror = self.spec.state
        self.sent.clear()

    # -- moving

    def ready(self) -> bool:
        return (
            not self.busy
            and not self.broken
            and self.pending is None
            and all(s.open_now and s.last_version >= 0 for s in self.socks)
            and self.socks[self._mover()].last_version == self.mirror.version
        )

    def in_flight(self) -> bool:
        return self.pending is not None or bool(self.sent)

    def count_behind(self, figures: Figures) -> None:
        """The versions some open socket of the table never received, counted as lost."""
        for version in [v for v in self.sent if v <= self.mirror.version]:
            del self.sent[version]  # the sockets that never got it are counted just below
        for sock in self.socks:
            if sock.open_now and not self.busy and sock.last_version >= 0:
                behind = self.mirror.version - sock.last_version
                if behind > 0:
                    figures.lost += behind
                    sock.last_version = self.mirror.version

    def _mover(self) -> int:
        return min(self.rules.active(self.mirror))

    async def send_move(self, figures: Figures) -> bool:
        seat = self._mover()
        move = engine.bots.choose(self.rules, self.mirror, seat, self.run.level, self.rng)
        if move is None:
            return False
        version = self.mirror.version + 1
        self.pending = (version, seat, move, figures)
        self.resent = 0
        self.sent[version] = [time.perf_counter(), figures, len(self.socks)]
        figures.sent += 1
        text = json.dumps(
            {"type": "move", "move": move, "client_id": f"v{version}"}, separators=(",", ":")
        )
        await self.socks[seat].ws.send(text)
        return True

    # -- from the sockets

    def on_state(self, sock: Sock, version: int, received: float, message=None) -> None:
        run = self.run
        figures = run.figures
        last = sock.last_version
        if last < 0:
            sock.last_version = version  # the state sent on connect: where this socket starts
            self._maybe_ready()
            return
        if version > last + 1:
            figures.lost += version - last - 1
        elif version <= last:
            figures.out_of_order += 1
            return
        sock.last_version = version
        sent = self.sent.get(version)
        if sent is not None:
            elapsed_ms = (received - sent[0]) * 1000
            pending = self.pending
            mine = pending is not None and pending[0] == version and pending[1] == sock.seat
            (sent[1].mover_ms if mine else sent[1].others_ms).append(elapsed_ms)
            if mine:
                second = int(sent[0] - sent[1].started)
                sent[1].timeline.setdefault(second, []).append(elapsed_ms)
            sent[2] -= 1
            if sent[2] <= 0:
                del self.sent[version]
            if mine:
                if figures.open:  # the achieved rate counts acknowledgements within the step
                    figures.acked += 1
                if run.on_acknowledged is not None:
                    run.on_acknowledged(self.spec.match_id, sent[0], received)
                self._acknowledged(version)
                return
        self._maybe_ready()

    def _acknowledged(self, version: int) -> None:
        _, seat, move, _figures = self.pending
        self.pending = None
        step = self.rules.apply(self.mirror, seat, move, now_ms())
        self.mirror = step.state
        if self.mirror.version != version:
            self.run.figures.errors["mirror_version"] += 1
            self._reload()
            return
        if self.rules.outcome(self.mirror) is not None:
            self.busy = True
            self.run.spawn(self._next_game())
            return
        self._maybe_ready()

    def on_error(self, sock: Sock, message: dict) -> None:
        self.run.figures.errors[message.get("code", "?")] += 1
        pending = self.pending
        if pending is None or message.get("client_id") != f"v{pending[0]}":
            return
        if message.get("code") == "try_again" and self.resent < len(RESEND_AFTER_S):
            # As the page does (static/js/play/moves.js): the same move again, 1 s then 2 s
            # later; its latency still counts from the first send.
            wait = RESEND_AFTER_S[self.resent]
            self.resent += 1
            self.run.spawn(self._resend(pending, wait))
            return
        self.sent.pop(pending[0], None)
        self.pending = None
        self._reload()

    async def _resend(self, pending: tuple, wait: float) -> None:
        await asyncio.sleep(wait)
        if self.pending is not pending or not self.socks[pending[1]].open_now:
            return
        version, seat, move, _figures = pending
        text = json.dumps(
            {"type": "move", "move": move, "client_id": f"v{version}"}, separators=(",", ":")
        )
        await self.socks[seat].ws.send(text)

    def on_closed(self, sock: Sock) -> None:
        if self.run.closing or self.busy:
            return
        # A socket the server closed (or that broke) while its table was playing.
        self.run.figures.errors[f"closed_{sock.closed_code}"] += 1
        self.broken = True

    def give_up_if_stuck(self, now: float, after: float) -> bool:
        """A move unanswered for ``after`` seconds is counted and the mirror reloaded (a real page
        would ask for ``sync``), so one lost answer does not stop the table for good."""
        pending = self.pending
        if pending is None or self.busy:
            return False
        sent = self.sent.get(pending[0])
        if sent is not None and now - sent[0] < after:
            return False
        pending[3].unanswered += 1
        self.pending = None
        self._reload()
        return True

    def _maybe_ready(self) -> None:
        if self.owed and self.ready():
            self.owed = False
            self.run.move_now(self)

    # -- keeping the mirror right, and the next game

    def _reload(self) -> None:
        self.busy = True

        async def reload():
            self.mirror = await self.run.in_thread(mirror_reload, self.spec)
            self.busy = False
            self._maybe_ready()

        self.run.spawn(reload())

    async def _next_game(self) -> None:
        """The match is over: wait for every socket to see its end, then the same students start
        a new match (a class plays game after game) on fresh sockets."""
        final = self.final_version()
        deadline = time.monotonic() + 2.0
        while not self.all_caught_up() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for sock in self.socks:
            if sock.open_now and sock.last_version < final:
                self.run.figures.lost += final - sock.last_version
            await sock.close()
        self.spec = await self.run.in_thread(
            table_create,
            students=self.spec.students,
            game=self.run.game,
            variant=self.run.variant,
            options=self.run.options,
        )
        self.new_game()
        if self.run.route == "match":  # the new match may live on another server
            for sock in self.socks:
                sock.url = self.run.url_for(self.spec.match_id, 0)
        figures = self.run.figures
        figures.reconnects += len(self.socks)
        figures.restarts_at[int(time.perf_counter() - figures.started)] += 1
        try:
            await self.connect()
        except (OSError, websockets.WebSocketException, TimeoutError) as error:
            self.run.figures.errors[f"reconnect_{type(error).__name__}"] += 1
            self.broken = True
            return
        self.busy = False
        self._maybe_ready()


class LoadRun:
    """The whole class: every table, the pace of moves, and the figures of each step."""

    table_type: type[Table] = Table
    figures_type: type[Figures] = Figures

    def __init__(
        self,
        *,
        tables: Sequence[TableSpec],
        urls: Sequence[str],
        game: str,
        variant: str,
        level: str,
        options: dict | None = None,
        origin: str | None = None,
        connect_concurrency: int = 50,
        route: str = "socket",
        daphne_pids: Sequence[int] = (),
        log: Callable[[str], None] = print,
        on_acknowledged: Callable[[int, float, float], None] | None = None,
    ):
        self.game = game
        # (match id, sent, acknowledged), perf_counter times: for a caller that follows the moves
        # further (tools.session_load follows them to the teacher's monitor)
        self.on_acknowledged = on_acknowledged
        self.variant = variant
        self.options = options  # the game's options of every match (None: its defaults)
        self.level = level
        self.origin = origin
        self.log = log
        self.connect_slots = asyncio.Semaphore(connect_concurrency)
        self.closing = False
        self.rng = random.Random()
        self._schedule: list[tuple[float, int, Table]] = []  # (due, tie-break, table) heap
        self._per_pace = 0.0  # moves a second of a table of pace 1; 0 when not playing
        self.figures = Figures(target_rate=0)
        self.cpu = CpuProbe(daphne_pids)
        self._tasks: set[asyncio.Task] = set()
        if route not in ROUTES:
            raise ValueError(f"route is one of {', '.join(ROUTES)}")
        self.urls = list(urls)
        self.route = route
        # "socket": round robin over the servers, socket by socket, as a load balancer without
        # affinity would: the seats of one table land on different processes, so its news crosses
        # Redis. "match": every socket of a match on one server, chosen by its id, as
        # docker/nginx.conf routes them (its consistent hash, here the id modulo the servers).
        counter = 0
        self.tables = []
        for spec in tables:
            table_urls = []
            for _ in spec.students:
                table_urls.append(self.url_for(spec.match_id, counter))
                counter += 1
            self.tables.append(self.table_type(self, spec, table_urls))

    def url_for(self, match_id: int, counter: int) -> str:
        """The server of a table's socket: ``counter`` numbers the sockets of the class."""
        if self.route == "match":
            return self.urls[match_id % len(self.urls)]
        return self.urls[counter % len(self.urls)]

    def spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def in_thread(self, function, *args, **kwargs):
        def call():
            try:
                return function(*args, **kwargs)
            finally:
                connections.close_all()

        return await asyncio.to_thread(call)

    @property
    def sockets(self) -> list[Sock]:
        return [sock for table in self.tables for sock in table.socks]

    def connected(self) -> int:
        return sum(1 for sock in self.sockets if sock.open_now)

    def between_games(self) -> int:
        """Sockets closed because their table is starting its next game."""
        return sum(
            1
            for table in self.tables
            if table.busy and not table.broken
            for sock in table.socks
            if not sock.open_now
        )

    async def connect(self) -> tuple[int, float]:
        started = time.monotonic()
        results = await asyncio.gather(
            *(table.connect() for table in self.tables), return_exceptions=True
        )
        for table, result in zip(self.tables, results, strict=True):
            if isinstance(result, BaseException):
                self.figures.errors[f"connect_{type(result).__name__}"] += 1
                table.broken = True
        # Every socket's first state: then each table is ready to play.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(
            s.last_version < 0 for t in self.tables if not t.broken for s in t.socks
        ):
            await asyncio.sleep(0.05)
        for table in self.tables:
            table.busy = False
            table._maybe_ready()
        return self.connected(), time.monotonic() - started

    async def play(self, rate: float, duration: float, *, measure: bool = True) -> Figures:
        """``rate`` moves a second in all for ``duration`` seconds. Each table moves at its share
        of the rate, weighted by its pace, every so often (each gap drawn within 20% of its mean,
        the first one at random, so the tables do not move in step); a move that falls due while
        its table still waits for the last answer is played when that comes."""
        figures = self.figures_type(target_rate=rate)
        self.figures = figures
        playing = [table for table in self.tables if not table.broken]
        if not playing:
            raise RuntimeError("no table is left to play")
        self._per_pace = rate / sum(table.pace for table in playing)
        if measure:
            self.cpu.start()
        started = figures.started = time.perf_counter()
        ends = started + duration
        self._schedule = []
        self.spawn(self._watch_lag(figures, ends))
        for table in playing:
            table.owed = False
            self._plan(table, started, first=True)
        checked = started
        while True:
            now = time.perf_counter()
            if now >= ends:
                break
            if now - checked >= 1.0:
                checked = now
                for table in self.tables:
                    table.give_up_if_stuck(now, STUCK_SECONDS)
            while self._schedule and self._schedule[0][0] <= now:
                _due, _n, table = heapq.heappop(self._schedule)
                if table.ready():
                    await self._move(table, now)
                elif not table.broken:
                    table.owed = True
                    figures.late += 1
            next_due = self._schedule[0][0] if self._schedule else ends
            await asyncio.sleep(max(0.0, min(next_due, ends, checked + 1.0) - time.perf_counter()))
        self._per_pace = 0.0
        figures.duration = time.perf_counter() - started
        figures.open = False
        if measure:
            figures.cpu = self.cpu.stop()
        figures.connected = self.connected()
        figures.between_games = self.between_games()
        figures.sockets = len(self.sockets)
        return figures

    async def _watch_lag(self, figures: Figures, ends: float, every: float = 0.01) -> None:
        while time.perf_counter() < ends:
            asked = time.perf_counter()
            await asyncio.sleep(every)
            figures.client_lag_ms.append((time.perf_counter() - asked - every) * 1000)

    def _plan(self, table: Table, after: float, first: bool = False) -> None:
        gap = 1 / (self._per_pace * table.pace)
        due = after + gap * (self.rng.random() if first else self.rng.uniform(0.8, 1.2))
        heapq.heappush(self._schedule, (due, id(table), table))

    async def _move(self, table: Table, now: float) -> None:
        await table.send_move(self.figures)
        if self._per_pace:  # the step may have ended while the move was being sent
            self._plan(table, now)

    def move_now(self, table: Table) -> None:
        """A table that owed a move is ready: it plays at once."""
        if self._per_pace:
            self.spawn(self._move(table, time.perf_counter()))

    async def drain(self, figures: Figures, timeout: float = STUCK_SECONDS) -> None:
        """Wait for the moves still in flight (a slow answer is late, not lost); then count the
        ones never answered, and the versions some socket never received."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(
            t.in_flight() for t in self.tables if not t.broken
        ):
            await asyncio.sleep(0.02)
        now = time.perf_counter()
        for table in self.tables:
            table.give_up_if_stuck(now, 0)
            table.count_behind(figures)

    async def close(self) -> None:
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.gather(
            *(sock.close() for sock in self.sockets if sock.ws is not None),
            return_exceptions=True,
        )


# --- the report ----------------------------------------------------------------------------------


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def errors_and_cpu(figures: Figures) -> tuple[int, str, str]:
    """A step's error count, its codes as " (code n, ...)" and its CPU line, as reports write
    them."""
    errors = sum(figures.errors.values())
    error_detail = (
        " (" + ", ".join(f"{code} {n}" for code, n in figures.errors.most_common()) + ")"
        if errors
        else ""
    )
    cpu = "  ".join(f"{name} {value:.1f}" for name, value in figures.cpu.items())
    return errors, error_detail, cpu


def step_report(figures: Figures) -> list[str]:
    mover = figures.latency("mover")
    others = figures.latency("others")
    errors, error_detail, cpu = errors_and_cpu(figures)
    lag_values = sorted(figures.client_lag_ms)
    lag = (_percentile(lag_values, 50), _percentile(lag_values, 99))
    return [
        f"connected sockets: {figures.connected}/{figures.sockets}"
        + (f" ({figures.between_games} between games)" if figures.between_games else ""),
        f"moves: {figures.acked} acknowledged in {figures.duration:.1f} s = "
        f"{figures.achieved:.1f}/s achieved (target {figures.target_rate:g}/s); sent "
        f"{figures.sent}, unanswered {figures.unanswered}, late {figures.late}, "
        f"tables restarted {figures.reconnects // TABLE_SIZE}",
        f"latency mover (ms): p50 {_ms(mover['p50'])}  p95 {_ms(mover['p95'])}  "
        f"p99 {_ms(mover['p99'])}  (n={len(figures.mover_ms)})",
        f"latency others (ms): p50 {_ms(others['p50'])}  p95 {_ms(others['p95'])}  "
        f"p99 {_ms(others['p99'])}  (n={len(figures.others_ms)})",
        f"lost messages: {figures.lost}",
        f"out-of-order messages: {figures.out_of_order}",
        f"errors: {errors}{error_detail}",
        f"cpu % of one core: {cpu}",
        f"load client's own event-loop lag (ms): p50 {_ms(lag[0])}  p99 {_ms(lag[1])}",
    ]


def timeline_report(figures: Figures) -> list[str]:
    """Second by second: moves sent, their mover latency p50/p99, and tables restarted."""
    lines = ["  second  moves  p50 ms  p99 ms  restarts"]
    for second, values in sorted(figures.timeline.items()):
        ordered = sorted(values)
        lines.append(
            f"  {second:6d} {len(values):6d} {_ms(_percentile(ordered, 50)):>7} "
            f"{_ms(_percentile(ordered, 99)):>7} {figures.restarts_at.get(second, 0):9d}"
        )
    return lines


def ramp_table(steps: Sequence[Figures]) -> list[str]:
    lines = [
        "  rate  achieved   mover p50/p95/p99   others p50/p95/p99  lost  ooo  err  cpu %",
    ]
    for figures in steps:
        mover = figures.latency("mover")
        others = figures.latency("others")
        cpu = " ".join(f"{name}={value:.0f}" for name, value in figures.cpu.items())
        lines.append(
            f"{figures.target_rate:6g} {figures.achieved:9.1f} "
            f"{_ms(mover['p50']):>6}/{_ms(mover['p95']):>5}/{_ms(mover['p99']):>6} "
            f"{_ms(others['p50']):>7}/{_ms(others['p95']):>5}/{_ms(others['p99']):>6} "
            f"{figures.lost:5d} {figures.out_of_order:4d} {sum(figures.errors.values()):4d}  {cpu}"
        )
    return lines


def saturation_line(steps: Sequence[Figures], unit: str = "moves") -> str:
    for figures in steps:
        if figures.saturated:
            reasons = []
            if figures.achieved < SHORTFALL * figures.target_rate:
                reasons.append(f"achieved {figures.achieved:.1f}/s")
            if figures.worst_p99 is not None and figures.worst_p99 > P99_LIMIT_MS:
                reasons.append(f"p99 {figures.worst_p99:.1f} ms > {P99_LIMIT_MS:g} ms")
            return f"saturation: {figures.target_rate:g} {unit}/s ({', '.join(reasons)})"
    top = max(figures.target_rate for figures in steps)
    return f"saturation: not reached up to {top:g} {unit}/s"
