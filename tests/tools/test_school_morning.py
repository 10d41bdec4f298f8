"""tools.school_morning, run as an operator runs it (a process of its own on a SQLite file of its
own, one Daphne it starts): a small morning seats every child, nobody legitimate is refused, the
hammering pupil and the outsider are slowed down, and their victims are not."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import copy_database, embedded_environment

ROOT = Path(__file__).resolve().parents[2]


def run_tool(args, environment, timeout):
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# On a SQLite file of its own whatever the environment: the services pass would run it as this one.
@pytest.mark.embedded
@pytest.mark.slow
@pytest.mark.timeout(420)
def test_a_small_morning_seats_every_child_and_slows_the_guessers(tmp_path, migrated_database):
    database = tmp_path / "morning.sqlite3"
    copy_database(migrated_database, database)
    environment = embedded_environment(database)
    # The pupil typing codes passes the address's free wrong codes within the short morning.
    environment["SIGN_IN_WRONG_CODES_FROM_ADDRESS"] = "10,1,30,3600"
    morning = [
        "-m", "tools.school_morning", "--children", "40", "--class-size", "20",
        "--minutes", "0.25", "--hammer-tries", "40", "--outsider-guesses", "60",
        "--code-guesses", "130", "--teacher-guesses", "15", "--outsider-addresses", "5",
    ]  # fmt: skip
    run = run_tool(morning, environment, 360)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "seated: 40 of 40" in out
    assert "legitimate children refused: 0" in out
    assert "legitimate children with errors: 0" in out
    assert re.search(
        r"hammered classmate \(on their own tablet\): seated in [\d.]+ s, refused 0", out
    )
    assert "teacher on her own laptop behind the school address: signed in" in out
    pupil = re.search(r"pupil: (\d+) wrong-secret tries, (\d+) tested, (\d+) refused", out)
    outsider = re.search(r"outsider: (\d+) wrong-secret tries, (\d+) tested, (\d+) refused", out)
    # Past their free failures both only wait: most of their tries are refused untested.
    assert pupil and int(pupil[3]) > 0 and int(pupil[2]) < int(pupil[1]), out
    assert outsider and int(outsider[3]) > 0, out
    # The pupil who spends the school's wrong codes, the outsiders with many addresses and the
    # pupil at the teacher's password refuse nobody legitimate.
    assert out.count("legitimate refusals in the class it guessed at: 0") == 3, out
    assert "legitimate refusals at the class code: 0" in out
    codes = re.search(r"pupil typing random class codes: (\d+) tries, (\d+) refused", out)
    assert codes and int(codes[1]) > 10 and int(codes[2]) > 0, out
    teacher = re.search(r"pupil guessing the teacher's password: 15 tries, (\d+) refused", out)
    assert teacher and int(teacher[1]) > 0, out
    assert re.search(r"outsider from 5 addresses: \d+ wrong-secret tries", out), out
    assert re.search(r"outsider from one IPv6 /64: \d+ wrong-secret tries", out), out
