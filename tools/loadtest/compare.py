"""The load test against its floor, and a move's timeline (docs/capacity.md, "Where a move's time
goes"):

- ``--floor``: the same load against the floor servers (tools/loadtest/floor.py, no database) and
  the real ones, alternating in one invocation; each run's latency and Daphne CPU per move side by
  side, the ratio of the real p50 to the floor's, and the bound "2 x floor p50 + one commit", the
  commit measured here on the same PostgreSQL (``commit_round_trip_ms``), back to back and at the
  moves' pace (``paced_commit_ms``).
- ``--trace``: the real servers time each move in spans (games/trace.py); ``trace_report``
  reads their files and prints each stage's p50 and p95 over the measured steps.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import secrets
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tools.loadtest.driver import Figures, _ms, _percentile

# --- the commit: one move's transaction, bare -------------------------------------------------


def commit_round_trip_ms(
    samples: int = 500, gap_s: float = 0.0, connections: int = 1
) -> dict[str, float]:
    """A move's transaction with nothing else around it, as games/async_db.py sends it when it
    reads first: ``BEGIN`` with a ``SELECT ... FOR UPDATE`` in one message, an ``UPDATE`` with
    ``COMMIT`` in another, on psycopg connections of its own to this process's PostgreSQL, each
    locking a row of its own (as two moves lock two matches). The rows are in a table made for the
    measurement (and dropped), an ordinary one, so the commit flushes the WAL as a move's does.
    Returns p50 and p95 in ms over ``samples``, one every ``gap_s`` seconds, on ``connections``
    in turn (so each is idle ``connections * gap_s`` between two of its commits). Back to back
    (0), PostgreSQL's backend, its WAL's disk and the machine's cores stay awake between commits,
    which a move's connection, used every few milliseconds, does not find."""
    import psycopg
    from django.db import connections as django_connections

    params = django_connections["default"].get_connection_params()
    params["cursor_factory"] = psycopg.ClientCursor
    params["autocommit"] = True
    table = f"loadtest_commit_probe_{secrets.token_hex(4)}"
    times = []
    with contextlib.ExitStack() as stack:
        conns = [stack.enter_context(psycopg.connect(**params)) for _ in range(connections)]
        conns[0].execute(f"CREATE TABLE {table} (id integer PRIMARY KEY, n integer NOT NULL)")
        try:
            conns[0].execute(
                f"INSERT INTO {table} SELECT id, 0 FROM generate_series(1, %s) AS id",
                [connections],
            )
            transactions = [
                (
                    conn.cursor(),
                    f"BEGIN; SELECT n FROM {table} WHERE id = {row} FOR UPDATE",
                    f"UPDATE {table} SET n = n + 1 WHERE id = {row}; COMMIT",
                )
                for row, conn in enumerate(conns, 1)
            ]
            for n in range(samples + 20 * connections):
                cursor, opening, closing = transactions[n % connections]
                started = time.perf_counter()
                cursor.execute(opening)
                while cursor.nextset():
                    pass
                cursor.fetchall()
                cursor.execute(closing)
                times.append((time.perf_counter() - started) * 1000)
                if gap_s:
                    time.sleep(gap_s)
        finally:
            conns[0].execute(f"DROP TABLE {table}")
    # the first few warm each connection and its plan
    measured = sorted(times[20 * connections :])
    return {
        "p50": statistics.median(measured),
        "p95": _percentile(measured, 95),
        "n": samples,
        "gap_ms": gap_s * 1000,
        "connections": connections,
    }


def paced_commit_ms(rate: float, processes: int, seconds: float = 4.0) -> dict[str, float]:
    """The commit of ``commit_round_trip_ms`` at the moves' pace: ``rate`` commits a second in
    all, as the load's moves reach PostgreSQL, on one connection per server process in turn, each
    idle as long as a process's move connection is between two of its moves; for about
    ``seconds`` (20 to 200 samples)."""
    gap_s = 1 / rate
    return commit_round_trip_ms(
        samples=max(20, min(200, int(seconds / gap_s))), gap_s=gap_s, connections=processes
    )


# --- floor against real -------------------------------------------------------------------------


@dataclass
class Run:
    round: int
    server: str  # "floor" or "real"
    figures: Figures

    @property
    def p50(self) -> float | None:
        return self.figures.latency("mover")["p50"]

    def cpu_ms_per_move(self) -> float | None:
        """Daphne's CPU (all its processes) per acknowledged move, in ms."""
        percent = sum(v for name, v in self.figures.cpu.items() if name.startswith("daphne#"))
        if not self.figures.achieved:
            return None
        return percent * 10 / self.figures.achieved


