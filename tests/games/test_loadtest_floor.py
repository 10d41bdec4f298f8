"""``python -m tools.loadtest --floor`` and ``--trace`` (docs/capacity.md, "Where a move's time
goes"): the floor server speaks what the load test reads, the comparison prints both servers'
figures and the ratio, and the trace prints every stage of a move through the real server.

The runs are tiny (a table or two, a few seconds): they check the printout, not the figures.
"""

import asyncio
import json
import re
from io import StringIO

import pytest
from channels.testing import WebsocketCommunicator
from django.db import connection

from accounts.models import User
from games import trace
from games.models import Match
from tools.loadtest import compare, floor
from tools.loadtest.cli import CommandError, run_loadtest
from tools.loadtest.driver import STATE_PREFIX

TINY = ["--students=3", "--rate=6", "--duration=2", "--warmup=0.5"]


def figure(report: str, pattern: str) -> str:
    found = re.search(pattern, report, re.MULTILINE)
    assert found, f"{pattern!r} not in the report:\n{report}"
    return found.group(1)


# --- the floor server itself ---------------------------------------------------------------------


async def test_the_floor_sends_every_socket_of_the_match_each_new_version():
    sockets = [WebsocketCommunicator(floor.application, "/ws/match/424242/") for _ in range(3)]
    for socket in sockets:
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_from()
        assert first.startswith(STATE_PREFIX)  # what the load test reads without parsing
        assert json.loads(first)["version"] == floor.START_VERSION
    other_match = WebsocketCommunicator(floor.application, "/ws/match/424243/")
    await other_match.connect()
    await other_match.receive_from()

    for version in (1, 2):
        # any move at all: the load test's mirror chooses them, the floor only counts them
        await sockets[version % 3].send_to(
            text_data=json.dumps({"type": "move", "move": {"type": "x"}, "client_id": "c"})
        )
        for socket in sockets:
            assert json.loads(await socket.receive_from())["version"] == version

    assert await other_match.receive_nothing()
    for socket in (*sockets, other_match):
        await socket.disconnect()


# --- the comparison and the trace, briefly, through the real entry point --------------------------


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
def test_floor_runs_floor_and_real_alternately_and_prints_the_ratio_and_the_bound(services):
    out = StringIO()
    results = run_loadtest(["--daphnes=1", *TINY, "--floor", "--rounds=2"], stdout=out)
    report = out.getvalue()

    rounds = re.findall(r"^round (\d)/2: (floor|real)$", report, re.MULTILINE)
    assert rounds == [("1", "floor"), ("1", "real"), ("2", "floor"), ("2", "real")], report
    assert len(re.findall(r"^  errors: 0$", report, re.MULTILINE)) == 4, report
    for n in (1, 2):
        for server in ("floor", "real"):
            p50 = figure(report, rf"^\s+{n}\s+{server}\s+[\d.]+\s+([\d.]+)/")
            assert float(p50) > 0
        commit = figure(report, rf"^commit after round {n} .*: p50 ([\d.]+) ms")
        assert 0 < float(commit) < 1000
        real, floor_p50, ratio = (
            float(x)
            for x in re.search(
                rf"^round {n}: real p50 / floor p50 = ([\d.]+) / ([\d.]+) = ([\d.]+)x",
                report,
                re.MULTILINE,
            ).groups()
        )
        assert ratio == pytest.approx(real / floor_p50, abs=0.01)
        bound = float(
            figure(report, rf"^round {n}: .*2 x floor p50 \+ one commit = .* = ([\d.]+) ms")
        )
        assert bound == pytest.approx(2 * floor_p50 + float(commit), abs=0.02)
        # The same bound with a commit made at the moves' pace (6 moves/s on one process, one
        # every 167 ms on one connection): its connection idle between, as a move's is.
        paced_line = rf"^commit at the moves' pace after round {n}, one every ([\d.]+) ms"
        gap = figure(report, paced_line)
        on = rf"^commit at the moves' pace after round {n}, .* ms on (\d+) connection\(s\) in turn"
        assert figure(report, on) == "1"
        paced = figure(report, rf"^commit at the moves' pace after round {n}, .*: p50 ([\d.]+) ms")
        assert float(gap) == pytest.approx(1000 / 6, abs=1)
        assert 0 < float(paced) < 1000
        paced_bound = float(
            figure(
                report, rf"^round {n}: bound with the commit at the moves' pace = .* = ([\d.]+) ms"
            )
        )
        assert paced_bound == pytest.approx(2 * floor_p50 + float(paced), abs=0.02)
    assert [(run["round"], run["server"]) for run in results["runs"]] == [
        (1, "floor"),
        (1, "real"),
        (2, "floor"),
        (2, "real"),
    ]
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Match.objects.exists()


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
def test_trace_prints_every_stage_of_a_move_through_the_real_server(services):
    out = StringIO()
    run_loadtest(["--daphnes=1", *TINY, "--trace"], stdout=out)
    report = out.getvalue()

    traced = int(figure(report, r"^a move through the server .*: (\d+) moves traced"))
    acknowledged = int(figure(report, r"moves: (\d+) acknowledged"))
    assert traced >= acknowledged > 0, report
    # One table's moves all go to one process: after its first, each is decided on the match as
    # that process wrote it, without the read of round trip 1 (games/services/writes.py).
    known = int(figure(report, r"decided on the match as the process knew it: (\d+) moves"))
    assert traced >= known >= traced - 2, report
    read = "round trip 1: BEGIN + lock read"
    for name in (
        compare.CLIENT_IN,
        *(stage for stage, _, _ in compare.STAGES if stage != read),
        compare.TOTAL[0],
        compare.CLIENT_OUT,
    ):
        p50, p95 = re.search(
            rf"^  {re.escape(name)}\s+([\d.]+)\s+([\d.]+)$", report, re.MULTILINE
        ).groups()
        assert float(p50) <= float(p95), name
    # The whole is no shorter than its round trip.
    total = float(figure(report, rf"^  {re.escape(compare.TOTAL[0])}\s+([\d.]+)"))
    round_trip = float(figure(report, r"^  last round trip: writes \+ COMMIT\s+([\d.]+)"))
    assert total >= round_trip


