"""``python -m tools.loadtest``: real websocket clients playing live matches at a target rate.

    python -m tools.loadtest --daphnes 2 --students 900 --rate 180 --duration 60
    python -m tools.loadtest --daphnes 2 --students 900 --ramp 60,120,180,240,300 --duration 30
    python -m tools.loadtest --url ws://127.0.0.1:8001 --url ws://127.0.0.1:8002 --students 30
    python -m tools.loadtest --daphnes 2 --students 900 --rate 180 --duration 30 --floor --trace

It creates its students (signed-in sessions) and their matches in this process's database, so a
server given with --url must use the same database. docs/capacity.md explains the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import sys
import tempfile
import time

from django.db import connection

import engine
from tools import nginx_loopback
from tools.loadtest import compare, floor, mia
from tools.loadtest import driver as loadtest
from tools.loadtest.driver import TABLE_SIZE
from tools.loadtest.servers import DaphneFleet

ROUTED = {"socket": "socket by socket (round robin)", "match": "by match (one server each)"}


class CommandError(Exception):
    """What the load test refuses to run, in words for the command line."""


def _rates(text: str) -> list[float]:
    try:
        rates = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--ramp takes rates separated by commas, not {text!r}"
        ) from None
    if not rates or any(rate <= 0 for rate in rates):
        raise argparse.ArgumentTypeError("--ramp takes positive rates, e.g. 60,120,180")
    return rates


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tools.loadtest",
        description="Load test of live play: students at tables of three play through real "
        "websockets at a target rate of moves; prints sockets, achieved rate, latency, lost "
        "messages and CPU (docs/capacity.md).",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--url",
        action="append",
        default=[],
        help="a running server, e.g. ws://127.0.0.1:8000 (repeat: sockets go round robin)",
    )
    where.add_argument(
        "--daphnes",
        type=int,
        default=None,
        help="start this many Daphne processes on free ports (default 1 without --url); more "
        "than one needs DATABASE_URL (PostgreSQL) and REDIS_URL",
    )
    parser.add_argument("--students", type=int, default=30, help="a multiple of 3 (tables)")
    parser.add_argument(
        "--rate",
        type=float,
        default=30.0,
        help="moves per second, in all (--game mia: cards raced per second, in all)",
    )
    parser.add_argument(
        "--ramp", type=_rates, default=None, help="rates to step through, e.g. 60,120,180"
    )
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per rate")
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds played first, not measured"
    )
    parser.add_argument(
        "--game",
        choices=[*loadtest.GAMES, "mia"],
        default="add_up",
        help="a turn-based game played at a rate of moves, or mia: the ¡Mía! claim race, every "
        "seat of a table answering each card at once (tools/loadtest/mia.py)",
    )
    parser.add_argument("--variant", default=None, help=f"default: standard; {mia.VARIANT} for mia")
    parser.add_argument(
        "--level", choices=engine.bots.LEVELS, default="easy", help="how the students play"
    )
    parser.add_argument("--origin", default=None, help="Origin header (default: the url's)")
    parser.add_argument("--connect-concurrency", type=int, default=50)
    parser.add_argument(
        "--route",
        choices=loadtest.ROUTES,
        default="match",
        help="match (the default): every socket of a match on the server its id picks, as "
        "docker/nginx.conf routes them; socket: round robin socket by socket, a table's seats on "
        "different servers (the measurements of docs/capacity.md before 2026-11-26)",
    )
    parser.add_argument(
        "--nginx",
        action="store_true",
        help="with --daphnes: every socket through the project's nginx configuration on loopback "
        "(Debian's nginx; tools/nginx_loopback.py), which picks the server by the match's id",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="run the same load against the floor (tools/loadtest/floor.py: a bare Channels "
        "server of the same shape, no database) and the real servers, alternating, and compare "
        'them (docs/capacity.md, "Where a move\'s time goes")',
    )
    parser.add_argument(
        "--rounds", type=int, default=2, help="with --floor: floor and real runs, each this often"
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="the servers started here time each move in spans (GAMES_MOVE_TRACE, games/trace.py): "
        "print each stage's p50 and p95",
    )
    parser.add_argument("--json", dest="json_path", default=None, help="also write figures")
    parser.add_argument(
        "--timeline", action="store_true", help="also print each step second by second"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the students and matches it created"
    )
    parser.add_argument(
        "--purge",
        action="store_true",
        help="only delete what earlier runs kept (every loadtest-* student and their matches)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m tools.loadtest ...`` (Django already set up)."""
    options = vars(parser().parse_args(argv))
    try:
        run_loadtest(options, stdout=sys.stdout, stderr=sys.stderr)
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def run_loadtest(options: dict | list[str], *, stdout=None, stderr=None) -> dict | None:
    """The load test with these options (parsed, or a command line's arguments); the report goes
    to ``stdout``. Returns the figures (None for ``--purge``)."""
    if isinstance(options, list):
        options = vars(parser().parse_args(options))
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr

    def out(line: str = "") -> None:
        stdout.write(line + "\n")

    if options["purge"]:
        students, matches = loadtest.loadtest_cleanup(run=None)
        out(f"deleted {students} load-test students and {matches} matches")
        loadtest.database_vacuum()
        return None
    students = options["students"]
    if students < TABLE_SIZE or students % TABLE_SIZE:
        raise CommandError(f"--students must be a multiple of {TABLE_SIZE}")
    game = engine.get_game(options["game"])
    racing = game.slug == "mia"
    if options["variant"] is None:
        options["variant"] = mia.VARIANT if racing else "standard"
    if options["variant"] not in game.variants:
        raise CommandError(f"{game.slug} has the variants {', '.join(game.variants)}")
    rates = options["ramp"] or [options["rate"]]
    if any(rate <= 0 for rate in rates) or options["duration"] <= 0:
        raise CommandError("rates and the duration must be positive")
    urls = [url.rstrip("/") for url in options["url"]]
    daphnes = options["daphnes"] if options["daphnes"] is not None else (0 if urls else 1)
    if not urls and daphnes < 1:
        raise CommandError("give --url, or --daphnes 1 or more")
    if options["nginx"] and not daphnes:
        raise CommandError("--nginx goes in front of --daphnes N")
    if options["nginx"] and not nginx_loopback.available():
        raise CommandError("--nginx needs Debian's nginx: scripts/system-deps nginx")
    if options["floor"]:
        if racing:
            raise CommandError("--floor plays turn-based games: the floor cannot race ¡Mía!")
        if not daphnes or urls:
            raise CommandError("--floor starts its servers: give --daphnes N, not --url")
        if options["nginx"] or (daphnes > 1 and options["route"] != "match"):
            raise CommandError(
                "--floor keeps each match in one process: its sockets are routed --route match"
            )
        if options["rounds"] < 1:
            raise CommandError("--rounds is 1 or more")
        if options["ramp"]:
            raise CommandError("--floor compares one rate (--rate), not a --ramp")
    if options["trace"] and not daphnes:
        raise CommandError("--trace turns the trace on in the servers it starts: give --daphnes N")
    trace_dir = tempfile.TemporaryDirectory(prefix="move-trace-") if options["trace"] else None
    fleet = None
    if daphnes:
        try:
            env = compare.trace_env(trace_dir.name) if trace_dir else None
            fleet = DaphneFleet(daphnes, env=env)
        except ValueError as error:
            raise CommandError(str(error)) from None

    run = secrets.token_hex(4)
    how = (
        "every seat answering each card at once (a right claim, or a pass)"
        if racing
        else f"moves chosen by the {options['level']} bot"
    )
    out(
        f"loadtest run {run}: {students} students at {students // TABLE_SIZE} tables of 3 "
        f"playing {game.slug}/{options['variant']}, {how}"
    )
    started = time.monotonic()
    if loadtest.database_vacuum():
        out("vacuumed the database, so that earlier runs' dead rows do not slow this one")
    created = loadtest.students_create(run=run, count=students)

    def tables():
        return [
            loadtest.table_create(
                students=created[i : i + TABLE_SIZE],
                game=game.slug,
                variant=options["variant"],
                options=mia.OPTIONS if racing else None,
            )
            for i in range(0, students, TABLE_SIZE)
        ]

    specs = [] if options["floor"] else tables()
    out(f"set-up: students, sessions and matches in {time.monotonic() - started:.1f} s")
    stack = contextlib.ExitStack()
    if trace_dir is not None:
        stack.callback(trace_dir.cleanup)
    try:
        if options["floor"]:
            results = _floor_rounds(fleet, tables, rates, options, out, trace_dir)
        elif fleet is not None:
            try:
                urls = fleet.start()
            except RuntimeError as error:
                raise CommandError(str(error)) from None
            out(f"started {daphnes} Daphne process(es): {', '.join(urls)}")
            if options["nginx"]:
                nginx = nginx_loopback.LoopbackNginx([url.split("//")[1] for url in urls])
                stack.enter_context(nginx)
                urls = [nginx.ws_url]
                out(f"sockets through nginx on {nginx.url}, routed by match (docker/nginx.conf)")
            elif daphnes > 1:
                out(f"sockets routed {ROUTED[options['route']]}")
            pids = fleet.pids
        else:
            pids = loadtest.listening_pids(urls)
            out(f"servers: {', '.join(urls)}")
        if not options["floor"]:
            acked, on_acknowledged = compare.acknowledgements()
            results, steps = asyncio.run(
                _load(specs, urls, pids, rates, options, out, on_acknowledged=on_acknowledged)
            )
            if trace_dir is not None:
                out("")
                records = compare.read_trace(trace_dir.name)
                for line in compare.trace_report(records, compare.windows_of(steps), acked):
                    out(line)
    finally:
        stack.close()
        if fleet is not None:
            died = fleet.died()
            fleet.stop()
            if died:
                stderr.write(f"Daphne process(es) {died} died:\n{fleet.log_tail()}\n")
        if options["keep"]:
            out(f"kept the students loadtest-{run}-* and their matches (--purge deletes them)")
        else:
            cookies = [student.cookie for student in created]
            deleted, _ = loadtest.loadtest_cleanup(run=run, cookies=cookies)
            loadtest.database_vacuum()
            out(f"cleaned up {deleted} students, their sessions and matches")
    if options["json_path"]:
        with open(options["json_path"], "w") as handle:
            json.dump(results, handle, indent=2)
    return results