def comparison_report(
    runs: Sequence[Run], commits: Sequence[dict], paced: Sequence[dict] = ()
) -> list[str]:
    """The runs side by side, the commits measured after each round (back to back, and
    ``paced``: at the moves' pace), and per round the ratio real / floor p50 and the bound
    ``2 x floor p50 + one commit``, with each commit."""
    lines = [
        "floor against real (mover latency from send to its state; others: the table's other "
        "sockets)",
        "  round  server  moves/s   mover p50/p95/p99    others p50/p95/p99   daphne cpu ms/move",
    ]
    for run in runs:
        figures = run.figures
        mover, others = figures.latency("mover"), figures.latency("others")
        cpu = run.cpu_ms_per_move()
        lines.append(
            f"  {run.round:5d}  {run.server:6s} {figures.achieved:8.1f} "
            f"{_ms(mover['p50']):>7}/{_ms(mover['p95']):>5}/{_ms(mover['p99']):>6} "
            f"{_ms(others['p50']):>8}/{_ms(others['p95']):>5}/{_ms(others['p99']):>6} "
            f"{_ms(cpu):>12}"
        )
    for n, commit in enumerate(commits, 1):
        lines.append(
            f"commit after round {n} (BEGIN; SELECT ... FOR UPDATE | UPDATE; COMMIT, two round "
            f"trips, bare): p50 {commit['p50']:.2f} ms  p95 {_ms(commit['p95'])} ms "
            f"(n={commit['n']})"
        )
    for n, commit in enumerate(paced, 1):
        lines.append(
            f"commit at the moves' pace after round {n}, one every {commit['gap_ms']:.1f} ms "
            f"on {commit['connections']} connection(s) in turn (the same, each idle "
            f"{commit['gap_ms'] * commit['connections']:.1f} ms between two of its commits, as "
            f"a process's move connection is): p50 {commit['p50']:.2f} ms  "
            f"p95 {_ms(commit['p95'])} ms (n={commit['n']})"
        )
    rounds = sorted({run.round for run in runs})
    for n in rounds:
        # each round's bound with the commit measured right after it (none: no PostgreSQL)
        commit_p50 = commits[n - 1]["p50"] if n <= len(commits) else 0.0
        floor = next((r for r in runs if r.round == n and r.server == "floor"), None)
        real = next((r for r in runs if r.round == n and r.server == "real"), None)
        if floor is None or real is None or not floor.p50 or real.p50 is None:
            lines.append(f"round {n}: no ratio (a run has no figures)")
            continue
        bound = 2 * floor.p50 + commit_p50
        verdict = "within" if real.p50 <= bound else "over"
        lines.append(
            f"round {n}: real p50 / floor p50 = {real.p50:.2f} / {floor.p50:.2f} = "
            f"{real.p50 / floor.p50:.2f}x; bound 2 x floor p50 + one commit = "
            f"2 x {floor.p50:.2f} + {commit_p50:.2f} = {bound:.2f} ms: real p50 {verdict}"
        )
        if n <= len(paced):
            paced_bound = 2 * floor.p50 + paced[n - 1]["p50"]
            verdict = "within" if real.p50 <= paced_bound else "over"
            lines.append(
                f"round {n}: bound with the commit at the moves' pace = 2 x {floor.p50:.2f} + "
                f"{paced[n - 1]['p50']:.2f} = {paced_bound:.2f} ms: real p50 {verdict}"
            )
    return lines


# --- the trace ----------------------------------------------------------------------------------

# (stage, from, to): each a stretch of the move's timeline, in its order, from one edge of a span
# (games/trace.py: "decide.start", "decide.end") to another: a span's own length, or the gap
# between two. A move decided on the match as its process knew it has no read.
STAGES = (
    ("flood, wire checks", "checks.start", "checks.end"),
    ("shape check, the write made", "checks.end", "turn.start"),
    ("wait for the match's turn", "turn.start", "turn.end"),
    ("connection from the pool", "connection.start", "connection.end"),
    ("round trip 1: BEGIN + lock read", "read.start", "read.end"),
    ("decide (engine, records)", "decide.start", "decide.end"),
    ("last round trip: writes + COMMIT", "commit.start", "commit.end"),
    ("connection back, news's task starts", "commit.end", "news.start"),
    ("to the first socket's send", "news.start", "send:first.end"),
    ("to the last socket's send", "send:first.end", "send:last.end"),
    ("relay to other processes", "send:last.end", "news.end"),
)
TOTAL = ("server: receive -> last socket's send", "checks.start", "send:last.end")
CLIENT_IN = "client send -> server receive"
CLIENT_OUT = "mover's send -> client has it"


