"""The classroom box's run (tools/classroom_box/__init__.py says what it does)."""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import math
import random
import re
import secrets
import signal
import statistics
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from classroom.models import ClassSession
from tools.classroom_box.cgroup import Box, CgroupError, Limits
from tools.loadtest import driver as loadtest
from tools.loadtest.servers import DaphneFleet, origin_for
from tools.school_morning import morning
from tools.session_load.live import LiveSession, measure_classes, session_tables

P99_TARGET_MS = 50.0  # a move to every socket of its table
PAGE_TARGET_S = 1.0  # the teacher's pages and the live parts they fetch
# Daphne's start imports Django and the project: a few seconds of CPU, four times as long under a
# quarter of a core, longer still on a busy machine.
SERVER_START_SECONDS = 300.0
SIGN_IN_GRACE_SECONDS = 300.0  # after the last child arrives
MEMORY_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


class BoxError(Exception):
    """What the box refuses to run, in words for the command line."""


def _bytes(text: str) -> int:
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?)i?B?\s*", text.upper())
    if not found:
        raise argparse.ArgumentTypeError(f"a size such as 1G, 512M or 1073741824, not {text!r}")
    return int(float(found[1]) * MEMORY_UNITS[found[2]])


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.classroom_box",
        description="The embedded default server in a cgroup of a share of one core and some "
        "memory; from outside it, classes sign in and play live with the teacher's monitor and "
        "projector open (docs/capacity.md). Needs root. Exits 0 when every child was seated and "
        "nothing was lost or refused; the targets are printed as met or MISSED.",
    )
    parser.add_argument(
        "--students", type=int, default=30, help="a class's children, a multiple of 3"
    )
    parser.add_argument("--classes", type=int, default=1, help="classes playing at once")
    parser.add_argument(
        "--rate", type=float, default=30.0, help="moves a second, each class (default 30)"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of live play")
    parser.add_argument("--arrival", type=float, default=30.0, help="seconds they arrive over")
    parser.add_argument(
        "--cpu-quota", type=float, default=25.0, help="the box's CPU, percent of one core"
    )
    parser.add_argument("--memory", type=_bytes, default=2**30, help="the box's memory (1G)")
    parser.add_argument("--seed", type=int, default=2026, help="the children's arrivals, typos")
    return parser


@dataclass
class Pages:
    """The teacher's page loads (seconds), the Start among them, and those that failed."""

    times: dict[str, list[float]] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)

    def timed(
        self, name: str, browser: morning.Browser, path: str, data: dict | None = None
    ) -> morning.Answer:
        """The page at ``path`` (posted ``data``, when given) loaded and timed."""
        started = time.perf_counter()
        answer = browser.get(path) if data is None else browser.post(path, data)
        self.times.setdefault(name, []).append(time.perf_counter() - started)
        if answer.status != 200:
            self.failed.append(f"{name}: HTTP {answer.status}")
        return answer


