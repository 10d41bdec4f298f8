"""``python -m tools.loadtest``: the real load test, briefly, with a handful of students.

The embedded run starts the script, which starts its own Daphne, on a scratch SQLite file (a
subprocess, since the server must share the database file with the script). The services runs
start two Daphne processes on the test database and Redis.
"""

import os
import re
import sqlite3
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings as django_settings

from accounts.models import User
from games.models import Match
from tests.conftest import copy_database
from tools.loadtest.cli import CommandError, run_loadtest

ROOT = Path(django_settings.BASE_DIR)
BRIEFLY = ["--duration=3", "--warmup=0.5"]
RATE_12 = ["--rate=12", *BRIEFLY]
RACE_3 = ["--rate=3", *BRIEFLY]


def figure(report: str, pattern: str) -> str:
    found = re.search(pattern, report, re.MULTILINE)
    assert found, f"{pattern!r} not in the report:\n{report}"
    return found.group(1)


def check_report(report: str, students: int) -> None:
    assert figure(report, r"^connected sockets: (\d+)/") == str(students)
    # At the end, a socket is open or its table is between two games (a game ended as the step
    # did, which a slow machine makes likelier): none is lost.
    at_the_end = re.search(
        r"^  connected sockets: (\d+)/(\d+)(?: \((\d+) between games\))?$", report, re.MULTILINE
    )
    assert at_the_end, report
    connected, sockets, between_games = (int(n or 0) for n in at_the_end.groups())
    assert sockets == students and connected + between_games == students, report
    assert int(figure(report, r"moves: (\d+) acknowledged")) > 0
    assert float(figure(report, r"= ([\d.]+)/s achieved")) > 0
    assert figure(report, r"latency mover \(ms\): p50 ([\d.]+)")
    assert figure(report, r"latency others \(ms\): p50 ([\d.]+)")
    assert figure(report, r"lost messages: (\d+)") == "0"
    assert figure(report, r"out-of-order messages: (\d+)") == "0"
    assert figure(report, r"^  errors: (\d+)") == "0"
    assert "daphne#1" in figure(report, r"cpu % of one core: (.*)$")
    assert figure(report, r"cleaned up (\d+) students") == str(students)