def trace_env(directory: str) -> dict[str, str]:
    """The environment that turns the trace on in the servers a fleet starts."""
    return {
        "GAMES_MOVE_TRACE": "1",
        "GAMES_MOVE_TRACE_FILE": os.path.join(directory, "move-trace-{pid}.jsonl"),
    }


def read_trace(directory: str) -> list[dict]:
    records = []
    for path in sorted(glob.glob(os.path.join(directory, "move-trace-*.jsonl"))):
        with open(path) as handle:
            for line in handle:
                line = line.strip()
                if line:
                    records.append(json.loads(line))
    return records


def _points(record: dict) -> dict[str, int]:
    """The edges of the move's spans by name ("decide.start", "decide.end"; the last span of a
    name, should there be two: a move read after all took a second connection and decided again);
    ``send:first`` and ``send:last`` over its sockets' sends."""
    points: dict[str, int] = {}
    sends = []
    for name, start, end in record["spans"]:
        if name.startswith("send:"):
            sends.append(end)
            if name == "send:mover":
                points.setdefault("send:mover.end", end)
        else:
            points[f"{name}.start"], points[f"{name}.end"] = start, end
    if sends:
        points["send:first.end"], points["send:last.end"] = min(sends), max(sends)
    return points


def trace_report(
    records: Sequence[dict],
    windows: Sequence[tuple[float, float]],
    acknowledged: Sequence[tuple[int, float, float]] = (),
) -> list[str]:
    """Each stage's p50 and p95 (ms) over the moves received within ``windows`` (perf_counter
    seconds: the measured steps). ``acknowledged``: the load test's (match, sent, received) per
    move, perf_counter seconds, which add the legs outside the server (the same clock: one host)."""
    timed = []
    for record in records:
        points = _points(record)
        received = points.get("checks.start", 0) / 1e9
        if any(start <= received <= stop for start, stop in windows):
            timed.append((record["match"], points))
    durations: dict[str, list[float]] = {}
    for _match, points in timed:
        for name, first, then in (*STAGES, TOTAL):
            if first in points and then in points:
                durations.setdefault(name, []).append((points[then] - points[first]) / 1e6)
    if acknowledged:
        by_match: dict[int, list[dict[str, int]]] = {}
        for match, points in timed:
            by_match.setdefault(match, []).append(points)
        for match, sent, received in acknowledged:
            for points in by_match.get(match, ()):
                arrived = points.get("checks.start", 0) / 1e9
                if sent <= arrived <= received and "send:mover.end" in points:
                    durations.setdefault(CLIENT_IN, []).append((arrived - sent) * 1000)
                    out = received - points["send:mover.end"] / 1e9
                    durations.setdefault(CLIENT_OUT, []).append(out * 1000)
                    break
    lines = [f"a move through the server (games/trace.py): {len(timed)} moves traced"]
    known = [points for _match, points in timed if "known.start" in points]
    read_again = sum(1 for points in known if "read.start" in points)
    lines.append(
        f"  decided on the match as the process knew it: {len(known)} moves,"
        f" {read_again} of them read again (the row had changed, or the move was refused)"
    )
    if not timed:
        lines.append("  (moves are traced on PostgreSQL, where they are written on the event loop)")
    lines.append(f"  {'stage':42s} {'p50 ms':>7} {'p95 ms':>7}")
    order = (
        ([CLIENT_IN] if acknowledged else [])
        + [name for name, _, _ in (*STAGES, TOTAL)]
        + ([CLIENT_OUT] if acknowledged else [])
    )
    for name in order:
        values = sorted(durations.get(name, ()))
        lines.append(
            f"  {name:42s} {_ms(_percentile(values, 50)):>7} {_ms(_percentile(values, 95)):>7}"
        )
    return lines


def windows_of(steps: Sequence[Figures]) -> list[tuple[float, float]]:
    return [(f.started, f.started + f.duration) for f in steps]


Acknowledged = tuple[int, float, float]  # (match, sent, received): LoadRun.on_acknowledged's


def acknowledgements() -> tuple[list[Acknowledged], Callable[[int, float, float], None]]:
    """A list and the LoadRun callback that fills it."""
    acked: list[Acknowledged] = []
    return acked, lambda match, sent, received: acked.append((match, sent, received))