def main(argv: list[str] | None = None, out=sys.stdout, notes: list[str] = ()) -> int:
    options = parser().parse_args(argv)
    for note in notes:
        print(note, file=out)

    def stop_on_terminate(signum, frame):
        raise KeyboardInterrupt  # the same way out as Ctrl-C: the server stops, the box goes

    signal.signal(signal.SIGTERM, stop_on_terminate)
    try:
        return run_box(options, out)
    except (BoxError, CgroupError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the server is stopped and the box removed", file=sys.stderr)
        return 130


def run_box(options: argparse.Namespace, out) -> int:
    def say(line: str = "") -> None:
        print(line, file=out, flush=True)

    students, classes = options.students, options.classes
    if students < loadtest.TABLE_SIZE or students % loadtest.TABLE_SIZE:
        raise BoxError(f"--students must be a multiple of {loadtest.TABLE_SIZE} (tables of 3)")
    if classes < 1 or options.rate <= 0 or options.duration <= 0 or options.arrival < 0:
        raise BoxError("--classes, --rate and --duration must be positive")
    if connection.vendor != "sqlite":
        raise BoxError(
            "the box runs the embedded default: DATABASE_URL names a SQLite file or none"
        )
    box = Box(Limits(options.cpu_quota, options.memory))
    call_command("migrate", "--noinput", verbosity=0)
    run = secrets.token_hex(3)
    say(
        f"classroom box run {run}: {classes} class(es) of {students}, {options.rate:g} moves/s each"
    )
    school = morning.school_create(run=run, children=students * classes, class_size=students)
    # The children's school is behind one address, which the server reads from X-Forwarded-For.
    fleet = DaphneFleet(1, env={"PROXY_COUNT": "1"}, preexec=box.enter)
    try:
        box.create()
        say(f"the box: {box.describe()}")
        url = fleet.start(timeout=SERVER_START_SECONDS)[0]
        pid = fleet.pids[0]
        groups = Path(f"/proc/{pid}/cgroup").read_text().split()
        in_box = " ".join(group for group in groups if group.endswith(f"/{box.name}"))
        say(f"server pid {pid} on {url}, in the box: {in_box or 'NOT in it'}")
        base = origin_for(url)
        if not _sign_in(school, base, options, say):
            return 1
        pages = Pages()
        lives = _start_classes(school, base, pages)
        say(f"started {classes} session(s): {sum(len(live.tables) for live in lives)} tables")
        held_before = box.throttling()
        figures, screens = asyncio.run(
            measure_classes(
                lives,
                [url],
                [pid],
                rate=options.rate * classes,
                duration=options.duration,
                projector=True,
            )
        )
        held = _since(held_before, box.throttling())
        died = fleet.died()
        fleet.stop()
        peak = box.memory_peak()
        if died:
            say(f"the server died:\n{fleet.log_tail()}")
            return 1
        return _report(options, figures, screens, pages, peak, held, say)
    finally:
        fleet.stop()
        box.remove()
        morning.school_delete(school)


def _sign_in(school: morning.School, base: str, options, say) -> bool:
    """Each child arrives within ``--arrival`` seconds and signs in as on a school's morning
    (tools.school_morning: the class code, their name, their PIN or pictures, typos and all), then
    joins their class's session. True when every child is seated."""
    rng = random.Random(options.seed)
    # The morning's own shares of mistyped codes and PINs.
    children_morning = morning.Morning(morning.parse([]), rng)
    for child in school.children:
        child.browser = morning.Browser(base, morning.SCHOOL_ADDRESS)
        child.arrives_at = rng.uniform(0, options.arrival)
    arriving = sorted(school.children, key=lambda child: child.arrives_at)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(64, len(arriving)))
    started = time.perf_counter()
    try:
        signing_in = []
        for child in arriving:
            time.sleep(max(0.0, child.arrives_at - (time.perf_counter() - started)))
            signing_in.append(pool.submit(children_morning.child_morning, child, base))
        done, not_done = concurrent.futures.wait(signing_in, timeout=SIGN_IN_GRACE_SECONDS)
        for future in done:
            future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    window = time.perf_counter() - started
    children = school.children
    times = sorted(c.seconds_to_seated for c in children if c.seconds_to_seated is not None)
    refused = [c for c in children if c.refusals]
    failed = [c for c in children if c.errors]
    say(
        f"sign-in: {len(times)} of {len(children)} seated within {window:.1f} s; first page to "
        f"seated p50 {_q(times, 50):.2f} s, p95 {_q(times, 95):.2f} s, max {_q(times, 100):.2f} s; "
        f"refused {len(refused)}, errors {len(failed)}"
        + (f", still signing in {len(not_done)}" if not_done else "")
    )
    for child in [*refused, *failed][:10]:
        say(f"  {child.name}: {', '.join([*child.refusals, *child.errors][:5])}")
    return len(times) == len(children) and not refused and not failed


def _start_classes(school: morning.School, base: str, pages: Pages) -> list[LiveSession]:
    """Each teacher signs in, opens the session page, presses Start, opens the projector; each
    class's started matches become the load test's tables, played with its children's cookies."""
    teachers: dict[int, morning.Browser] = {}
    lives = []
    for classroom in school.classrooms:
        teacher = classroom.teacher
        browser = teachers.get(teacher.pk)
        if browser is None:
            browser = teachers[teacher.pk] = morning.Browser(base, morning.SCHOOL_ADDRESS)
            _status, landed = morning.teacher_signs_in(browser, teacher.email)
            if urllib.parse.urlsplit(landed).path != reverse("classroom:teacher_home"):
                raise BoxError(f"the teacher {teacher.email} could not sign in")
        children = [c for c in school.children if c.class_code == classroom.code]
        session_id = children[0].session_id
        detail = reverse("classroom:sessions_detail", args=[session_id])
        pages.timed("session page, lobby", browser, detail)
        start = reverse("classroom:sessions_start", args=[session_id])
        pages.timed("Start (and the page it leads to)", browser, start, {})
        if ClassSession.objects.get(pk=session_id).status != ClassSession.Status.PLAYING:
            raise BoxError(f"the session {session_id} did not start")
        pages.timed("session page, playing", browser, detail)
        projector = reverse("classroom:sessions_projector", args=[session_id])
        pages.timed("projector page", browser, projector)
        seated = [
            loadtest.Student(child.student_id, child.name, _session_cookie(child.browser))
            for child in children
        ]
        lives.append(
            LiveSession(
                session_id,
                classroom.pk,
                teacher.pk,
                _session_cookie(browser),
                session_tables(session_id, seated),
                [student.cookie for student in seated],
            )
        )
    return lives


def _since(before, after):
    """The box's throttling (periods, periods held back, seconds held back) between two reads."""
    if before is None or after is None:
        return None
    return tuple(late - early for early, late in zip(before, after, strict=True))