def script_on_a_sqlite_file(migrated, database, *arguments) -> subprocess.CompletedProcess:
    """``python -m tools.loadtest`` with ``arguments`` on a migrated SQLite file of its own (a
    copy of ``migrated``; and its own Daphne), as a developer without services runs it."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    copy_database(migrated, database)
    return subprocess.run(
        [sys.executable, "-m", "tools.loadtest", *arguments],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )


@pytest.mark.slow
@pytest.mark.embedded  # its own Daphne on its own SQLite file, whatever the environment
def test_the_script_plays_through_its_own_daphne_on_a_sqlite_file(tmp_path, migrated_database):
    database = tmp_path / "load.sqlite3"
    done = script_on_a_sqlite_file(
        migrated_database, database, "--daphnes=1", "--students=6", *RATE_12
    )

    assert done.returncode == 0, done.stdout + done.stderr
    check_report(done.stdout, students=6)
    assert "6 students at 2 tables of 3" in done.stdout
    with sqlite3.connect(database) as db:  # it cleaned up after itself
        left = db.execute(
            "select count(*) from accounts_user where username like 'loadtest-%'"
        ).fetchone()
        assert left == (0,)
        assert db.execute("select count(*) from games_match").fetchone() == (0,)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_load_test_spreads_students_over_two_daphnes_sharing_redis(services):
    out = StringIO()
    run_loadtest(
        ["--daphnes=2", "--students=9", "--rate=15", "--duration=3", "--warmup=0.5"], stdout=out
    )
    report = out.getvalue()
    check_report(report, students=9)
    assert len(re.findall(r"ws://127\.0\.0\.1:\d+", report)) == 2
    assert "daphne#2" in figure(report, r"cpu % of one core: (.*)$")
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_several_daphnes_without_postgres_and_redis_is_refused_clearly(settings):
    settings.REDIS_URL = ""
    with pytest.raises(CommandError, match=r"DATABASE_URL .*REDIS_URL"):
        run_loadtest(["--daphnes=2", "--students=3"], stdout=StringIO())
    assert not User.objects.filter(username__startswith="loadtest-").exists()


@pytest.mark.django_db
def test_nginx_without_daphnes_of_its_own_is_refused_clearly():
    with pytest.raises(CommandError, match="--nginx goes in front of --daphnes"):
        run_loadtest(["--url=ws://127.0.0.1:1", "--nginx", "--students=3"], stdout=StringIO())


@pytest.mark.django_db
def test_students_come_in_tables_of_three():
    with pytest.raises(CommandError, match="multiple of 3"):
        run_loadtest(["--students=4"], stdout=StringIO())


def test_sockets_closed_between_two_games_are_told_apart_from_lost_ones():
    from tools.loadtest.driver import Figures, LoadRun, Student, TableSpec, step_report

    students = [Student(n, f"S{n}", f"sessionid=k{n}") for n in range(9)]
    specs = [TableSpec(students[n : n + 3], n, n, None) for n in (0, 3, 6)]
    run = LoadRun(tables=specs, urls=["ws://a"], game="add_up", variant="standard", level="easy")
    playing, restarting, broken = run.tables
    for table in run.tables:
        table.busy = False
    for sock in playing.socks + broken.socks[:1]:
        sock.ws = object()  # open
    restarting.busy = True  # its old sockets closed, its new ones not yet open
    broken.busy = broken.broken = True  # its next game could not connect

    figures = Figures(target_rate=1, connected=run.connected(), sockets=len(run.sockets))
    figures.between_games = run.between_games()

    assert (figures.connected, figures.between_games) == (4, 3)
    assert step_report(figures)[0] == "connected sockets: 4/9 (3 between games)"
    assert figures.as_dict()["between_games"] == 3


# --- the ¡Mía! claim race ------------------------------------------------------------------------


def check_race(report: str, students: int, skipped: bool = False) -> None:
    """Every card some seat could claim was won exactly once, nothing was lost, and the latency
    from the first claim to every socket was measured. Versions a socket skipped are allowed only
    when ``skipped``: on two processes the news of two answers a millisecond apart can cross."""
    assert figure(report, r"^connected sockets: (\d+)/") == str(students)
    cards = int(figure(report, r"cards: (\d+) settled"))
    assert cards >= 3
    assert (
        int(figure(report, r"claim -> every socket \(ms\): p50 [\d.]+ .*\(n=(\d+)\)")) >= 3 * cards
    )
    winners = figure(report, r"^  winners per card: (.*) \(cards some seat")
    assert re.fullmatch(r"1: \d+", winners), report  # exactly one winner, for every card
    assert figure(report, r"not won exactly once: (\d+)") == "0"
    assert int(figure(report, r"(\d+) right claims")) > 0
    assert figure(report, r"^  lost: answers (\d+)") == "0"
    assert figure(report, r"sockets never settled (\d+)") == "0"
    if not skipped:
        assert figure(report, r"versions a socket skipped: (\d+)") == "0"
    assert figure(report, r"out-of-order messages: (\d+)") == "0"
    assert figure(report, r"^  errors: (\d+)") == "0"
    assert figure(report, r"cleaned up (\d+) students") == str(students)


@pytest.mark.slow
@pytest.mark.embedded  # its own Daphne on its own SQLite file, whatever the environment
def test_the_mia_race_through_the_script_and_its_own_daphne_on_a_sqlite_file(
    tmp_path, migrated_database
):
    database = tmp_path / "race.sqlite3"
    done = script_on_a_sqlite_file(
        migrated_database, database, "--game=mia", "--students=6", *RACE_3
    )

    assert done.returncode == 0, done.stdout + done.stderr
    assert "playing mia/party, every seat answering each card at once" in done.stdout
    check_race(done.stdout, students=6)


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.django_db(transaction=True)
def test_the_mia_race_on_two_daphnes_has_one_winner_per_card_and_loses_nothing(services):
    out = StringIO()
    results = run_loadtest(
        ["--game=mia", "--daphnes=2", "--students=9", "--rate=6", "--duration=4", "--warmup=0.5"],
        stdout=out,
    )
    report = out.getvalue()
    check_race(report, students=9, skipped=True)
    step = results["steps"][0]
    assert step["winners_per_claimable_card"] == {
        "1": sum(step["winners_per_claimable_card"].values())
    }
    assert step["lost_answers"] == step["unsettled_sockets"] == 0
    assert "daphne#2" in figure(report, r"cpu % of one core: (.*)$")
    assert not User.objects.filter(username__startswith="loadtest-").exists()
    assert not Match.objects.exists()


def test_sockets_go_round_robin_or_each_match_to_one_server():
    from tools.loadtest.driver import LoadRun, Student, TableSpec

    students = [Student(n, f"S{n}", f"sessionid=k{n}") for n in range(6)]
    specs = [TableSpec(students[n : n + 3], 10 + n, n, None) for n in (0, 3)]  # matches 10, 13
    urls = ["ws://a", "ws://b"]

    def servers(route):
        run = LoadRun(
            tables=specs, urls=urls, game="add_up", variant="standard", level="easy", route=route
        )
        return [[sock.url for sock in table.socks] for table in run.tables]

    assert servers("socket") == [["ws://a", "ws://b", "ws://a"], ["ws://b", "ws://a", "ws://b"]]
    assert servers("match") == [["ws://a"] * 3, ["ws://b"] * 3]


def test_a_seat_claims_from_its_own_view_exactly_when_the_engine_has_a_right_claim():
    """The race's seats decide from what their page shows; across many deals their claim is the
    engine's judgement: one exactly when the engine's hint has one, and always right."""
    import random

    import engine
    from tools.loadtest.mia import OPTIONS, VARIANT, right_claim

    rules = engine.get_game("mia")
    rng = random.Random(7)
    claims = 0
    for seed in range(60):
        state = rules.new(variant=VARIANT, players=3, seed=seed, options=OPTIONS, now_ms=0)
        for _ in range(rng.randrange(4)):  # a few cards on, from passes and claims
            for seat in range(3):
                move = rules.hint(state, seat) or {"type": "pass", "round": state.data["round"]}
                if seat in rules.active(state):
                    state = rules.apply(state, seat, move, 1000).state
                if rules.outcome(state) is not None:
                    break
        if rules.outcome(state) is not None:
            continue
        for seat in range(3):
            claim = right_claim(rules.view(state, seat))
            assert (claim is None) == (rules.hint(state, seat) is None)
            if claim is not None:
                claims += 1
                events = rules.apply(state, seat, claim, 2000).events
                assert any(event["type"] == "claim_won" for event in events), (claim, events)
    assert claims > 20