def _floor_rounds(fleet, tables, rates, options, out, trace_dir) -> dict:
    """``--floor``: the floor's servers and the real ones, each started once, then the same load
    against each in turn, ``--rounds`` times (floor, real, floor, real, ...), each run on new
    matches; then the comparison."""
    daphnes = fleet.count
    floor_fleet = DaphneFleet(daphnes, application=floor.APPLICATION)
    runs: list[compare.Run] = []
    commits: list[dict] = []
    paced: list[dict] = []  # the same commit at the pace of one process's moves
    try:
        try:
            floor_urls = floor_fleet.start()
            real_urls = fleet.start()
        except RuntimeError as error:
            raise CommandError(str(error)) from None
        out(f"started {daphnes} floor Daphne process(es): {', '.join(floor_urls)}")
        out(f"started {daphnes} real Daphne process(es): {', '.join(real_urls)}")
        if daphnes > 1:
            out(f"sockets routed {ROUTED[options['route']]}")
        for n in range(1, options["rounds"] + 1):
            for server, serving in (("floor", floor_fleet), ("real", fleet)):
                specs = tables()
                if server == "floor" and any(
                    spec.state.version != floor.START_VERSION for spec in specs
                ):
                    raise CommandError("a new match does not start where the floor starts it")
                out("")
                out(f"round {n}/{options['rounds']}: {server}")
                acked, on_acknowledged = compare.acknowledgements()
                _results, steps = asyncio.run(
                    _load(
                        specs,
                        serving.urls,
                        serving.pids,
                        rates,
                        options,
                        out,
                        on_acknowledged=on_acknowledged,
                    )
                )
                runs.extend(compare.Run(n, server, figures) for figures in steps)
                if server == "real" and trace_dir is not None:
                    records = compare.read_trace(trace_dir.name)
                    for line in compare.trace_report(records, compare.windows_of(steps), acked):
                        out(line)
            if connection.vendor == "postgresql":
                commits.append(compare.commit_round_trip_ms())
                paced.append(compare.paced_commit_ms(max(rates), daphnes))
    finally:
        died = floor_fleet.died()
        floor_fleet.stop()
        if died:
            out(f"floor Daphne process(es) {died} died:\n{floor_fleet.log_tail()}")
    out("")
    if not commits:
        out("no PostgreSQL here: the commit is not measured (counted as 0 ms)")
    for line in compare.comparison_report(runs, commits, paced):
        out(line)
    return {
        "runs": [
            {"round": run.round, "server": run.server, **run.figures.as_dict()} for run in runs
        ],
        "commit_ms": commits,
        "paced_commit_ms": paced,
    }