def _session_cookie(browser: morning.Browser) -> str:
    """The Cookie header of the session the browser signed in."""
    for cookie in browser.jar:
        if cookie.name == settings.SESSION_COOKIE_NAME:
            return f"{cookie.name}={cookie.value}"
    raise BoxError("a browser that signed in holds no session cookie")


def _q(values: list[float], p: float) -> float:
    """The ``p``th percentile of sorted ``values`` (nearest rank); 0 for none."""
    if not values:
        return 0.0
    return values[max(0, math.ceil(p / 100 * len(values)) - 1)]


def _fetches(name: str, figures_list) -> tuple[str, float, int]:
    """A screen's live-part fetches over every class: its line, p95 (s) and failures."""
    times = sorted(shown.fetch_s for figures in figures_list for shown in figures.shown)
    errors = sum(figures.errors for figures in figures_list)
    line = (
        f"{name} live part: {len(times)} fetches, p50 {1000 * _q(times, 50):.0f} ms, "
        f"p95 {1000 * _q(times, 95):.0f} ms, max {1000 * _q(times, 100):.0f} ms; failed {errors}"
    )
    return line, _q(times, 95), errors


def _report(options, figures, screens, pages: Pages, peak, held, say) -> int:
    mover, others = figures.latency("mover"), figures.latency("others")
    say("")
    say(
        f"live: {figures.connected} of {figures.sockets} sockets; {figures.acked} moves in "
        f"{figures.duration:.1f} s = {figures.achieved:.1f}/s (asked "
        f"{options.rate * options.classes:g}/s); tables restarted "
        f"{figures.reconnects // loadtest.TABLE_SIZE}"
    )
    ms = {
        f"{who} {p}": "-" if value is None else f"{value:.1f}"
        for who, latency in (("mover", mover), ("others", others))
        for p, value in latency.items()
    }
    say(
        f"move to the mover's socket: p50 {ms['mover p50']} ms, p95 {ms['mover p95']} ms, p99 "
        f"{ms['mover p99']} ms; to the table's other sockets: p50 {ms['others p50']} ms, p99 "
        f"{ms['others p99']} ms"
    )
    errors = sum(figures.errors.values())
    say(
        f"lost {figures.lost}, out of order {figures.out_of_order}, unanswered "
        f"{figures.unanswered}, errors {errors}" + (f" ({dict(figures.errors)})" if errors else "")
    )
    latencies, never_shown = [], 0
    for class_screens in screens:
        shown, missing = class_screens.monitor.latencies_ms()
        latencies.extend(shown)
        never_shown += missing
    latencies.sort()
    say(
        f"move to the teacher's monitor: p50 {_q(latencies, 50):.0f} ms, p95 "
        f"{_q(latencies, 95):.0f} ms, p99 {_q(latencies, 99):.0f} ms; never shown {never_shown}"
    )
    monitor_line, monitor_p95, monitor_errors = _fetches("monitor", [s.monitor for s in screens])
    projector_line, projector_p95, projector_errors = _fetches(
        "projector", [s.projector for s in screens]
    )
    say(monitor_line)
    say(projector_line)
    slowest_page = 0.0
    for name, times in pages.times.items():
        slowest_page = max(slowest_page, *times)
        median, slowest = statistics.median(times), max(times)
        say(f"{name}: median {1000 * median:.0f} ms, max {1000 * slowest:.0f} ms")
    for failure in pages.failed:
        say(f"  failed: {failure}")
    limit_mb = options.memory / 2**20
    say(
        "memory peak: "
        + (f"{peak / 2**20:.0f} MB of {limit_mb:.0f} MB" if peak is not None else "not told")
    )
    cpu = figures.cpu.get("daphne#1")
    held_line = (
        f"; while playing, held back by its quota in {held[1]} of {held[0]} periods "
        f"({held[2]:.1f} s)"
        if held
        else ""
    )
    say(
        f"CPU: the server {cpu if cpu is not None else '?'} % of a core (its quota "
        f"{options.cpu_quota:g} %), the load client {figures.cpu.get('load client', '?')} %"
        + held_line
    )
    worst = figures.worst_p99
    lost = figures.lost + figures.out_of_order + figures.unanswered + never_shown
    # A move answered try_again (the server busy past its wait) is sent again, as the page does;
    # any other error is a failure.
    failed = len(pages.failed) + monitor_errors + projector_errors
    failed += errors - figures.errors.get("try_again", 0)
    pages_met = max(slowest_page, monitor_p95, projector_p95) < PAGE_TARGET_S
    p99_met = worst is not None and worst <= P99_TARGET_MS
    say(
        f"targets: p99 under {P99_TARGET_MS:g} ms {'met' if p99_met else 'MISSED'}; pages and "
        f"live parts (p95) under {PAGE_TARGET_S:g} s {'met' if pages_met else 'MISSED'}; "
        f"nothing lost {'met' if not lost else 'MISSED'}"
    )
    return 0 if not lost and not failed and figures.acked else 1