@pytest.mark.timeout(60)
@pytest.mark.django_db(transaction=True)
def test_the_commit_at_the_moves_pace_takes_turns_on_one_connection_per_server_process(services):
    # 400 commits a second on two processes: PostgreSQL sees one every 2.5 ms, and each process's
    # connection is idle 5 ms between two of its own.
    paced = compare.paced_commit_ms(rate=400, processes=2, seconds=0.1)

    assert (paced["gap_ms"], paced["connections"], paced["n"]) == (2.5, 2, 40)
    assert 0 < paced["p50"] <= paced["p95"] < 1000
    report = compare.comparison_report([], [], [paced])
    assert report[-1].startswith(
        "commit at the moves' pace after round 1, one every 2.5 ms on 2 connection(s) in turn "
        "(the same, each idle 5.0 ms between two of its commits"
    ), report
    with connection.cursor() as cursor:  # the probe's table is gone
        cursor.execute(
            "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'loadtest_commit_probe_%'"
        )
        assert cursor.fetchone() == (0,)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "refusal"),
    [
        (["--floor", "--game=mia"], "cannot race"),
        (["--floor", "--url=ws://127.0.0.1:1"], "give --daphnes N"),
        (["--floor", "--daphnes=2", "--route=socket"], "--route match"),
        (["--floor", "--daphnes=1", "--rounds=0"], "--rounds"),
        (["--floor", "--daphnes=1", "--ramp=10,20"], "not a --ramp"),
        (["--trace", "--url=ws://127.0.0.1:1"], "servers it starts"),
    ],
)
def test_what_the_floor_and_the_trace_cannot_do_is_refused_clearly(arguments, refusal):
    with pytest.raises(CommandError, match=re.escape(refusal)):
        run_loadtest(["--students=3", *arguments], stdout=StringIO())
    assert not User.objects.filter(username__startswith="loadtest-").exists()


# --- the trace's record and its report ------------------------------------------------------------


def test_a_traced_move_is_written_once_with_its_spans_in_order(tmp_path, monkeypatch):
    monkeypatch.setattr(trace, "FILE", str(tmp_path / "t-{pid}.jsonl"))
    monkeypatch.setattr(trace, "_out", None)

    @trace.recorded_span("decide")
    def decide():
        return "decided"

    @trace.recorded_span("news", last=True)
    async def news():
        with trace.Span("send:mover"):
            await asyncio.sleep(0)

    received = trace.now()
    with trace.recorded_move(7, received):
        with trace.Span("turn"):
            pass
        assert decide() == "decided"
        asyncio.run(news())  # a task of its own, as the news's is: the record goes with it
        with trace.Span("late"):  # after the record was written: ignored
            pass
    trace._out.close()
    with trace.Span("nothing"):  # no move in this context: nothing happens
        pass

    (path,) = tmp_path.iterdir()
    (line,) = path.read_text().splitlines()  # written once
    record = json.loads(line)
    assert record["match"] == 7
    names = [name for name, _, _ in record["spans"]]
    assert names == ["checks", "turn", "decide", "send:mover", "news"]
    assert record["spans"][0][1] == received
    for _, start, end in record["spans"]:
        assert start <= end
    ends = [end for _, _, end in record["spans"]]  # each written as it ends
    assert ends == sorted(ends)


def test_tracing_off_leaves_the_hot_path_a_shared_null_context_and_the_function_as_it_was():
    def decide():
        return "decided"

    off_span, off_move = trace._off_span("decide"), trace._off_move(7, 0)
    assert off_span is off_move is trace._OFF
    assert trace._off_spanned("news", last=True)(decide) is decide
    with off_span:
        pass


def test_the_trace_is_off_unless_asked_for():
    # the suite's servers and tests run without GAMES_MOVE_TRACE
    assert trace.ON is False


def test_the_trace_report_takes_stages_and_legs_from_the_moves_of_the_measured_window():
    ms = 1_000_000

    def record(match, at_ms):
        base = at_ms * ms
        spans = [  # name, start, end, in ms after the move was received
            ("checks", 0, 1), ("turn", 2, 3), ("connection", 3, 4), ("read", 4, 5),
            ("decide", 5, 6), ("commit", 6, 7), ("news", 10, 13), ("send:other", 10, 11),
            ("send:mover", 11, 12),
        ]  # fmt: skip
        return {"match": match, "spans": [[n, base + s * ms, base + e * ms] for n, s, e in spans]}

    records = [record(1, 1000), record(2, 1100), record(3, 9000)]  # the last: out of the window
    acknowledged = [(1, 0.999, 1.0150), (2, 1.099, 1.1150)]
    lines = compare.trace_report(records, [(0.5, 2.0)], acknowledged)

    assert lines[0].endswith(": 2 moves traced")
    table = {line[:44].strip(): line[44:].split() for line in lines[2:]}
    assert table["round trip 1: BEGIN + lock read"] == ["1.0", "1.0"]
    assert table["to the first socket's send"] == ["1.0", "1.0"]
    assert table["to the last socket's send"] == ["1.0", "1.0"]
    assert table[compare.TOTAL[0]] == ["12.0", "12.0"]
    assert table[compare.CLIENT_IN] == ["1.0", "1.0"]
    assert table[compare.CLIENT_OUT] == ["3.0", "3.0"]  # send:mover ends at +12 ms, received at +15