async def _load(specs, urls, pids, rates, options, out, on_acknowledged=None):
    racing = options["game"] == "mia"
    report = mia if racing else loadtest
    unit = "cards raced" if racing else "moves"
    run = (mia.MiaRun if racing else loadtest.LoadRun)(
        tables=specs,
        urls=urls,
        game=options["game"],
        variant=options["variant"],
        level=options["level"],
        origin=options["origin"],
        connect_concurrency=options["connect_concurrency"],
        route=options["route"],
        daphne_pids=pids,
        log=out,
        **({"on_acknowledged": on_acknowledged} if on_acknowledged and not racing else {}),
    )
    steps = []
    try:
        connected, seconds = await run.connect()
        out(f"connected sockets: {connected}/{len(run.sockets)} in {seconds:.1f} s")
        if connected == 0:
            raise CommandError("no socket connected; is the server up and the origin allowed?")
        if options["warmup"] > 0:
            warm = await run.play(rates[0], options["warmup"], measure=False)
            await run.drain(warm)
        for n, rate in enumerate(rates, 1):
            out("")
            out(f"step {n}/{len(rates)}: {rate:g} {unit}/s for {options['duration']:g} s")
            figures = await run.play(rate, options["duration"])
            await run.drain(figures)
            steps.append(figures)
            for line in report.step_report(figures):
                out("  " + line)
            if options["timeline"]:
                for line in loadtest.timeline_report(figures):
                    out(line)
    finally:
        await run.close()
        # The servers' consumers leave their groups as their sockets close; give them a
        # moment before the processes are stopped (or groups would linger in Redis).
        await asyncio.sleep(1.0)
    if len(steps) > 1:
        out("")
        for line in report.ramp_table(steps):
            out(line)
        out(loadtest.saturation_line(steps, unit))
    return {
        "students": len(run.sockets),
        "urls": urls,
        "steps": [figures.as_dict() for figures in steps],
        "saturation": loadtest.saturation_line(steps, unit) if steps else None,
    }, steps
